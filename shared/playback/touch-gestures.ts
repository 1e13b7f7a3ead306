import { playerConfig } from "./config";

/** The third of the picture a tap landed in. */
export type TapZone = "left" | "center" | "right";

/** A tap that ended: when (event time, ms) and where. */
export interface Tap {
  at: number;
  zone: TapZone;
}

/** What a tap does: seek (a double tap on the left or right third), or a single tap, now or once no second tap can follow. */
export type TapOutcome = { kind: "seek"; seconds: number; hint: string } | { kind: "tap"; deferMs: number };

/** Whether input of this pointer type is a touch (pen included): only mouse input keeps click = play/pause. */
export const isTouchPointer = (pointerType: string): boolean => pointerType !== "mouse";

/** The zone of a tap at `clientX` on a box from `left`, `width` wide: the left, middle or right third. */
export function tapZone(clientX: number, left: number, width: number): TapZone {
  const x = (clientX - left) / width;
  return x < 1 / 3 ? "left" : x > 2 / 3 ? "right" : "center";
}

/** Whether a touch moved from where it came down further than the slop: it is then neither a tap nor a long press. */
export function movedBeyondSlop(down: { x: number; y: number }, x: number, y: number, slopPx: number = playerConfig.touchSlopPx): boolean {
  return Math.hypot(x - down.x, y - down.y) > slopPx;
}

/**
 * What `tap` does after the tap before it (`last`, null when none): a second tap on the same side
 * third within the double-tap time seeks −/+ seekStep (a third tap seeks again); any other tap is
 * a single tap, at once in the middle third, and on the sides only once a second tap can no
 * longer come.
 */
export function tapOutcome(last: Tap | null, tap: Tap, { doubleTapMs, seekStep }: { doubleTapMs: number; seekStep: number } = playerConfig): TapOutcome {
  if (tap.zone !== "center" && last && last.zone === tap.zone && tap.at - last.at < doubleTapMs) {
    const seconds = tap.zone === "left" ? -seekStep : seekStep;
    return { kind: "seek", seconds, hint: seconds < 0 ? `快退 ${seekStep} 秒` : `快进 ${seekStep} 秒` };
  }
  return { kind: "tap", deferMs: tap.zone === "center" ? 0 : doubleTapMs };
}

/** The hint while a long press plays faster. */
export const longPressHint = (rate: number = playerConfig.longPressRate): string => `${rate}× 倍速播放中`;
