// D1 erring (issue 35, degrade don't fail; docs/decisions/0063-degrade-dont-fail.md), inside
// workerd against the real worker: every kind of route answers a storage fault with a 503,
// Retry-After and no-store in its own format (the Chinese error page, JSON, plain text); an
// anonymous page that was rendered before is served from its last good copy at the edge instead;
// a bug stays a 500, never cached.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeadlineError } from "../../worker/deadline";
import { isStorageFault } from "../../worker/fault-answers";
import { defaultEdgeCache } from "../../worker/http/edge-cache";
import { pageCacheKey } from "../../worker/page-cache";
import { BASE, callWith } from "./helpers/visitor";

/** A D1 binding whose every call fails the way `message` says (a real D1's outage message, or a query bug). */
function failingDb(message: string): D1Database {
  const fail = () => Promise.reject(new Error(message));
  const statement = { bind: () => statement, first: fail, all: fail, run: fail, raw: fail };
  const db = { prepare: () => statement, batch: fail, exec: fail, dump: fail, withSession: () => db };
  return db as unknown as D1Database;
}
const D1_DOWN: Partial<Env> = { DB: failingDb("D1_ERROR: Network connection lost. (injected by the test)") };

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errors = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("D1 down", () => {
  it.each(["/category/all?year=2019", "/video/video_003", "/search?q=%E9%9B%BE", "/ranking"])(
    "the page %s answers 503 with the site's 页面加载失败, never cached",
    async (path) => {
      const { res, text } = await callWith(D1_DOWN, "GET", path);
      expect(res.status).toBe(503);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(text).toContain("页面加载失败");
      expect(text).toContain("抱歉，页面出现了问题，请刷新页面或稍后重试。");
      expect(text).not.toMatch(/D1_ERROR|injected by the test|at \w+ \(/);
      expect(errors).toHaveBeenCalled();
    },
  );

  it("the APIs answer JSON, media and feeds plain text: 503 with Retry-After", async () => {
    const cases: Array<[string, RegExp, string]> = [
      ["/api/danmaku/video_001", /^application\/json/, '"code":"unavailable"'],
      ["/api.php/provide/vod?ac=list", /^application\/json/, "服务暂时不可用，请稍后重试"],
      ["/api/page/category/all", /^application\/json/, "服务暂时不可用，请稍后重试"],
      ["/stream/1/master.m3u8", /^text\/plain/, "媒体服务暂时不可用，请稍后重试"],
      ["/1.mp4", /^text\/plain/, "媒体服务暂时不可用，请稍后重试"],
      ["/sitemap.xml", /^text\/plain/, "服务暂时不可用，请稍后重试"],
      ["/rss.xml", /^text\/plain/, "服务暂时不可用，请稍后重试"],
    ];
    for (const [path, type, body] of cases) {
      const { res, text } = await callWith(D1_DOWN, "GET", path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
      expect(Number(res.headers.get("Retry-After")), path).toBeGreaterThan(0);
      expect(res.headers.get("Content-Type"), path).toMatch(type);
      expect(text, path).toContain(body);
    }
  });

  it("an anonymous page rendered before is served from its last good copy (X-Cache: STALE, no-store)", async () => {
    const path = "/category/all?year=2018";
    const good = await callWith({}, "GET", path);
    expect(good.res.status).toBe(200);
    expect(good.res.headers.get("X-Cache")).toBe("MISS");
    // The fresh copy's minute is over (its key names D1's versions): only the last good copy is left.
    await defaultEdgeCache()?.delete(await pageCacheKey(BASE + path, env.DB));

    const { res, text } = await callWith(D1_DOWN, "GET", path);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Cache")).toBe("STALE");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(text.replace(/nonce="[^"]*"/g, "")).toBe(good.text.replace(/nonce="[^"]*"/g, ""));
    // Its inline scripts carry this answer's nonce.
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    for (const tag of text.match(/<script\b[^>]*nonce="[^"]*"/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("a query bug is a 500 (not a fault to wait out), with the same page, never cached", async () => {
    const { res, text } = await callWith(
      { DB: failingDb("D1_TYPE_ERROR: Type 'object' not supported for value '[object Object]'") },
      "GET",
      "/category/all?year=2017",
    );
    expect(res.status).toBe(500);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Retry-After")).toBeNull();
    expect(text).toContain("页面加载失败");
  });

  it("tells storage faults from bugs", () => {
    expect(isStorageFault(new DeadlineError("d1 read", 3000))).toBe(true);
    expect(isStorageFault(new Error("D1_ERROR: Network connection lost."))).toBe(true);
    expect(isStorageFault(new Error("D1 DB is overloaded. Requests queued for too long."))).toBe(true);
    expect(isStorageFault(new Error("D1_ERROR: no such table: titles: SQLITE_ERROR"))).toBe(false);
    expect(isStorageFault(new Error("D1_TYPE_ERROR: Type 'object' not supported"))).toBe(false);
    expect(isStorageFault(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isStorageFault("D1_ERROR")).toBe(false);
  });
});

/** A 弹幕 room namespace whose every object fails the way an unreachable Durable Object does. */
function failingRooms(): Env["DANMAKU"] {
  const fail = () => Promise.reject(new Error("Durable Object is overloaded. Requests queued for too long. (injected by the test)"));
  const stub = new Proxy({}, { get: (_target, name) => (name === "then" ? undefined : fail) });
  return { idFromName: (name: string) => env.DANMAKU.idFromName(name), get: () => stub } as unknown as Env["DANMAKU"];
}

describe("the 弹幕 rooms down", () => {
  const ROOMS_DOWN: Partial<Env> = { DANMAKU: failingRooms() };

  it("the 弹幕 reads and the socket answer 503 JSON with Retry-After; the video page still plays", async () => {
    for (const path of ["/api/danmaku/video_001", "/api/danmaku/v3/?id=video_001&max=10"]) {
      const { res, text } = await callWith(ROOMS_DOWN, "GET", path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("Cache-Control"), path).toBe("no-store");
      expect(Number(res.headers.get("Retry-After")), path).toBeGreaterThan(0);
      expect(text, path).toContain("服务暂时不可用，请稍后重试");
      expect(text, path).not.toContain("injected by the test");
    }
    const socket = await callWith(ROOMS_DOWN, "GET", "/api/danmaku/video_001/ws", { headers: { Upgrade: "websocket", Origin: BASE } });
    expect(socket.res.status).toBe(503);
    const page = await callWith(ROOMS_DOWN, "GET", "/video/video_001");
    expect(page.res.status).toBe(200);
    expect(page.text).toContain("<video");
  });
});
