// The not-found kinds have one definition (shared/loaders.ts): what a loader throws, what
// /api/page answers and what the browser's loader throws again all read it.
import { describe, expect, it } from "vitest";
import { NOT_FOUND_KINDS, notFound, notFoundKindOf, notFoundKindOfData } from "../../shared/loaders";

describe("not-found kinds", () => {
  it("a kind survives the trip from a loader's 404 to the answer and back", () => {
    for (const kind of NOT_FOUND_KINDS) {
      let thrown: unknown;
      try {
        notFound(kind);
      } catch (error) {
        thrown = error;
      }
      const data = (thrown as { data?: unknown }).data;
      expect(notFoundKindOfData(data)).toBe(kind);
      const answer = JSON.parse(JSON.stringify({ notFound: notFoundKindOfData(data) })) as { notFound: unknown };
      expect(notFoundKindOf(answer.notFound)).toBe(kind);
    }
  });

  it('anything that names no kind is "page"', () => {
    for (const value of [undefined, null, "", "Video", "title", 1, {}]) expect(notFoundKindOf(value)).toBe("page");
    for (const data of [null, "video", { kind: "nope" }, { kind: 1 }]) expect(notFoundKindOfData(data)).toBe("page");
  });
});
