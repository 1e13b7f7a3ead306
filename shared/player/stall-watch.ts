import { ROOM_START_WAITING } from "./watch/in-room";

/** How often a playing <video> is checked for a stall. */
const CHECK_EVERY_MS = 250;

/**
 * Watches a <video> that should be playing for a stall (not paused or ended, and the clock
 * standing still) and calls `onStalled` with how long it has lasted, every check while
 * it lasts. Polled rather than driven by `waiting`: a player that never got going fires none.
 * Returns the function that stops the watch.
 */
export function watchStalls(video: HTMLVideoElement, onStalled: (stalledMs: number) => boolean | void): () => void {
  let stalledSince = 0;
  let lastTime = -1;
  const timer = setInterval(() => {
    const now = performance.now();
    // The clock standing still while it should run (Chromium's own HLS may even report enough data while stuck);
    // not while the element waits for its 一起看 room with nothing to load yet (stream-engine.ts): that is no line's stall.
    const stuck = !video.paused && !video.ended && video.currentTime === lastTime && !video.hasAttribute(ROOM_START_WAITING);
    lastTime = video.currentTime;
    if (!stuck) {
      stalledSince = 0;
      return;
    }
    stalledSince ||= now;
    // true: the stall was acted on; it counts afresh from here.
    if (onStalled(now - stalledSince) === true) stalledSince = 0;
  }, CHECK_EVERY_MS);
  return () => clearInterval(timer);
}

/** Network errors older than this no longer count against a stream. */
const TROUBLE_WINDOW_MS = 30_000;

/** A stream's network errors (useStream's `trouble`) that still count now. */
export const recentErrors = (trouble: { errors: number; lastAt: number }): number =>
  performance.now() - trouble.lastAt < TROUBLE_WINDOW_MS ? trouble.errors : 0;
