// The gesture rules of the player's picture (shared/playback/touch-gestures.ts, used by
// shared/player/useTouchGestures.ts): which third a tap is in, when a touch has moved too far to
// be a tap, and what a tap does after the one before it (double-tap seek or single tap).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { playerConfig } from "../../shared/playback/config";
import { isTouchPointer, longPressHint, movedBeyondSlop, tapOutcome, tapZone, type Tap, type TapZone } from "../../shared/playback/touch-gestures";

const { doubleTapMs, seekStep, touchSlopPx } = playerConfig;
const SIDES = ["left", "right"] as const;
const ZONES: TapZone[] = ["left", "center", "right"];

describe("tapZone", () => {
  it("splits the box into thirds, wherever it sits on the page", () => {
    expect(tapZone(10, 0, 390)).toBe("left");
    expect(tapZone(195, 0, 390)).toBe("center");
    expect(tapZone(380, 0, 390)).toBe("right");
    expect(tapZone(110, 100, 300)).toBe("left");
    expect(tapZone(250, 100, 300)).toBe("center");
    expect(tapZone(390, 100, 300)).toBe("right");
  });

  it("the borders at exactly one and two thirds belong to the middle", () => {
    expect(tapZone(100, 0, 300)).toBe("center");
    expect(tapZone(200, 0, 300)).toBe("center");
  });

  it("property: moving right never moves a tap to a zone further left, and the zone does not depend on where the box is", () => {
    const box = fc.record({ left: fc.integer({ min: -2000, max: 2000 }), width: fc.integer({ min: 1, max: 4000 }) });
    fc.assert(
      fc.property(
        box,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: -500, max: 500 }),
        ({ left, width }, a, b, shift) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const rank = (z: TapZone) => ZONES.indexOf(z);
          expect(rank(tapZone(left + lo * width, left, width))).toBeLessThanOrEqual(rank(tapZone(left + hi * width, left, width)));
          expect(tapZone(left + shift + lo * width, left + shift, width)).toBe(tapZone(left + lo * width, left, width));
        },
      ),
    );
  });
});

describe("movedBeyondSlop", () => {
  it("a touch that stays within the slop (in any direction) is still a tap; one past it is not", () => {
    const down = { x: 100, y: 100 };
    expect(movedBeyondSlop(down, 100, 100)).toBe(false);
    expect(movedBeyondSlop(down, 100 + touchSlopPx, 100)).toBe(false);
    expect(movedBeyondSlop(down, 100, 100 - touchSlopPx)).toBe(false);
    expect(movedBeyondSlop(down, 100 + touchSlopPx + 1, 100)).toBe(true);
    expect(movedBeyondSlop(down, 100, 100 - touchSlopPx - 1)).toBe(true);
    // 9 and 9 px: each within 12, together 12.7 px away
    expect(movedBeyondSlop(down, 109, 109)).toBe(true);
  });

  it("property: it is the distance that counts, the same in every direction", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -50, max: 50 }),
        fc.integer({ min: -50, max: 50 }),
        (x, y, dx, dy) => {
          const moved = movedBeyondSlop({ x, y }, x + dx, y + dy);
          expect(moved).toBe(dx * dx + dy * dy > touchSlopPx * touchSlopPx);
          expect(movedBeyondSlop({ x, y }, x - dx, y - dy)).toBe(moved);
          expect(movedBeyondSlop({ x, y }, x + dy, y + dx)).toBe(moved);
        },
      ),
    );
  });
});

describe("tapOutcome", () => {
  const tap = (zone: TapZone, at: number): Tap => ({ zone, at });

  it("a second tap on the right third within the double-tap time seeks +10 s (快进 10 秒), on the left −10 s (快退 10 秒)", () => {
    expect(tapOutcome(tap("right", 1000), tap("right", 1000 + doubleTapMs - 1))).toEqual({ kind: "seek", seconds: seekStep, hint: `快进 ${seekStep} 秒` });
    expect(tapOutcome(tap("left", 1000), tap("left", 1200))).toEqual({ kind: "seek", seconds: -seekStep, hint: `快退 ${seekStep} 秒` });
    expect(seekStep).toBe(10);
  });

  it("a first tap on a side waits the double-tap time before it counts as a single tap; in the middle it counts at once", () => {
    expect(tapOutcome(null, tap("left", 1000))).toEqual({ kind: "tap", deferMs: doubleTapMs });
    expect(tapOutcome(null, tap("right", 1000))).toEqual({ kind: "tap", deferMs: doubleTapMs });
    expect(tapOutcome(null, tap("center", 1000))).toEqual({ kind: "tap", deferMs: 0 });
  });

  it("no seek: a second tap too late, on the other side, or in the middle", () => {
    expect(tapOutcome(tap("right", 1000), tap("right", 1000 + doubleTapMs))).toEqual({ kind: "tap", deferMs: doubleTapMs });
    expect(tapOutcome(tap("left", 1000), tap("right", 1100))).toEqual({ kind: "tap", deferMs: doubleTapMs });
    expect(tapOutcome(tap("center", 1000), tap("center", 1100))).toEqual({ kind: "tap", deferMs: 0 });
  });

  it("a third quick tap seeks again (each tap is measured from the one before)", () => {
    const taps = [tap("right", 0), tap("right", 250), tap("right", 500)];
    expect(tapOutcome(taps[0], taps[1]).kind).toBe("seek");
    expect(tapOutcome(taps[1], taps[2]).kind).toBe("seek");
  });

  it("takes the timing and step it is given", () => {
    expect(tapOutcome(tap("left", 0), tap("left", 450), { doubleTapMs: 500, seekStep: 5 })).toEqual({ kind: "seek", seconds: -5, hint: "快退 5 秒" });
    expect(tapOutcome(null, tap("right", 0), { doubleTapMs: 500, seekStep: 5 })).toEqual({ kind: "tap", deferMs: 500 });
  });

  it("property: a tap seeks exactly when it follows a tap on the same side third by less than the double-tap time, towards that side", () => {
    const zone = fc.constantFrom(...ZONES);
    const last = fc.option(fc.record({ zone, at: fc.integer({ min: 0, max: 1_000_000 }) }), { nil: null });
    fc.assert(
      fc.property(last, zone, fc.integer({ min: 0, max: 2 * doubleTapMs }), (before, z, gap) => {
        const now = tap(z, (before?.at ?? 0) + gap);
        const outcome = tapOutcome(before, now);
        const isDouble = before !== null && z !== "center" && before.zone === z && gap < doubleTapMs;
        expect(outcome.kind).toBe(isDouble ? "seek" : "tap");
        if (outcome.kind === "seek") {
          expect(Math.sign(outcome.seconds)).toBe(z === "left" ? -1 : 1);
          expect(Math.abs(outcome.seconds)).toBe(seekStep);
          expect(outcome.hint).toBe(z === "left" ? `快退 ${seekStep} 秒` : `快进 ${seekStep} 秒`);
        } else {
          expect(outcome.deferMs).toBe(z === "center" ? 0 : doubleTapMs);
        }
      }),
    );
  });

  it("property: the sides mirror each other", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SIDES), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 2 * doubleTapMs }), (side, at, gap) => {
        const other = side === "left" ? "right" : "left";
        const a = tapOutcome(tap(side, at), tap(side, at + gap));
        const b = tapOutcome(tap(other, at), tap(other, at + gap));
        expect(a.kind).toBe(b.kind);
        if (a.kind === "seek" && b.kind === "seek") expect(a.seconds).toBe(-b.seconds);
      }),
    );
  });
});

describe("pointer kinds and the long-press hint", () => {
  it("touch and pen are touch input; the mouse keeps click = play/pause", () => {
    expect(isTouchPointer("touch")).toBe(true);
    expect(isTouchPointer("pen")).toBe(true);
    expect(isTouchPointer("mouse")).toBe(false);
  });

  it("a long press says it plays at 2× (2× 倍速播放中)", () => {
    expect(longPressHint()).toBe("2× 倍速播放中");
    expect(longPressHint(3)).toBe("3× 倍速播放中");
  });
});
