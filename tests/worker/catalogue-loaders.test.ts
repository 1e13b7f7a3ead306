/**
 * The catalogue pages' data from D1 (the built-in catalogue, imported by the setup): what the
 * server render uses, and what GET /api/page/… gives the browser after hydration.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAIN_CATEGORIES, videos } from "../../scripts/catalogue/titles";
import type { HomeData, ListingData, SearchData, VideoData } from "../../shared/loaders";

const BASE = "https://data.test";
const byId = new Map(videos.map((v) => [v.id, v]));

async function pageData<T>(path: string): Promise<{ status: number; body: T; res: Response }> {
  const res = await SELF.fetch(BASE + "/api/page" + path);
  return { status: res.status, body: await res.json<T>(), res };
}

describe("home data", () => {
  it("8 random picks, 12 newest, 8 top rated and tile counts — card fields included", async () => {
    const { status, body } = await pageData<HomeData>("/");
    expect(status).toBe(200);
    expect(body.hot).toHaveLength(8);
    expect(new Set(body.hot.map((c) => c.id)).size).toBe(8);
    const latest = [...videos].sort((a, b) => b.year - a.year || (a.id < b.id ? 1 : -1)).slice(0, 12);
    expect(body.latest.map((c) => c.id)).toEqual(latest.map((v) => v.id));
    const ratings = body.topRated.map((c) => c.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(Math.max(...videos.map((v) => v.rating))).toBe(ratings[0]);
    expect(body.counts.map((c) => c.name)).toEqual([...MAIN_CATEGORIES]);
    for (const { name, count } of body.counts) expect(count).toBe(videos.filter((v) => v.category.some((c) => c.includes(name))).length);
    const card = body.latest[0];
    const video = byId.get(card.id)!;
    expect(card).toMatchObject({ title: video.title, cover: `/${video.coverImage}`, year: video.year, rating: video.rating, duration: video.duration });
    expect(card.views).toBeGreaterThanOrEqual(1000);
    expect(card.views).toBeLessThanOrEqual(10999);
  });
});

describe("video data", () => {
  it("the title with its episodes, related titles sharing a category, a random next title", async () => {
    const series = videos.find((v) => (v.episodes?.length ?? 0) > 2)!;
    const { status, body } = await pageData<VideoData>(`/video/${series.id}`);
    expect(status).toBe(200);
    expect(body.video.id).toBe(series.id);
    expect(body.video.episodes).toHaveLength(series.episodes!.length);
    expect(body.episode).toBe(1);
    expect(body.nextVideoId).not.toBe(series.id);
    expect(byId.has(body.nextVideoId ?? "")).toBe(true);
    expect(body.related.length).toBeLessThanOrEqual(8);
    for (const card of body.related) {
      expect(card.id).not.toBe(series.id);
      expect(byId.get(card.id)!.category.some((c) => series.category.includes(c))).toBe(true);
    }
    expect(body.views).toBeGreaterThanOrEqual(1000);
    expect(body.ratingCount).toBeGreaterThanOrEqual(100);
  });
  it("real plays replace the random view count", async () => {
    await env.DB.prepare("INSERT OR REPLACE INTO title_hits (title_id, total) VALUES ('video_002', 4321)").run();
    expect((await pageData<VideoData>("/video/video_002")).body.views).toBe(4321);
    const hot = await pageData<ListingData>("/category/all?sort=hot");
    expect(hot.body.items[0]).toMatchObject({ id: "video_002", views: 4321 });
  });
  it("an unknown id is a 404 of kind video", async () => {
    const { status, body, res } = await pageData<{ notFound: string }>("/video/nope");
    expect(status).toBe(404);
    expect(body).toEqual({ notFound: "video" });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("listing data", () => {
  it("a category listing holds only matching titles, with facets, and is edge-cacheable", async () => {
    const { status, body, res } = await pageData<ListingData>("/category/" + encodeURIComponent("纪录片") + "?sort=rating");
    expect(status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("public");
    expect(body.items.length).toBeGreaterThan(0);
    for (const card of body.items) expect(byId.get(card.id)!.category.some((c) => c.includes("纪录片"))).toBe(true);
    expect(body.state.sort).toBe("rating");
    expect(body.facets.years.length).toBeGreaterThan(0);
    expect(body.facets.genres).not.toContain("纪录片");
  });
  it("a category with no titles is 404 (spam links like /category/加微信看全集), undecodable names too", async () => {
    for (const name of ["加微信看全集", "zzzz-no-such-genre"]) expect((await pageData(`/category/${encodeURIComponent(name)}`)).status).toBe(404);
    expect((await pageData("/category/%E7")).status).toBe(404);
    expect((await pageData<ListingData>("/category/all")).body.items.length).toBeGreaterThan(0);
  });
  it("top-rated defaults to the rating sort, latest to newest first", async () => {
    expect((await pageData<ListingData>("/top-rated")).body.state.sort).toBe("rating");
    expect((await pageData<ListingData>("/latest")).body.items[0].id).toBe("video_050");
  });
  it("facets filter by URL: 类型, 地区, 字母", async () => {
    const genre = (await pageData<ListingData>("/category/all?genre=" + encodeURIComponent("科幻"))).body;
    expect(genre.state.genre).toBe("科幻");
    expect(genre.total).toBe(videos.filter((v) => v.category.includes("科幻")).length);
    const area = (await pageData<ListingData>("/category/all?area=" + encodeURIComponent("中国香港"))).body;
    expect(area.total).toBe(videos.filter((v) => v.area === "中国香港").length);
    const letter = (await pageData<ListingData>("/category/all?letter=W")).body;
    expect(letter.items.map((c) => c.title)).toContain("雾港来信");
  });
});

describe("search data", () => {
  it("cards of matching titles, and 热门推荐 when none match", async () => {
    const hit = (await pageData<SearchData>("/search?q=" + encodeURIComponent("霧港"))).body;
    expect(hit.items[0]).toMatchObject({ id: "video_001", title: "雾港来信" });
    expect(hit.recommended).toEqual([]);
    const none = (await pageData<SearchData>("/search?q=zzzz")).body;
    expect(none.items).toEqual([]);
    expect(none.recommended).toHaveLength(8);
  });
});

describe("other paths", () => {
  it("pages without catalogue data are not served as data", async () => {
    for (const path of ["/profile", "/auth", "/info/help", "/nope/deeper"]) expect((await pageData(path)).status, path).toBe(404);
  });
  it("cards by id for the profile page", async () => {
    const res = await SELF.fetch(BASE + "/api/titles?ids=video_003,nope,video_001");
    const cards = await res.json<Array<{ id: string }>>();
    expect(cards.map((c) => c.id)).toEqual(["video_003", "video_001"]);
  });
  it("cards by id carry the names of named episodes (继续观看 shows 第2期：意外来客, not 第2集)", async () => {
    const res = await SELF.fetch(BASE + "/api/titles?ids=video_004,video_003,video_001");
    const cards = await res.json<Array<{ id: string; episodeNames?: Record<string, string> }>>();
    const byId = new Map(cards.map((c) => [c.id, c]));
    expect(byId.get("video_004")?.episodeNames?.["2"]).toBe("第2期：意外来客");
    expect(byId.get("video_004")?.episodeNames?.["1"]).toBe("第1期：初次见面");
    // A series with unnamed episodes and a single title carry none.
    expect(byId.get("video_003")?.episodeNames).toBeUndefined();
    expect(byId.get("video_001")?.episodeNames).toBeUndefined();
  });
});
