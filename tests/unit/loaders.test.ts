import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { getVideo, MAIN_CATEGORIES, videos } from "../../shared/catalogue/index";
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
  it("undecodable category names are 404", () => {
    expect(thrownStatus(() => listingLoader("category")(args("http://x/category/%E7", { name: "%E7" })))).toBe(404);
  });
  it("top-rated defaults to the rating sort, latest to newest first", () => {
    expect(listingLoader("top-rated")(args("http://x/top-rated")).state.sort).toBe("rating");
    expect(listingLoader("latest")(args("http://x/latest")).items[0].id).toBe("video_050");
  });
  it("search returns cards of matching videos", () => {
    const data = searchLoader(args("http://x/search?q=" + encodeURIComponent("美食")));
    expect(data.total).toBeGreaterThan(0);
  });
  it("info pages: known types load, others are 404", () => {
    expect(infoLoader(args("http://x/info/help", { page: "help" })).type).toBe("help");
    expect(thrownStatus(() => infoLoader(args("http://x/info/x", { page: "x" })))).toBe(404);
  });
});
