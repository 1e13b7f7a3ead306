import { describe, expect, it } from "vitest";
import { videos } from "../../shared/catalogue/index";
import type { Video } from "../../shared/catalogue/types";
import { buildListing, distinctYears, filterVideos, listingQuery, matchesCategory, parseListingState, sortVideos } from "../../shared/listing";

const v = (id: string, over: Partial<Video> = {}): Video => ({
  id,
  title: id,
  description: "",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 8.5,
  duration: "45:00",
  coverImage: "1.webp",
  videoFile: "/1.mp4",
  ...over,
});

describe("category match", () => {
  it("all matches everything", () => {
    expect(videos.filter((x) => matchesCategory(x, "all"))).toHaveLength(50);
  });
  it("is a case-insensitive substring on any category", () => {
    const a = v("a", { category: ["Sci-Fi", "电影"] });
    expect(matchesCategory(a, "sci")).toBe(true);
    expect(matchesCategory(a, "SCI-FI")).toBe(true);
    expect(matchesCategory(a, "影")).toBe(true);
    expect(matchesCategory(a, "综艺")).toBe(false);
  });
});

describe("filters", () => {
  const list = [
    v("a", { year: 2024, rating: 9.1 }),
    v("b", { year: 2025, rating: 8.0 }),
    v("c", { year: 2025, rating: 7.0 }),
    v("d", { year: 2023, rating: 6.9 }),
  ];
  it("years are distinct, newest first", () => {
    expect(distinctYears([...list, v("e", { year: 2024 })])).toEqual([2025, 2024, 2023]);
  });
  it("minimum rating means rating at or above", () => {
    expect(filterVideos(list, null, 9).map((x) => x.id)).toEqual(["a"]);
    expect(filterVideos(list, null, 8).map((x) => x.id)).toEqual(["a", "b"]);
    expect(filterVideos(list, null, 7).map((x) => x.id)).toEqual(["a", "b", "c"]);
    expect(filterVideos(list, null, 0)).toHaveLength(4);
  });
  it("year filter is exact", () => {
    expect(filterVideos(list, 2025, 0).map((x) => x.id)).toEqual(["b", "c"]);
  });
});

describe("sorts", () => {
  const list = [
    v("video_002", { year: 2024, rating: 8.2, title: "乙", duration: "45:00" }),
    v("video_010", { year: 2025, rating: 9.0, title: "甲", duration: "02:15:30" }),
    v("video_003", { year: 2025, rating: 8.8, title: "丙", duration: "52:30" }),
  ];
  it("latest: year descending, then id descending", () => {
    expect(sortVideos(list, "latest").map((x) => x.id)).toEqual(["video_010", "video_003", "video_002"]);
  });
  it("rating: high first", () => {
    expect(sortVideos(list, "rating").map((x) => x.rating)).toEqual([9.0, 8.8, 8.2]);
  });
  it("title: by Chinese collation, deterministic", () => {
    const once = sortVideos(list, "title").map((x) => x.title);
    expect(sortVideos([...list].reverse(), "title").map((x) => x.title)).toEqual(once);
  });
  it("duration: string comparison, largest string first (spec §9)", () => {
    expect(sortVideos(list, "duration").map((x) => x.duration)).toEqual(["52:30", "45:00", "02:15:30"]);
  });
  it("does not change its input", () => {
    const copy = list.slice();
    sortVideos(list, "rating");
    expect(list).toEqual(copy);
  });
});

describe("listing state from the URL", () => {
  const years = [2025, 2024];
  it("reads valid values", () => {
    const s = parseListingState(new URLSearchParams("year=2024&rating=9&sort=title&view=list&page=2"), years, "latest");
    expect(s).toEqual({ year: 2024, rating: 9, sort: "title", view: "list", rawPage: "2" });
  });
  it("falls back to defaults on invalid values", () => {
    const s = parseListingState(new URLSearchParams("year=1999&rating=x&sort=evil&view=table"), years, "rating");
    expect(s).toEqual({ year: null, rating: 0, sort: "rating", view: "grid", rawPage: null });
  });
  it("an out-of-range or malformed page is page 1", () => {
    for (const page of ["abc", "999", "0", "-3", "1.5", "", "1e3"]) {
      expect(buildListing(videos, new URLSearchParams({ page }), "latest").state.page, page).toBe(1);
    }
    expect(buildListing(videos, new URLSearchParams({ page: "5" }), "latest").state.page).toBe(5);
  });
  it("builds 12 per page and counts pages", () => {
    const r = buildListing(videos, new URLSearchParams(), "latest");
    expect(r.total).toBe(50);
    expect(r.pageCount).toBe(5);
    expect(r.ids).toHaveLength(12);
    expect(r.ids[0]).toBe("video_050");
    expect(buildListing(videos, new URLSearchParams("page=5"), "latest").ids).toHaveLength(2);
  });
  it("an empty result still has one page", () => {
    const r = buildListing([], new URLSearchParams("page=3"), "latest");
    expect(r).toMatchObject({ total: 0, pageCount: 1, ids: [], state: { page: 1 } });
  });
});

describe("listing URLs", () => {
  const state = { year: null, rating: 0 as const, sort: "latest" as const, page: 3, view: "grid" as const };
  it("leave defaults out", () => {
    expect(listingQuery({ ...state, page: 1 }, "latest")).toBe("");
  });
  it("a filter or sort change resets to page 1", () => {
    expect(listingQuery(state, "latest", { rating: 9 })).toBe("?rating=9");
    expect(listingQuery(state, "latest", { sort: "title" })).toBe("?sort=title");
    expect(listingQuery(state, "latest", { year: 2025 })).toBe("?year=2025");
  });
  it("a page change keeps the filters", () => {
    expect(listingQuery({ ...state, rating: 8, view: "list" }, "latest", { page: 4 })).toBe("?rating=8&view=list&page=4");
  });
  it("the default sort depends on the page", () => {
    expect(listingQuery({ ...state, sort: "rating", page: 1 }, "rating")).toBe("");
    expect(listingQuery({ ...state, sort: "latest", page: 1 }, "rating")).toBe("?sort=latest");
  });
});
