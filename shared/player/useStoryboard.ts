import { useCallback, useRef, useState } from "react";
import type { StoryboardCue } from "../stream/storyboard";

/**
 * The seek-preview storyboard of a title (storyboard.vtt + sprite sheets), fetched once, on the
 * first hover or touch of the progress bar (or earlier through `load()`); `cueAt(t)` is the tile
 * for a time, null while unknown or when the title has no storyboard.
 */
export function useStoryboard(url: string) {
  const [board, setBoard] = useState<{ cues: StoryboardCue[]; cueAt: (cues: readonly StoryboardCue[], t: number) => StoryboardCue | null } | null>(null);
  const requested = useRef(false);
  const load = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    // The cue parser is loaded with the cues (only viewers who reach for the progress bar need it).
    Promise.all([fetch(url).then((res) => (res.ok ? res.text() : Promise.reject(new Error(`storyboard ${res.status}`)))), import("../stream/storyboard")])
      .then(([text, { parseStoryboardVtt, storyboardCueAt }]) => {
        // Sheet names in the VTT are relative to it.
        const base = new URL(url, location.href);
        setBoard({ cues: parseStoryboardVtt(text).map((cue) => ({ ...cue, url: new URL(cue.url, base).pathname })), cueAt: storyboardCueAt });
      })
      .catch((error: unknown) => console.warn("预览图加载失败", error));
  }, [url]);
  const cueAt = useCallback((t: number) => (board ? board.cueAt(board.cues, t) : null), [board]);
  return { load, cueAt };
}
