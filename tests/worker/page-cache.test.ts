import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index";
import { pageCacheKey, pageCacheKeyUrl } from "../../worker/page-cache";
import { defaultEdgeCache } from "../../worker/http/edge-cache";
import { signUp, type Jar } from "./helpers/visitor";

const BASE = "https://cache.test";

/** A GET of the worker, its body read and every cache write it started finished. */
async function settledGet(path: string, jar?: Jar): Promise<{ res: Response; html: string }> {
  const headers = new Headers();
  if (jar?.size) headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(BASE + path, { headers }), env, ctx);
  const html = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, html };
}

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

  it("search pages are never cached", async () => {
    const search = await SELF.fetch(BASE + "/search?q=家");
    await search.text();
    expect(search.headers.get("X-Cache")).toBeNull();
  });

  it("a signed-in visitor's page is never stored: an anonymous visitor after them gets a fresh anonymous render", async () => {
    const { email, jar } = await signUp("page-cache", { base: BASE });
    // A cacheable page no earlier request has put in the cache.
    const path = `/info/help?visit=${crypto.randomUUID()}`;
    const key = await pageCacheKey(BASE + path, env.DB);
    // The cache the worker keeps pages in (caches.default).
    const edge = defaultEdgeCache();
    expect(edge).not.toBeNull();
    const signedIn = await settledGet(path, jar);
    expect(signedIn.res.status).toBe(200);
    expect(signedIn.html).toContain(email); // really signed in: the page is theirs
    expect(signedIn.html).toContain("退出登录");
    expect(await edge!.match(key)).toBeUndefined();
    const anonymous = await settledGet(path);
    expect(anonymous.res.headers.get("X-Cache")).toBe("MISS");
    expect(anonymous.html).not.toContain(email);
    expect(anonymous.html).toContain("登录/注册");
    // The signed-in answer went past the cache and tells every other cache not to keep it either.
    expect(signedIn.res.headers.get("X-Cache")).toBeNull();
    expect(signedIn.res.headers.get("Cache-Control")).toBe("private, no-store");
    // The anonymous render is what the cache keeps.
    expect(await edge!.match(key)).toBeDefined();
  });

  it("a request with a session cookie that signs nobody in is not cached either", async () => {
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
