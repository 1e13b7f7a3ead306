/**
 * The hand-over between the early controls (client/inline/early-controls.ts, part of a player
 * page's head script) and the player (VideoPlayer.tsx). Until the player has hydrated, the early
 * controls answer the viewer on the server's <video>: they act on the element at once (play and
 * pause, sound, seeking, fullscreen, the clock) and hold every other tap to replay it once its
 * code is there. docs/decisions/0017-early-input.md.
 */

/** The window property the head script sets on a player page. */
export const EARLY_INPUT_FLAG = "__earlyInput";

/** What the viewer decided on the server's <video> before the player took over. */
export interface EarlyDecisions {
  /** True when the viewer paused (and left it paused), false when they played, null when untouched. */
  paused: boolean | null;
  /** The sound the viewer chose (mute button, volume slider, ↑/↓, M), null when untouched. */
  sound: { muted: boolean; volume: number } | null;
  /** The viewer moved the playhead (progress bar, double tap, ←/→). */
  seeked: boolean;
}

export interface EarlyInput {
  /**
   * The player has hydrated: from now on it answers every input. Returns what the viewer decided
   * meanwhile and replays, on the hydrated controls, the taps held back for them. Only the first
   * call hands over; later calls (the player of another page, opened client-side) get nothing decided.
   */
  handOver(): EarlyDecisions;
}

/** The early controls of this page, when its head script installed them. */
export function earlyInput(): EarlyInput | null {
  if (typeof window === "undefined") return null;
  return (window as unknown as Record<string, EarlyInput | undefined>)[EARLY_INPUT_FLAG] ?? null;
}
