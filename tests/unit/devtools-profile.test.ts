import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
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
    // samples: idle, render 2 ms, render 1 ms, idle 5 ms, gc 0.5 ms, program 0.25 ms
    const profile = { nodes, samples: [2, 3, 3, 2, 4, 5], timeDeltas: [100, 2000, 1000, 5000, 500, 250] };
    expect(busyMs(profile)).toBe(3.75);
  });

  it("is zero for an idle profile or an empty one", () => {
    expect(busyMs({ nodes, samples: [2, 2, 2], timeDeltas: [10, 1000, 1000] })).toBe(0);
    expect(busyMs({ nodes, samples: [], timeDeltas: [] })).toBe(0);
  });
});
