import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SearchData } from "../../shared/loaders";
import type { SuggestResponse } from "../../shared/search/query";
import app from "../../worker/index";

const BASE = "https://search.test";

async function page(q: string) {
  const res = await SELF.fetch(BASE + "/search?q=" + encodeURIComponent(q));
  return { res, html: await res.text() };
}

/** The card titles of a page, in order, as HTML. */
function cardTitles(html: string): string[] {
  return [...html.matchAll(/<h[23] class="video-card-title">(.*?)<\/h[23]>/g)].map((m) => m[1]);
}

describe("/search understands Chinese (issue 14)", () => {
  it.each(["wglx", "wugang", "霧港", "ＷＧＬＸ", "雾 港", "来信 雾港", "wu港"])("q=%s lists 雾港来信 first, highlighted", async (q) => {
    const { res, html } = await page(q);
    expect(res.status).toBe(200);
    const titles = cardTitles(html);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles[0].replace(/<\/?mark>/g, "")).toBe("雾港来信");
    expect(titles[0]).toContain("<mark>");
  });

  it("marks only the matched part, and a query cannot inject markup", async () => {
    expect(cardTitles((await page("来信")).html)[0]).toBe("雾港<mark>来信</mark>");
    const { html } = await page("<mark>来信</mark>");
    expect(html).not.toContain("<mark>来信</mark></h");
    expect(html).toContain("&lt;mark&gt;");
  });

  it("no results: the spec's texts and 热门推荐", async () => {
    const { res, html } = await page("zzzzqqqq");
    expect(res.status).toBe(200);
    expect(html).toContain("未找到相关结果");
    expect(html).toContain("请检查输入的关键词是否有错别字");
    expect(html).toContain("热门推荐");
    expect(cardTitles(html)).toHaveLength(8);
  });
});

describe("search JSON endpoints", () => {
  it("the browser's search loader after hydration reads the page's data (GET /api/page/search); GET /api/search is gone", async () => {
    const res = await SELF.fetch(BASE + "/api/page/search?q=" + encodeURIComponent("霧港") + "&sort=relevance");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const body = await res.json<SearchData>();
    expect(body.items[0].id).toBe("video_001");
    expect(body.marks.video_001).toEqual([[0, 2]]);
    expect(body.state).toEqual({ q: "霧港", category: null, sort: "relevance", page: 1 });
    const gone = await SELF.fetch(BASE + "/api/search?q=" + encodeURIComponent("霧港"));
    expect(gone.status).toBe(404);
  });

  it("GET /api/search/suggest gives up to 8 titles with covers, and 热门搜索 for an empty box", async () => {
    const res = await SELF.fetch(BASE + "/api/search/suggest?q=wg");
    expect(res.status).toBe(200);
    const body = await res.json<SuggestResponse>();
    expect(body.items[0]).toEqual({ id: "video_001", title: "雾港来信", cover: "/1.webp", year: 2025, category: "电影", marks: [[0, 2]] });
    expect(body.items.length).toBeLessThanOrEqual(8);
    const empty = await (await SELF.fetch(BASE + "/api/search/suggest")).json<SuggestResponse>();
    expect(empty.items).toEqual([]);
    expect(empty.hot).toHaveLength(8);
  });

  it("bad input gets an answer, never an error", async () => {
    for (const path of [
      "/api/search/suggest?q=%",
      "/api/search/suggest?q=%E7%94",
      "/api/page/search?page=-1&sort=x&category=%00",
      "/api/search/suggest?q=" + "长".repeat(1500),
    ]) {
      const res = await SELF.fetch(BASE + path);
      expect(res.status, path).toBe(200);
      await res.json();
    }
    expect((await SELF.fetch(BASE + "/api/search/nope")).status).toBe(404);
  });

  it("suggestions are cached at the edge, one entry per normalised query", async () => {
    const fetchOnce = async (q: string) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(BASE + "/api/search/suggest?q=" + encodeURIComponent(q)), env, ctx);
      await res.text();
      await waitOnExecutionContext(ctx);
      return res;
    };
    const first = await fetchOnce("sheng");
    expect(first.headers.get("X-Cache")).toBe("MISS");
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=45, s-maxage=300");
    expect((await fetchOnce("  sheng ")).headers.get("X-Cache")).toBe("HIT");
  });
});
