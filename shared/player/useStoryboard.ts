import { useCallback, useRef, useState } from "react";
import { parseStoryboardVtt, storyboardCueAt, type StoryboardCue } from "../stream/storyboard";

/**
 * The seek-preview storyboard of a title (storyboard.vtt + sprite sheets), fetched once, on the
 * first hover or touch of the progress bar (or earlier through `load()`); `cueAt(t)` is the tile
 * for a time, null while unknown or when the title has no storyboard.
 */
export function useStoryboard(url: string) {
  const [cues, setCues] = useState<StoryboardCue[] | null>(null);
  const requested = useRef(false);
  const load = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    fetch(url)
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`storyboard ${res.status}`))))
      .then((text) => {
        // Sheet names in the VTT are relative to it.
        const base = new URL(url, location.href);
        setCues(parseStoryboardVtt(text).map((cue) => ({ ...cue, url: new URL(cue.url, base).pathname })));
      })
      .catch((error: unknown) => console.warn("预览图加载失败", error));
  }, [url]);
  const cueAt = useCallback((t: number) => (cues ? storyboardCueAt(cues, t) : null), [cues]);
  return { load, cueAt };
}
