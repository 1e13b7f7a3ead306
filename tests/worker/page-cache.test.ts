import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index";
import { pageCacheKeyUrl } from "../../worker/page-cache";

const BASE = "https://cache.test";

function nonceOf(res: Response): string | undefined {
  return /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1];
}

describe("edge caching of anonymous HTML", () => {
  it("a second anonymous request is served from the cache, with its own nonce everywhere", async () => {
    const first = await SELF.fetch(BASE + "/info/about");
    const firstHtml = await first.text();
    expect(first.headers.get("X-Cache")).toBe("MISS");
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    let second: Response | null = null;
    for (let i = 0; i < 20 && second?.headers.get("X-Cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      second = await SELF.fetch(BASE + "/info/about");
      if (second.headers.get("X-Cache") !== "HIT") await second.text();
    }
    expect(second?.headers.get("X-Cache")).toBe("HIT");
    const html = await second!.text();
    const nonce = nonceOf(second!);
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(nonceOf(first));
    const tags = html.match(/<script\b[^>]*nonce="[^"]*"/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html.replace(/nonce="[^"]*"/g, "")).toBe(firstHtml.replace(/nonce="[^"]*"/g, ""));
  });

  it("share-link tracking parameters and parameter order do not make a new cache entry", async () => {
    expect(pageCacheKeyUrl(BASE + "/latest?utm_source=wechat&page=2&spm=a.b&year=2025", "B")).toBe(pageCacheKeyUrl(BASE + "/latest?year=2025&page=2", "B"));
    expect(pageCacheKeyUrl(BASE + "/latest?page=2", "B")).not.toBe(pageCacheKeyUrl(BASE + "/latest?page=3", "B"));
    expect(pageCacheKeyUrl(BASE + "/latest?page=2", "B")).not.toBe(pageCacheKeyUrl(BASE + "/latest?page=2", "C"));
    const plain = await SELF.fetch(BASE + "/info/help?b=1&a=2");
    await plain.text();
    expect(plain.headers.get("X-Cache")).toBe("MISS");
    let shared: Response | null = null;
    for (let i = 0; i < 20 && shared?.headers.get("X-Cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      shared = await SELF.fetch(BASE + "/info/help?a=2&utm_source=weibo&b=1&fbclid=x1");
      await shared.text();
    }
    expect(shared?.headers.get("X-Cache")).toBe("HIT");
  });

  it("search pages and signed-in visitors are never cached", async () => {
    const search = await SELF.fetch(BASE + "/search?q=家");
    await search.text();
    expect(search.headers.get("X-Cache")).toBeNull();
    const withCookie = await SELF.fetch(BASE + "/info/help", { headers: { Cookie: "yingshi-auth=garbage" } });
    await withCookie.text();
    expect(withCookie.headers.get("X-Cache")).toBeNull();
    expect(withCookie.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("PAGE_CACHE=off: pages are rendered every time, with the same public headers", async () => {
    const fetchOff = async () => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(BASE + "/info/guide"), { ...env, PAGE_CACHE: "off" }, ctx);
      const html = await res.text();
      await waitOnExecutionContext(ctx);
      return { res, html };
    };
    for (let i = 0; i < 3; i++) {
      const { res, html } = await fetchOff();
      expect(res.status).toBe(200);
      expect(res.headers.get("X-Cache")).toBeNull();
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
      expect(html).toContain("</html>");
    }
    // nothing was stored either: with the cache on, the first request is a miss
    const on = await SELF.fetch(BASE + "/info/guide");
    await on.text();
    expect(on.headers.get("X-Cache")).toBe("MISS");
  });

  it("not-found pages are never stored (made-up category or video paths cannot fill the cache)", async () => {
    for (const path of ["/category/%E5%8A%A0%E5%BE%AE%E4%BF%A1%E7%9C%8B%E5%85%A8%E9%9B%86", "/video/no-such-video"]) {
      for (let i = 0; i < 3; i++) {
        const ctx = createExecutionContext();
        const res = await app.fetch(new Request(BASE + path), env, ctx);
        expect(res.status).toBe(404);
        await res.text();
        await waitOnExecutionContext(ctx); // any cache write of this request has finished
        expect(res.headers.get("X-Cache"), `${path} #${i}`).not.toBe("HIT");
      }
    }
  });
});
