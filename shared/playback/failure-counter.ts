/**
 * Playback failures in a row. Module state (browser only: the handlers that
 * change it never run on the server), so it survives the client-side
 * navigations from a broken video to the next one; a successful start resets it.
 */
export const MAX_FAILURES = 3;

let failures = 0;

/** Counts one more failure and returns how many happened in a row. */
export function recordFailure(): number {
  return ++failures;
}

export function resetFailures(): void {
  failures = 0;
}
