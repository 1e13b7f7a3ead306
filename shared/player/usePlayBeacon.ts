import { useEffect, type RefObject } from "react";

/** A play counts once the video has really played this long (seeks and pauses do not add up). */
export const PLAY_COUNT_AFTER_SECONDS = 10;

/** Largest step between two timeupdate events that is playback rather than a seek. */
const MAX_STEP_SECONDS = 2;

/**
 * Adds up the seconds a title really plays and, at PLAY_COUNT_AFTER_SECONDS, tells the worker
 * once (POST /api/plays/:id, same origin; worker/plays/api.ts counts it once per visitor per day).
 */
export function usePlayBeacon(videoRef: RefObject<HTMLVideoElement | null>, id: string): void {
  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    let played = 0;
    let last = v.currentTime;
    let sent = false;
    const onTime = () => {
      const step = v.currentTime - last;
      last = v.currentTime;
      if (sent || v.paused || v.seeking || step <= 0 || step > MAX_STEP_SECONDS * Math.max(1, v.playbackRate)) return;
      played += step;
      if (played < PLAY_COUNT_AFTER_SECONDS) return;
      sent = true;
      void fetch(`/api/plays/${encodeURIComponent(id)}`, { method: "POST", keepalive: true }).catch(() => {
        // A lost beacon loses one count, never the playback.
      });
    };
    const onSeeked = () => {
      last = v.currentTime;
    };
    v.addEventListener("timeupdate", onTime);
    v.addEventListener("seeked", onSeeked);
    return () => {
      v.removeEventListener("timeupdate", onTime);
      v.removeEventListener("seeked", onSeeked);
    };
  }, [videoRef, id]);
}
