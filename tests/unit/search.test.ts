import { describe, expect, it } from "vitest";
import { videos } from "../../shared/catalogue/index";
import type { Video } from "../../shared/catalogue/types";
import { matchesQuery, MAX_QUERY_LENGTH, normaliseQuery, resultCategories, runSearch, searchQuery, sortSearchResults } from "../../shared/search";

const v = (id: string, over: Partial<Video> = {}): Video => ({
  id,
  title: "标题",
  description: "简介",
  category: ["电影"],
  tags: ["高分"],
  year: 2025,
  rating: 8.5,
  duration: "45:00",
  coverImage: "1.webp",
  videoFile: "/1.mp4",
  ...over,
});

describe("search matching", () => {
  it("matches title, description, any tag or any category, case-insensitively", () => {
    const x = v("a", { title: "Space 旅人", description: "一段旅程", tags: ["Sci-Fi"], category: ["科幻"] });
    expect(matchesQuery(x, "space")).toBe(true);
    expect(matchesQuery(x, "旅程")).toBe(true);
    expect(matchesQuery(x, "sci-FI")).toBe(true);
    expect(matchesQuery(x, "科幻")).toBe(true);
    expect(matchesQuery(x, "悬疑")).toBe(false);
  });
  it("whitespace-only or missing queries give no results", () => {
    for (const q of [null, "", "   ", "\t\n"]) {
      const r = runSearch(videos, new URLSearchParams(q === null ? "" : `q=${encodeURIComponent(q)}`));
      expect(r.state.q).toBe("");
      expect(r.total).toBe(0);
      expect(r.ids).toEqual([]);
    }
  });
  it("trims and cuts long queries", () => {
    expect(normaliseQuery("  家  ")).toBe("家");
    expect([...normaliseQuery("长".repeat(500))]).toHaveLength(MAX_QUERY_LENGTH);
  });
});

describe("search results", () => {
  it("relevance keeps catalogue order; other sorts reorder", () => {
    const list = [v("a", { rating: 8.2, title: "乙" }), v("b", { rating: 9.1, title: "甲", year: 2025 }), v("c", { rating: 8.7, year: 2024 })];
    expect(sortSearchResults(list, "relevance").map((x) => x.id)).toEqual(["a", "b", "c"]);
    expect(sortSearchResults(list, "rating").map((x) => x.id)).toEqual(["b", "c", "a"]);
    expect(sortSearchResults(list, "year").map((x) => x.id)).toEqual(["a", "b", "c"]);
  });
  it("the category filter is exact and offers the categories of the matches", () => {
    const all = runSearch(videos, new URLSearchParams("q=自然"));
    expect(all.total).toBeGreaterThan(0);
    expect(all.categories.length).toBeGreaterThan(0);
    const cat = all.categories[0];
    const filtered = runSearch(videos, new URLSearchParams({ q: "自然", category: cat }));
    expect(filtered.total).toBeLessThanOrEqual(all.total);
    expect(filtered.state.category).toBe(cat);
    // an unknown category is ignored rather than emptying the page
    expect(runSearch(videos, new URLSearchParams({ q: "自然", category: "不存在" })).state.category).toBeNull();
  });
  it("result categories are most frequent first", () => {
    expect(resultCategories([v("a", { category: ["电影", "科幻"] }), v("b", { category: ["科幻"] })])).toEqual(["科幻", "电影"]);
  });
  it("paginates 12 per page", () => {
    const r = runSearch(videos, new URLSearchParams("q=2025"));
    // "2025" is in no text field: nothing found
    expect(r.total).toBe(0);
    const broad = runSearch(videos, new URLSearchParams("q=的"));
    expect(broad.ids.length).toBeLessThanOrEqual(12);
    expect(broad.pageCount).toBe(Math.max(1, Math.ceil(broad.total / 12)));
  });
  it("search URLs keep the query and reset the page on changes", () => {
    const state = { q: "家 人", category: null, sort: "relevance" as const, page: 3 };
    expect(searchQuery(state, { sort: "rating" })).toBe("?q=%E5%AE%B6+%E4%BA%BA&sort=rating");
    expect(searchQuery(state, { page: 2 })).toBe("?q=%E5%AE%B6+%E4%BA%BA&page=2");
  });
});
