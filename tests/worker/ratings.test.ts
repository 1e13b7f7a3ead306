// 评分 (worker/ratings/, docs/decisions/0115-viewer-ratings.md): a signed-in viewer rates a title
// 1–10, changes or removes the score; the totals follow in the same write; writes need a same-site
// Origin and stay under the rate limit; the viewers' average replaces the catalogue's rating in
// sorting, cards and the provide API once RATING_MIN_COUNT viewers rated, and the cached pages follow.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HomeData, ListingData, VideoData } from "../../shared/loaders";
import { RATING_MIN_COUNT, type RatingSummary } from "../../shared/ratings";
import { RATING_WRITES } from "../../worker/ratings/store";
import { BASE, call, callRead, signUp, type Jar } from "./helpers/visitor";

const SAME_SITE = { Origin: BASE };

interface Answer {
  summary: RatingSummary;
  mine: number | null;
}

async function rate(jar: Jar, id: string, score: unknown): Promise<Answer> {
  const res = await call("PUT", `/api/ratings/${id}`, { jar, headers: SAME_SITE, json: { score } });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  return res.json<Answer>();
}

async function unrate(jar: Jar, id: string): Promise<Answer> {
  const res = await call("DELETE", `/api/ratings/${id}`, { jar, headers: SAME_SITE });
  expect(res.status).toBe(200);
  return res.json<Answer>();
}

async function read(id: string, jar?: Jar): Promise<Answer> {
  const res = await call("GET", `/api/ratings/${id}`, { jar });
  expect(res.status).toBe(200);
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  return res.json<Answer>();
}

async function pageData<T>(path: string): Promise<T> {
  const res = await call("GET", `/api/page${path === "/" ? "" : path}`);
  expect(res.status).toBe(200);
  return res.json<T>();
}

async function provideDetail(id: string): Promise<{ vod_score: string; vod_score_num: number }> {
  const res = await call("GET", `/api.php/provide/vod/?ac=detail&ids=${Number(id.replace("video_", ""))}`);
  expect(res.status).toBe(200);
  const body = await res.json<{ list: Array<{ vod_score: string; vod_score_num: number }> }>();
  return body.list[0];
}

/** The stored totals of a title next to what its rows add up to. */
async function totalsAndRows(id: string) {
  const totals = await env.DB.prepare("SELECT count, sum, s1, s2, s3, s4, s5 FROM title_rating_totals WHERE title_id = ?").bind(id).first();
  const rows = await env.DB.prepare(
    "SELECT count(*) AS count, coalesce(sum(score), 0) AS sum, " +
      [1, 2, 3, 4, 5].map((r) => `coalesce(sum((score + 1) / 2 = ${r}), 0) AS s${r}`).join(", ") +
      " FROM title_ratings WHERE title_id = ?",
  )
    .bind(id)
    .first();
  return { totals, rows };
}

describe("/api/ratings", () => {
  it("refuses a visitor who is not signed in, a write from another site, bad scores and unknown titles, in Chinese", async () => {
    for (const method of ["PUT", "DELETE"] as const) {
      const res = await call(method, "/api/ratings/video_003", { headers: SAME_SITE, json: method === "PUT" ? { score: 8 } : undefined });
      expect(res.status, method).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "not_signed_in", message: "请先登录后再评分" } });
    }
    const { jar } = await signUp("rate-refused");
    for (const headers of [{ Origin: "https://evil.test" }, {}] as Array<Record<string, string>>) {
      for (const method of ["PUT", "DELETE"] as const) {
        const res = await call(method, "/api/ratings/video_003", { jar, headers, json: { score: 8 } });
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ error: { code: "cross_site", message: "请求来源无效" } });
      }
    }
    for (const score of [0, 11, 7.5, "8", null, -1]) {
      const res = await call("PUT", "/api/ratings/video_003", { jar, headers: SAME_SITE, json: { score } });
      expect(res.status, String(score)).toBe(400);
      expect(await res.json()).toEqual({ error: { code: "invalid_score", message: "评分须为 1 到 10 的整数" } });
    }
    const notJson = await call("PUT", "/api/ratings/video_003", { jar, headers: SAME_SITE, body: "{", contentType: "application/json" });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: { code: "invalid_body", message: "请求内容无效" } });
    for (const id of ["video_999", "nope"]) {
      const res = await call("PUT", `/api/ratings/${id}`, { jar, headers: SAME_SITE, json: { score: 8 } });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "unknown_title", message: "视频不存在" } });
      expect((await call("GET", `/api/ratings/${id}`)).status).toBe(404);
    }
    // Nothing of it was stored.
    expect(await read("video_003", jar)).toEqual({ summary: { count: 0, average: null, stars: [0, 0, 0, 0, 0] }, mine: null });
  });

  it("rates, changes and removes a score — each account only its own — with the totals in step", async () => {
    const a = await signUp("rate-a");
    const b = await signUp("rate-b");
    expect(await rate(a.jar, "video_004", 8)).toEqual({ summary: { count: 1, average: 8, stars: [0, 0, 0, 1, 0] }, mine: 8 });
    expect((await read("video_004", a.jar)).mine).toBe(8);
    expect(await read("video_004")).toEqual({ summary: { count: 1, average: 8, stars: [0, 0, 0, 1, 0] }, mine: null });
    // A change replaces the score: still one rating.
    expect((await rate(a.jar, "video_004", 3)).summary).toEqual({ count: 1, average: 3, stars: [0, 1, 0, 0, 0] });
    expect((await rate(b.jar, "video_004", 10)).summary).toEqual({ count: 2, average: 6.5, stars: [0, 1, 0, 0, 1] });
    // b's DELETE of a title b never rated — or a second one — touches nothing of a's.
    expect((await unrate(b.jar, "video_004")).summary).toEqual({ count: 1, average: 3, stars: [0, 1, 0, 0, 0] });
    expect((await unrate(b.jar, "video_004")).summary).toEqual({ count: 1, average: 3, stars: [0, 1, 0, 0, 0] });
    expect((await read("video_004", a.jar)).mine).toBe(3);
    expect(await unrate(a.jar, "video_004")).toEqual({ summary: { count: 0, average: null, stars: [0, 0, 0, 0, 0] }, mine: null });
    const { totals, rows } = await totalsAndRows("video_004");
    expect(totals).toEqual(rows);
  });

  it("limits how often one account writes", async () => {
    const { jar } = await signUp("rate-limit");
    for (let i = 0; i < RATING_WRITES.limit; i++) await rate(jar, "video_005", (i % 10) + 1);
    const res = await call("PUT", "/api/ratings/video_005", { jar, headers: SAME_SITE, json: { score: 9 } });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe(String(RATING_WRITES.windowMs / 1000));
    expect(await res.json()).toEqual({ error: { code: "too_many_ratings", message: "评分太频繁，请稍后再试" } });
    // Another account is not held back.
    await rate((await signUp("rate-limit-other")).jar, "video_005", 9);
  });
});

describe("the viewers' average in the catalogue", () => {
  // video_015 has the catalogue's lowest rating (8.1): only the viewers' average can lift it to the top.
  const ID = "video_015";

  it(`counts from ${RATING_MIN_COUNT} ratings on: sorting, cards, the video page and the provide API`, async () => {
    const before = await callRead("GET", `/video/${ID}`); // the anonymous page, now in the edge cache
    expect(before.res.status).toBe(200);
    expect(before.text).toContain("0人评分");
    const jars: Jar[] = [];
    for (let i = 0; i < RATING_MIN_COUNT; i++) jars.push((await signUp(`rate-many-${i}`)).jar);
    for (const jar of jars.slice(1)) await rate(jar, ID, 10);

    // One short of the minimum: the catalogue's rating stays everywhere.
    const below = await pageData<VideoData>(`/video/${ID}`);
    expect(below.ratings).toEqual({ count: RATING_MIN_COUNT - 1, average: 10, stars: [0, 0, 0, 0, RATING_MIN_COUNT - 1] });
    expect(below.viewerScore).toBeNull();
    expect((await pageData<ListingData>("/top-rated")).items[0].id).not.toBe(ID);
    expect(await provideDetail(ID)).toMatchObject({ vod_score: "8.1", vod_score_num: 0 });

    // The tenth rating (an 8): the viewers' average, (9 × 10 + 8) / 10 = 9.8, is the title's rating.
    expect((await rate(jars[0], ID, 8)).summary).toEqual({ count: RATING_MIN_COUNT, average: 9.8, stars: [0, 0, 0, 1, RATING_MIN_COUNT - 1] });
    const at = await pageData<VideoData>(`/video/${ID}`);
    expect(at.viewerScore).toBe(9.8);
    expect(at.ratingCount).toBe(RATING_MIN_COUNT);
    expect(at.video.rating).toBe(8.1); // the site's own rating is still shown next to it
    const top = await pageData<ListingData>("/top-rated");
    expect(top.items[0]).toMatchObject({ id: ID, rating: 9.8 });
    expect((await pageData<ListingData>("/category/all?sort=rating&rating=9")).items.map((c) => c.id)).toContain(ID);
    expect((await pageData<HomeData>("/")).topRated[0].id).toBe(ID);
    expect(await provideDetail(ID)).toEqual(expect.objectContaining({ vod_score: "9.8", vod_score_num: RATING_MIN_COUNT }));
    // The anonymous page cached before the ratings is not served again: its key moved with the ratings' version.
    const after = await callRead("GET", `/video/${ID}`);
    expect(after.text).toContain(`${RATING_MIN_COUNT}人评分`);
    expect(after.text).toMatch(/"ratingValue":9.8,"bestRating":10,"worstRating":0,"ratingCount":10/);

    // A write that leaves the score as it was keeps every cached page (the version stays); one that moves it re-keys them.
    const version = async () => (await env.DB.prepare("SELECT version FROM content_versions WHERE kind = 'ratings'").first<{ version: number }>())?.version;
    const v0 = await version();
    await rate(jars[1], ID, 10); // the same score again: 9.8 stays
    expect(await version()).toBe(v0);
    await rate(jars[1], ID, 9); // (8 × 10 + 9 + 8) / 10 = 9.7
    expect(await version()).toBe((v0 ?? 0) + 1);
    expect(await provideDetail(ID)).toMatchObject({ vod_score: "9.7" });
    await rate(jars[1], ID, 10);

    // One removal takes it below the minimum again: back to the catalogue's rating.
    await unrate(jars[0], ID);
    expect((await pageData<ListingData>("/top-rated")).items[0].id).not.toBe(ID);
    expect(await provideDetail(ID)).toMatchObject({ vod_score: "8.1", vod_score_num: 0 });
    const { totals, rows } = await totalsAndRows(ID);
    expect(totals).toEqual(rows);
  });
});
