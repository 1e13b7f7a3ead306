import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LANE_GAP_PX, laneIsFree, pickLane } from "../../shared/player/danmaku/lanes";
import { DEFAULT_SETTINGS, parseSettings } from "../../shared/player/danmaku/settings";

describe("lanes", () => {
  const W = 800;
  const D = 8000;
  it("an empty lane is free; a lane whose comment has not fully entered is not", () => {
    expect(laneIsFree(null, 100, W, D)).toBe(true);
    expect(laneIsFree({ width: 100, elapsed: 0 }, 100, W, D)).toBe(false);
    expect(pickLane([{ width: 100, elapsed: 0 }, null], 100, W, D)).toBe(1);
    expect(pickLane([{ width: 100, elapsed: 0 }], 100, W, D)).toBe(-1);
  });
  it("a comment let into a lane never overlaps the one ahead before that one leaves", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 600 }), fc.integer({ min: 10, max: 600 }), fc.integer({ min: 0, max: D }), (oldW, newW, elapsed) => {
        if (!laneIsFree({ width: oldW, elapsed }, newW, W, D)) return;
        const oldSpeed = (W + oldW) / D;
        const newSpeed = (W + newW) / D;
        // Sample the time until the old one has left: the new head stays behind the old tail.
        for (let t = 0; t <= D - elapsed; t += 250) {
          const oldTail = W + oldW - oldSpeed * (elapsed + t);
          const newHead = W - newSpeed * t;
          expect(newHead).toBeGreaterThanOrEqual(Math.min(oldTail, newHead) - 1e-6);
          if (oldTail > 0) expect(newHead - oldTail).toBeGreaterThanOrEqual(-1e-6);
        }
      }),
    );
    expect(LANE_GAP_PX).toBeGreaterThan(0);
  });
});

describe("settings", () => {
  it("takes defaults for anything missing or malformed and clamps the opacity", () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings("{not json")).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings(JSON.stringify({ on: false, opacity: 7, area: "full", density: "x", fontSize: "large", blocked: ["剧透", 3, " "] }))).toEqual({
      ...DEFAULT_SETTINGS,
      on: false,
      opacity: 1,
      area: "full",
      fontSize: "large",
      blocked: ["剧透"],
    });
  });
});
