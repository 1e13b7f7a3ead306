import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { getVideo, MAIN_CATEGORIES, videos } from "../../shared/catalogue/index";
import { TITLE_PINYIN } from "../../shared/search/generated/pinyin-keys";
import { createSearchEngine } from "../../shared/search/index";
import { toSimplified } from "../../shared/search/t2s";
import { homeLoader, infoLoader, listingLoader, relatedCandidates, searchLoader, videoLoader } from "../../shared/loaders";

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

describe("home loader", () => {
  it("8 random hot picks, 12 newest, 8 top rated and tile counts", () => {
    const data = homeLoader();
    expect(data.hot).toHaveLength(8);
    expect(new Set(data.hot.map((c) => c.id)).size).toBe(8);
    expect(data.latest.map((c) => c.id)).toEqual(
      videos
        .slice(-12)
        .map((v) => v.id)
        .reverse(),
    );
    const ratings = data.topRated.map((c) => getVideo(c.id)!.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(Math.min(...videos.map((v) => v.rating))).toBeLessThanOrEqual(Math.min(...ratings));
    expect(data.counts.map((c) => c.name)).toEqual([...MAIN_CATEGORIES]);
    for (const c of data.counts) expect(c.count).toBeGreaterThanOrEqual(8);
    for (const card of [...data.hot, ...data.latest, ...data.topRated]) {
      expect(card.views).toBeGreaterThanOrEqual(1000);
      expect(card.views).toBeLessThanOrEqual(10999);
    }
  });
});

describe("video loader", () => {
  it("related videos share a category, exclude the current one, at most 8", () => {
    for (const video of videos) {
      const data = videoLoader(args(`http://x/video/${video.id}`, { id: video.id }));
      expect(data.related.length).toBeLessThanOrEqual(8);
      expect(data.related.length).toBe(Math.min(8, relatedCandidates(video).length));
      for (const card of data.related) {
        expect(card.id).not.toBe(video.id);
        expect(getVideo(card.id)!.category.some((c) => video.category.includes(c))).toBe(true);
      }
      expect(data.views).toBeGreaterThanOrEqual(1000);
      expect(data.views).toBeLessThanOrEqual(50999);
      expect(data.ratingCount).toBeGreaterThanOrEqual(100);
      expect(data.ratingCount).toBeLessThanOrEqual(1099);
    }
  });
  it("an unknown id throws a 404", () => {
    expect(thrownStatus(() => videoLoader(args("http://x/video/nope", { id: "nope" })))).toBe(404);
  });
});

describe("listing, search and info loaders", () => {
  it("a category listing holds only matching videos", () => {
    const data = listingLoader("category")(args("http://x/category/纪录片?sort=rating", { name: "纪录片" }));
    expect(data.items.length).toBeGreaterThan(0);
    for (const card of data.items) expect(getVideo(card.id)!.category.some((c) => c.includes("纪录片"))).toBe(true);
    expect(data.state.sort).toBe("rating");
  });
  it("a category with no titles is 404 (the name is echoed nowhere): spam links like /category/加微信看全集", () => {
    for (const name of ["加微信看全集", "zzzz-no-such-genre"]) {
      expect(thrownStatus(() => listingLoader("category")(args(`http://x/category/${encodeURIComponent(name)}`, { name })))).toBe(404);
    }
    expect(listingLoader("category")(args("http://x/category/all", { name: "all" })).items.length).toBeGreaterThan(0);
  });

  it("undecodable category names are 404", () => {
    expect(thrownStatus(() => listingLoader("category")(args("http://x/category/%E7", { name: "%E7" })))).toBe(404);
  });
  it("top-rated defaults to the rating sort, latest to newest first", () => {
    expect(listingLoader("top-rated")(args("http://x/top-rated")).state.sort).toBe("rating");
    expect(listingLoader("latest")(args("http://x/latest")).items[0].id).toBe("video_050");
  });
  it("search returns cards of matching videos, and 热门推荐 when none match", async () => {
    const engine = createSearchEngine(videos, TITLE_PINYIN, toSimplified);
    const load = searchLoader((params) => engine.run(params));
    const data = await load(args("http://x/search?q=" + encodeURIComponent("美食")));
    expect(data.total).toBeGreaterThan(0);
    expect(data.items.map((c) => c.id)).toEqual(engine.run(new URLSearchParams({ q: "美食" })).ids);
    expect(data.recommended).toEqual([]);
    const none = await load(args("http://x/search?q=zzzz"));
    expect(none.items).toEqual([]);
    expect(none.recommended).toHaveLength(8);
  });
  it("info pages: known types load, others are 404", () => {
    expect(infoLoader(args("http://x/info/help", { page: "help" })).type).toBe("help");
    expect(thrownStatus(() => infoLoader(args("http://x/info/x", { page: "x" })))).toBe(404);
  });
});
