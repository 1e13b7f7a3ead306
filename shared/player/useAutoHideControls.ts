import { useCallback, useEffect, useRef, useState } from "react";
import { playerConfig } from "../playback/config";

/**
 * Shown/hidden state of the player's controls: `show()` (mouse movement,
 * touch, focus, a shortcut) shows them and, while playing, hides them again
 * after `delay`; `hide()` (mouse leaving) hides them at once while playing.
 * Paused, they stay shown.
 */
export function useAutoHideControls(playing: boolean, delay: number = playerConfig.hideDelayMs) {
  const [visible, setVisible] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const playingRef = useRef(playing);

  const show = useCallback(() => {
    setVisible(true);
    clearTimeout(timer.current);
    if (playingRef.current) timer.current = setTimeout(() => setVisible(false), delay);
  }, [delay]);

  const hide = useCallback(() => {
    if (!playingRef.current) return;
    clearTimeout(timer.current);
    setVisible(false);
  }, []);

  // Starting or stopping shows the controls (adjusted while rendering, not in an effect) ...
  const [shownFor, setShownFor] = useState(playing);
  if (shownFor !== playing) {
    setShownFor(playing);
    setVisible(true);
  }
  // ... and while playing they hide again after `delay`.
  useEffect(() => {
    playingRef.current = playing;
    clearTimeout(timer.current);
    if (playing) timer.current = setTimeout(() => setVisible(false), delay);
    return () => clearTimeout(timer.current);
  }, [playing, delay]);

  return { visible, show, hide };
}
