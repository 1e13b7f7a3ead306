import { useEffect, useRef } from "react";
import { isTypingTarget } from "./typing-target";

export type EpisodeKey = "previous" | "next";

/**
 * P / N (either case) go to the previous / next episode. The player's own shortcuts
 * (shared/player/usePlayerKeyboard.ts: Space K ← → ↑ ↓ F M C) use neither letter.
 */
export function episodeKeyFor(
  event: Pick<KeyboardEvent, "key" | "defaultPrevented" | "isComposing" | "ctrlKey" | "metaKey" | "altKey" | "repeat" | "target">,
): EpisodeKey | null {
  if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return null;
  const key = event.key.toLowerCase();
  const command = key === "n" ? "next" : key === "p" ? "previous" : null;
  if (!command || isTypingTarget(event.target)) return null;
  return command;
}

/** Page-wide 上一集 / 下一集 shortcuts; `go` gets the key pressed (only keys whose episode exists should act). */
export function useEpisodeKeys(go: (key: EpisodeKey) => boolean): void {
  const latest = useRef(go);
  useEffect(() => {
    latest.current = go;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const key = episodeKeyFor(event);
      if (key && latest.current(key)) event.preventDefault();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
