import { describe, expect, it } from "vitest";
import { busyMs } from "../../scripts/devtools.mjs";

/** The benchmark's worker CPU figure: busy (not idle) time of a V8 CPU profile. */
describe("busyMs", () => {
  const nodes = [
    { id: 1, callFrame: { functionName: "(root)" } },
    { id: 2, callFrame: { functionName: "(idle)" } },
    { id: 3, callFrame: { functionName: "renderToReadableStream" } },
    { id: 4, callFrame: { functionName: "(garbage collector)" } },
    { id: 5, callFrame: { functionName: "(program)" } },
  ];

  it("counts JavaScript, GC and native work, not idle time", () => {
    // sampler period 0.2 ms: render 0.2 + 0.2, idle 0.2, gc 0.2, program 0.2, render 0.1
    const profile = { nodes, samples: [1, 3, 3, 2, 4, 5, 3], timeDeltas: [50, 200, 200, 200, 200, 200, 100] };
    expect(busyMs(profile)).toBeCloseTo(0.9, 10);
  });

  it("counts a gap between two requests (one long interval) as at most four sampler periods", () => {
    // 0.2 ms periods, then 50 ms without samples (the isolate waited for the next request)
    const profile = { nodes, samples: [1, 3, 3, 3, 3, 3], timeDeltas: [0, 200, 200, 200, 50_000, 200] };
    expect(busyMs(profile)).toBeCloseTo(0.2 * 3 + 0.2 * 4 + 0.2, 10);
  });

  it("is zero for an idle profile or an empty one", () => {
    expect(busyMs({ nodes, samples: [2, 2, 2], timeDeltas: [10, 1000, 1000] })).toBe(0);
    expect(busyMs({ nodes, samples: [], timeDeltas: [] })).toBe(0);
  });
});
