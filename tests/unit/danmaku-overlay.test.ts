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
  /**
   * A scrolling comment on the stage, as shared/player/danmaku/stage.ts moves it: it starts with
   * its left edge at the stage's right edge and crosses stage width + its own width in D ms.
   */
  interface Placed {
    lane: number;
    width: number;
    /** When it started (ms). */
    start: number;
  }
  const speed = (c: { width: number }) => (W + c.width) / D;
  const left = (c: Placed, t: number) => W - speed(c) * (t - c.start);
  const right = (c: Placed, t: number) => left(c, t) + c.width;
  /**
   * The smallest distance between the right edge of `ahead` and the left edge of `behind` (same
   * lane, `behind` started later) while both are on the stage; null when `ahead` left before
   * `behind` started. Both move linearly, so the distance is smallest at one end of that time.
   */
  function smallestGap(ahead: Placed, behind: Placed): number | null {
    const from = behind.start;
    const to = ahead.start + D; // `ahead`'s right edge reaches the stage's left edge
    if (to <= from) return null;
    return Math.min(left(behind, from) - right(ahead, from), left(behind, to) - right(ahead, to));
  }
  /**
   * Whether `next` keeps at least LANE_GAP_PX behind `last` in its lane for as long as `last` is on
   * the stage: "yes", "no", or "edge" within a rounding error of the gap (either answer is right).
   */
  const keepsGap = (last: Placed | null, next: Placed): "yes" | "no" | "edge" => {
    const gap = last ? smallestGap(last, next) : null;
    if (gap === null) return "yes";
    return Math.abs(gap - LANE_GAP_PX) < 1e-6 ? "edge" : gap > LANE_GAP_PX ? "yes" : "no";
  };

  it("comments placed with pickLane keep LANE_GAP_PX from every comment ahead in their lane; a lane is refused only where that gap could not be kept", () => {
    const arrival = fc.record({ after: fc.integer({ min: 0, max: 3000 }), width: fc.integer({ min: 10, max: 600 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(arrival, { minLength: 1, maxLength: 60 }), (laneCount, arrivals) => {
        const placed: Placed[] = [];
        const last: Array<Placed | null> = Array.from({ length: laneCount }, () => null);
        let now = 0;
        for (const { after, width } of arrivals) {
          now += after;
          // What the stage passes: each lane's last comment with how long it has been crossing.
          const occupants = last.map((c) => (c ? { width: c.width, elapsed: now - c.start } : null));
          const lane = pickLane(occupants, width, W, D);
          const fits = last.map((c, i) => keepsGap(c, { lane: i, width, start: now }));
          // The first lane where the gap is kept, and none (-1) only when no lane keeps it.
          const why = JSON.stringify({ now, width, lane, fits });
          if (lane < 0) expect(fits, why).not.toContain("yes");
          else {
            expect(fits[lane], why).not.toBe("no");
            expect(fits.slice(0, lane), why).not.toContain("yes");
          }
          if (lane < 0) continue;
          const next: Placed = { lane, width, start: now };
          // Never closer than the gap to any comment ahead in the lane, not only the last one.
          for (const ahead of placed.filter((c) => c.lane === lane)) {
            const gap = smallestGap(ahead, next);
            if (gap !== null) expect(gap).toBeGreaterThanOrEqual(LANE_GAP_PX - 1e-6);
          }
          placed.push(next);
          last[lane] = next;
        }
      }),
    );
  });

  it("a lane is free again for any comment once its last comment has left, and for a short one behind a long one once the gap has opened", () => {
    expect(laneIsFree({ width: 600, elapsed: D }, 600, W, D)).toBe(true);
    // A 100 px comment 1 s into its crossing: its right edge is 900 − 112.5 = 787.5 px from the left.
    expect(laneIsFree({ width: 100, elapsed: 1000 }, 100, W, D)).toBe(false); // 12.5 px gap < LANE_GAP_PX
    expect(laneIsFree({ width: 100, elapsed: 2000 }, 100, W, D)).toBe(true); // same speed, 125 px gap
    // A longer (faster) comment behind would catch the short one up before it leaves.
    expect(laneIsFree({ width: 100, elapsed: 2000 }, 600, W, D)).toBe(false);
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
