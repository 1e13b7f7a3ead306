import { isRouteErrorResponse } from "../../shared/router";
import { describe, expect, it } from "vitest";
import { infoLoader } from "../../shared/loaders";

// The catalogue pages' loaders query D1: tests/worker/catalogue-loaders.test.ts.

const args = (url: string, params: Record<string, string> = {}) => ({ request: new Request(url), params, context: {} }) as never;

function thrownStatus(fn: () => unknown): number | null {
  try {
    fn();
    return null;
  } catch (error) {
    const e = error as { init?: { status?: number } };
    if (isRouteErrorResponse(error)) return error.status;
    return e.init?.status ?? null;
  }
}

describe("info loader", () => {
  it("info pages: known types load, others are 404", () => {
    expect(infoLoader(args("http://x/info/help", { page: "help" })).type).toBe("help");
    expect(thrownStatus(() => infoLoader(args("http://x/info/x", { page: "x" })))).toBe(404);
    expect(thrownStatus(() => infoLoader(args("http://x/info/%E7", { page: "%E7" })))).toBe(404);
  });
});
