import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HomeData, ListingData, SearchData } from "../../shared/loaders";
import { BASE } from "./helpers/visitor";

async function get(path: string, init?: RequestInit) {
  const res = await SELF.fetch(BASE + path, { redirect: "manual", ...init });
  const html = await res.text();
  return { res, html };
}

/** The hydration payload the worker put into the page. */
interface HydrationData {
  loaderData: Record<string, unknown>;
  errors: Record<string, unknown> | null;
}

function hydrationData(html: string): HydrationData {
  const match = /window\.__routerHydrationData=(\{.*?\});window\.__ASSETS__=/.exec(html);
  if (!match) throw new Error("no hydration data in the page");
  return JSON.parse(match[1]) as HydrationData;
}

/** The loader data of the route whose data has `key` (home: "hot", listings: "items", search: "categories"). */
function routeData<T extends object>(data: HydrationData, key: keyof T & string): T {
  const found = Object.values(data.loaderData).find((d) => typeof d === "object" && d !== null && key in d);
  if (!found) throw new Error(`no route data with "${key}" in the page`);
  return found as T;
}

function titleOf(html: string): string {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
}

describe("every route answers with its status and key markup", () => {
  it("/ renders the home sections with counts", async () => {
    const { res, html } = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain('<html lang="zh-CN">');
    expect(titleOf(html)).toBe("免费高清影视在线观看 - 影视站");
    expect(html).toContain('<link rel="canonical" href="https://yingshi.test/"/>');
    for (const text of ["热门推荐", "最新更新", "高分推荐", "为什么选择影视站", "电影大全", "综艺节目"]) expect(html).toContain(text);
    expect(html).toMatch(/href="\/category\/all"/);
    expect(html).toMatch(/href="\/latest"/);
    expect(html).toMatch(/href="\/top-rated"/);
    const data = hydrationData(html);
    const home = routeData<HomeData>(data, "hot");
    expect(home.hot).toHaveLength(8);
    expect(home.latest).toHaveLength(12);
    expect(home.topRated).toHaveLength(8);
    expect(home.latest[0].id).toBe("video_050");
    for (const card of home.hot) expect(card.views).toBeGreaterThanOrEqual(1000);
  });

  it("/category/电影 (raw and percent-encoded) lists films", async () => {
    for (const path of ["/category/电影", "/category/%E7%94%B5%E5%BD%B1"]) {
      const { res, html } = await get(path);
      expect(res.status).toBe(200);
      expect(titleOf(html)).toBe("电影大全 - 影视站");
      expect(html).toContain("电影大全");
      expect(html).toContain('href="/video/');
    }
  });

  it("/category/all paginates 12 per page and falls back on bad query values", async () => {
    const first = hydrationData((await get("/category/all")).html);
    const listing = routeData<ListingData>(first, "items");
    expect(listing.total).toBe(50);
    expect(listing.items).toHaveLength(12);
    expect(listing.pageCount).toBe(5);
    const last = hydrationData((await get("/category/all?page=5")).html);
    expect(routeData<ListingData>(last, "items").items).toHaveLength(2);
    for (const q of ["?page=abc", "?page=999", "?rating=x", "?sort=evil&year=abcd", "?page=-1"]) {
      const { res, html } = await get("/category/all" + q);
      expect(res.status).toBe(200);
      const data = routeData<ListingData>(hydrationData(html), "items");
      expect(data.state.page).toBe(1);
      expect(data.state.rating).toBe(0);
    }
  });

  it("a category with no titles is a 404 with noindex that does not echo the name; filters that match nothing show the empty message", async () => {
    for (const name of ["不存在的分类", "加微信看全集"]) {
      const { res, html } = await get(`/category/${encodeURIComponent(name)}`);
      expect(res.status).toBe(404);
      expect(html).toContain('<meta name="robots" content="noindex');
      expect(html).not.toContain(name);
      expect(html).toContain("404 页面未找到");
    }
    const { res, html } = await get("/category/%E7%9F%AD%E5%89%A7?rating=9&year=1900");
    expect(res.status).toBe(200);
    expect(html).toContain("暂无符合条件的视频");
  });

  it("/latest and /top-rated are real listing pages", async () => {
    const latest = await get("/latest");
    expect(latest.res.status).toBe(200);
    expect(titleOf(latest.html)).toBe("最新更新 - 影视站");
    const top = await get("/top-rated");
    expect(top.res.status).toBe(200);
    const data = routeData<ListingData>(hydrationData(top.html), "items");
    expect(data.state.sort).toBe("rating");
  });

  it("/search finds, filters and escapes the query", async () => {
    const { res, html } = await get("/search?q=" + encodeURIComponent("家"));
    expect(res.status).toBe(200);
    expect(html).toContain("的搜索结果");
    const empty = await get("/search?q=%20%20");
    expect(empty.html).toContain("开始搜索");
    const none = await get("/search?q=zzzzqqqq");
    expect(none.html).toContain("未找到相关结果");
    expect(none.html).toContain("尝试使用更简单的关键词");
  });

  it("hydration data cannot close the script element", async () => {
    const attack = "</script><script>alert(1)</script><!--";
    const { res, html } = await get("/search?q=" + encodeURIComponent(attack));
    expect(res.status).toBe(200);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html.match(/<\/script>/g)?.length).toBe(html.match(/<script/g)?.length);
    const data = hydrationData(html);
    const search = routeData<SearchData>(data, "categories");
    expect(search.state.q).toBe(attack);
  });

  it("a very long query is cut, never an error", async () => {
    // 1500 × "长" is 13.5 KB percent-encoded: long, but under the 16 KB URL limit (worker/limits.ts → 414).
    const { res } = await get("/search?q=" + "长".repeat(1500));
    expect(res.status).toBe(200);
  });

  it("/video/video_001 shows the video; unknown ids are 404 with the spec's texts", async () => {
    const ok = await get("/video/video_001");
    expect(ok.res.status).toBe(200);
    expect(ok.html).toContain('"@type":"VideoObject"');
    const missing = await get("/video/video_999");
    expect(missing.res.status).toBe(404);
    expect(missing.html).toContain("视频未找到");
    expect(missing.html).toContain("抱歉，您要查看的视频不存在或已被删除。");
    expect(missing.html).toContain("返回首页");
  });

  it("/info pages exist; any other page type is 404 页面未找到", async () => {
    for (const type of ["about", "contact", "help", "guide", "privacy", "terms", "copyright", "disclaimer", "feedback"]) {
      const { res } = await get(`/info/${type}`);
      expect(res.status, type).toBe(200);
    }
    const help = await get("/info/help");
    expect(help.html).toContain("24小时");
    const missing = await get("/info/nothing");
    expect(missing.res.status).toBe(404);
    expect(missing.html).toContain("页面未找到");
  });

  it("unknown paths are 404 with a link home", async () => {
    for (const path of ["/nope", "/video", "/category", "/a/b/c", "/%E7%94"]) {
      const { res, html } = await get(path);
      expect(res.status, path).toBe(404);
      expect(html).toContain("404 页面未找到");
      expect(html).toContain('href="/"');
    }
  });

  it("broken percent-encoding is a 404 page, never a 500", async () => {
    for (const path of ["/category/%E7%94", "/video/%E7%94", "/info/%FF", "/category/%"]) {
      const { res } = await get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it("HEAD answers headers only", async () => {
    const res = await SELF.fetch(BASE + "/", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("footer texts come from configuration", async () => {
    const { html } = await get("/");
    expect(html).toContain("© 2025 影视站 版权所有");
    expect(html).toContain("京ICP备2025000000号-1");
    expect(html).toContain("网络文化经营许可证");
    expect(html).toContain("商务合作请联系");
  });
});
