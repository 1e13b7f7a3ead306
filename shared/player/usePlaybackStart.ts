import { useEffect, useRef, type RefObject } from "react";
import { earlyInput, type EarlyDecisions } from "./early-input";

/**
 * Starts playback once `ready` (the stored preferences applied and the element bound to the
 * stream), unless a failure is being handled. It first takes over from the early controls what the
 * viewer did on the server's <video> before hydration (docs/decisions/0017-early-input.md): their
 * sound stands over the stored one, a seek dismisses 继续播放, a pause is kept. A ?t= link
 * (`startAt`) starts there unless the viewer already moved the playhead.
 */
export function usePlaybackStart(
  videoRef: RefObject<HTMLVideoElement | null>,
  ready: boolean,
  actions: {
    isHandled: () => boolean;
    start: () => Promise<unknown>;
    setVolume: (volume: number, muted?: boolean) => void;
    dismissResume: () => void;
    startAt: number | null;
  },
): void {
  // Declared before the start below, so the hand-over has run by then.
  const early = useRef<EarlyDecisions | null>(null);
  useEffect(() => {
    early.current = earlyInput()?.handOver() ?? null;
  }, []);

  const started = useRef(false);
  // After every render until started: `isHandled` reads a ref, so no dependency list tells when it changes.
  useEffect(() => {
    const { isHandled, start, setVolume, dismissResume, startAt } = actions;
    if (!ready || started.current || isHandled()) return;
    started.current = true;
    const { sound, seeked, paused } = early.current ?? {};
    if (sound) setVolume(sound.volume, sound.muted);
    if (seeked) dismissResume();
    const v = videoRef.current;
    if (startAt !== null && v && !seeked) {
      const seek = () => {
        if (startAt < v.duration) v.currentTime = startAt;
      };
      if (v.readyState >= 1) seek();
      else v.addEventListener("loadedmetadata", seek, { once: true });
    }
    if (paused) return;
    // Nor over a pause after the page hydrated: the element had played (its early start) and stands paused.
    if (v && v.paused && !v.ended && v.played.length > 0) return;
    void start();
  });
}
