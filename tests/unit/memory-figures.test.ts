import { describe, expect, it } from "vitest";
import { heapWindow, rssSlope, rssWindow } from "../../scripts/memory-figures.mjs";

/** The load test's soak figures: a window's band and the RSS trend. */
describe("memory figures", () => {
  const flat = [0, 5, 10, 15, 20, 25, 30].map((t, i) => ({ t, rssMiB: i % 2 ? 1000 : 1100 }));

  it("a window gives floor, rounded mean and peak of the samples inside it, skipping missing ones", () => {
    const samples = [
      { t: 0, rssMiB: 10 },
      { t: 5, rssMiB: null },
      { t: 10, rssMiB: 21 },
      { t: 15, rssMiB: 12 },
      { t: 40, rssMiB: 500 },
    ];
    expect(rssWindow(samples, 0, 30)).toEqual({ minMiB: 10, meanMiB: 14, maxMiB: 21 });
    expect(rssWindow(samples, 31, 39)).toBeNull();
  });

  it("the slope is in MiB per minute: +1 MiB a second is +60", () => {
    const rising = [0, 5, 10, 15, 20].map((t) => ({ t, rssMiB: 500 + t }));
    expect(rssSlope(rising)).toBe(60);
    const falling = [0, 30, 60].map((t) => ({ t, rssMiB: 900 - t / 6 }));
    expect(rssSlope(falling)).toBe(-10);
  });

  it("a sawtooth around a level has no trend; too few samples give no slope", () => {
    expect(Math.abs(rssSlope(flat) ?? Infinity)).toBeLessThan(60);
    expect(rssSlope([...flat, ...flat.map((s) => ({ t: s.t + 35, rssMiB: s.rssMiB }))])).toBeCloseTo(0, 0);
    expect(rssSlope(flat.slice(0, 2))).toBeNull();
    expect(
      rssSlope([
        { t: 5, rssMiB: 1 },
        { t: 5, rssMiB: 2 },
        { t: 5, rssMiB: 3 },
      ]),
    ).toBeNull();
  });

  it("a heap window reads one field", () => {
    const samples = [
      { t: 0, usedMiB: 30, totalMiB: 100 },
      { t: 2, usedMiB: 12, totalMiB: 101 },
      { t: 4, usedMiB: null, totalMiB: 99 },
    ];
    expect(heapWindow(samples, 0, 4, "usedMiB")).toEqual({ minMiB: 12, maxMiB: 30 });
    expect(heapWindow(samples, 0, 4, "totalMiB")).toEqual({ minMiB: 99, maxMiB: 101 });
    expect(heapWindow(samples, 5, 9, "usedMiB")).toBeNull();
  });
});
