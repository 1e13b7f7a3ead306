// How the browser splits a library's ids into GET /api/titles requests the worker accepts.
import { describe, expect, it } from "vitest";
import { MAX_TITLE_IDS, titleIdPages } from "../../shared/catalogue/title-ids";

const ids = (count: number) => Array.from({ length: count }, (_, i) => `video_${String(i + 1).padStart(4, "0")}`);

describe("titleIdPages", () => {
  it("one page up to the maximum, then pages of at most the maximum; every id once", () => {
    expect(titleIdPages(ids(MAX_TITLE_IDS))).toHaveLength(1);
    const pages = titleIdPages([...ids(2 * MAX_TITLE_IDS + 1), ...ids(30)]);
    expect(pages.map((p) => p.length)).toEqual([MAX_TITLE_IDS, MAX_TITLE_IDS, 1]);
    expect(pages.flat()).toEqual(ids(2 * MAX_TITLE_IDS + 1));
  });

  it("sorted and without duplicates, so the same library asks the same URLs; none for no ids", () => {
    expect(titleIdPages(["video_003", "video_001", "video_003"])).toEqual([["video_001", "video_003"]]);
    expect(titleIdPages([])).toEqual([]);
  });
});
