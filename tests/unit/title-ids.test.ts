// The title-id rule, and how the browser splits a library's ids into GET /api/titles requests the worker accepts.
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { TitleSchema } from "../../shared/catalogue/schema";
import { isTitleId, MAX_TITLE_IDS, titleIdPages } from "../../shared/catalogue/title-ids";
import { parseRoomKey } from "../../shared/danmaku/model";

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

describe("isTitleId: the one title-id rule (catalogue schema, 弹幕 rooms, plays, /api/titles, library)", () => {
  it('accepts "video_" and 3–7 digits', () => {
    for (const id of ["video_001", "video_050", "video_1234567"]) expect(isTitleId(id), id).toBe(true);
  });

  it("refuses everything else, whatever its type", () => {
    for (const id of ["video_01", "video_12345678", "Video_001", "video-001", "video_001 ", "video_001~2", "../video_001", "", "a".repeat(64)])
      expect(isTitleId(id), id).toBe(false);
    for (const id of [1, null, undefined, ["video_001"]]) expect(isTitleId(id)).toBe(false);
  });

  it("every place that checks a title id asks it: a room key of a malformed id is no room, a schema id is a title id", () => {
    expect(parseRoomKey("video-001")).toBeNull();
    expect(parseRoomKey("abc")).toBeNull();
    expect(parseRoomKey("video_001~2")).toEqual({ videoId: "video_001", episode: 2 });
    expect(v.safeParse(TitleSchema.entries.id, "video_01").success).toBe(false);
    expect(v.safeParse(TitleSchema.entries.id, "video_001").success).toBe(true);
  });
});
