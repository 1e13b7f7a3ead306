import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The module keeps its state per page load; each test loads it afresh under a document of its own. */
async function load(hydrated: boolean) {
  vi.resetModules();
  vi.stubGlobal("document", { documentElement: { dataset: hydrated ? { hydrated: "true" } : {} } });
  return import("../../shared/player/island-hydration");
}

describe("updates wait for lazy islands of the first page", () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it("runs at once when no island waits", async () => {
    const { afterIslandsHydrate } = await load(false);
    const fn = vi.fn();
    afterIslandsHydrate(fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("waits until every island of the server's page has hydrated, once each", async () => {
    const { afterIslandsHydrate, holdUntilIslandHydrates } = await load(false);
    const first = holdUntilIslandHydrates();
    const second = holdUntilIslandHydrates();
    const a = vi.fn();
    const b = vi.fn();
    afterIslandsHydrate(a);
    afterIslandsHydrate(b);
    first();
    first(); // a second call (the island's unmount after it hydrated) changes nothing
    expect(a).not.toHaveBeenCalled();
    second();
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    const later = vi.fn();
    afterIslandsHydrate(later);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it("an island loaded after the first hydration (a client-side navigation) holds nothing", async () => {
    const { afterIslandsHydrate, holdUntilIslandHydrates } = await load(true);
    holdUntilIslandHydrates();
    const fn = vi.fn();
    afterIslandsHydrate(fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
