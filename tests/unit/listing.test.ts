import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import type { Video } from "../../shared/catalogue/types";
import { listingQuery, parseListingState } from "../../shared/listing";
import { buildListing, distinctYears, filterVideos, listingFacets, matchesCategory, sortVideos } from "../reference/listing";

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

describe("最热 sort and facets", () => {
  const list = [
    v("video_001", { year: 2024, category: ["电影", "科幻", "悬疑"], area: "日本" }),
    v("video_002", { year: 2025, category: ["电视剧", "科幻"], area: "中国大陆" }),
    v("video_003", { year: 2023, category: ["电影", "爱情"], area: "中国大陆" }),
    v("video_004", { year: 2025, category: ["电影", "科幻"] }),
  ];
  it("最热: most plays first, titles without plays after them in latest order", () => {
    const hits = new Map([
      ["video_003", 40],
      ["video_001", 7],
    ]);
    expect(sortVideos(list, "hot", hits).map((x) => x.id)).toEqual(["video_003", "video_001", "video_004", "video_002"]);
    expect(sortVideos(list, "hot").map((x) => x.id)).toEqual(sortVideos(list, "latest").map((x) => x.id));
  });
  it("facets offer what the category's titles have: genres without the main categories or the page's own, most titles first", () => {
    expect(listingFacets(list, "all")).toEqual({ years: [2025, 2024, 2023], genres: ["科幻", "爱情", "悬疑"], areas: ["中国大陆", "日本"] });
    expect(listingFacets(list, "科幻").genres).toEqual(["爱情", "悬疑"]);
  });
  it("genre, area and letter filter the listing", () => {
    const letters = new Map([
      ["video_001", "K"],
      ["video_002", "A"],
      ["video_003", "K"],
      ["video_004", "#"],
    ]);
    const ids = (query: string) => buildListing(list, new URLSearchParams(query), "latest", { category: "all", letters }).ids;
    expect(ids("genre=科幻")).toEqual(["video_004", "video_002", "video_001"]);
    expect(ids("genre=科幻&area=中国大陆")).toEqual(["video_002"]);
    expect(ids("letter=K")).toEqual(["video_001", "video_003"]);
    expect(ids("letter=k")).toEqual(["video_001", "video_003"]);
    expect(ids("letter=%23")).toEqual(["video_004"]);
    // values the category does not have mean "all"
    expect(ids("genre=不存在&area=火星&letter=AB")).toHaveLength(4);
  });
});

describe("listing state from the URL", () => {
  const facets = { years: [2025, 2024], genres: ["科幻", "爱情"], areas: ["日本"] };
  it("reads valid values", () => {
    const s = parseListingState(new URLSearchParams("year=2024&rating=9&sort=title&view=list&page=2&genre=科幻&area=日本&letter=Q"), facets, "latest");
    expect(s).toEqual({ year: 2024, rating: 9, genre: "科幻", area: "日本", letter: "Q", sort: "title", view: "list", rawPage: "2" });
    expect(parseListingState(new URLSearchParams("sort=hot"), facets, "latest").sort).toBe("hot");
  });
  it("falls back to defaults on invalid values", () => {
    const s = parseListingState(new URLSearchParams("year=1999&rating=x&sort=evil&view=table&genre=恐怖&area=火星&letter=ab"), facets, "rating");
    expect(s).toEqual({ year: null, rating: 0, genre: null, area: null, letter: null, sort: "rating", view: "grid", rawPage: null });
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
  const state = { year: null, rating: 0 as const, genre: null, area: null, letter: null, sort: "latest" as const, page: 3, view: "grid" as const };
  it("leave defaults out", () => {
    expect(listingQuery({ ...state, page: 1 }, "latest")).toBe("");
  });
  it("a filter or sort change resets to page 1", () => {
    expect(listingQuery(state, "latest", { rating: 9 })).toBe("?rating=9");
    expect(listingQuery(state, "latest", { sort: "title" })).toBe("?sort=title");
    expect(listingQuery(state, "latest", { year: 2025 })).toBe("?year=2025");
  });
  it("a facet change resets to page 1 and keeps the other filters", () => {
    const filtered = { ...state, genre: "科幻", area: "日本", rating: 8 as const };
    expect(listingQuery(filtered, "latest", { letter: "A" })).toBe("?genre=%E7%A7%91%E5%B9%BB&area=%E6%97%A5%E6%9C%AC&letter=A&rating=8");
    expect(listingQuery(filtered, "latest", { genre: null })).toBe("?area=%E6%97%A5%E6%9C%AC&rating=8");
    expect(listingQuery(filtered, "latest", { sort: "hot" })).toBe("?genre=%E7%A7%91%E5%B9%BB&area=%E6%97%A5%E6%9C%AC&rating=8&sort=hot");
  });
  it("a page change keeps the filters", () => {
    expect(listingQuery({ ...state, rating: 8, view: "list" }, "latest", { page: 4 })).toBe("?rating=8&view=list&page=4");
  });
  it("the default sort depends on the page", () => {
    expect(listingQuery({ ...state, sort: "rating", page: 1 }, "rating")).toBe("");
    expect(listingQuery({ ...state, sort: "latest", page: 1 }, "rating")).toBe("?sort=latest");
  });
});
