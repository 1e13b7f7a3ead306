// Every outside call has a deadline (issue 35; docs/decisions/0068-outside-call-deadlines.md),
// inside workerd against the real worker: a D1, an R2 bucket and a 弹幕 Durable Object that never
// answer (a promise that never settles, injected here) give the route's 503 with Retry-After once
// STORAGE_TIMEOUT_MS has passed, instead of a request that waits for ever. (The account service's
// own timeout is tested in tests/worker/account-service-faults.test.ts.)
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetContentTag } from "../../worker/content-version";
import { forgetSiteSettings } from "../../worker/site-settings";
import { BASE, callWith } from "./helpers/visitor";

/** A promise that never settles: a dependency that hangs. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** A D1 binding whose every statement and batch hangs. */
function hangingDb(): D1Database {
  const statement = { bind: () => statement, first: never, all: never, run: never, raw: never };
  const db = { prepare: () => statement, batch: never, exec: never, dump: never, withSession: () => ({ ...db, getBookmark: () => null }) };
  return db;
}

/** An R2 bucket whose reads hang. */
function hangingBucket(): R2Bucket {
  return { get: never, head: never, list: never, put: never, delete: never } as unknown as R2Bucket;
}

/** A 弹幕 room namespace whose objects accept the call and never answer. */
function hangingRooms(): Env["DANMAKU"] {
  const stub = new Proxy({}, { get: (_target, name) => (name === "then" ? undefined : never) });
  return { idFromName: (name: string) => env.DANMAKU.idFromName(name), get: () => stub } as unknown as Env["DANMAKU"];
}

const FAST: Partial<Env> = { STORAGE_TIMEOUT_MS: "100" };

function expect503(res: Response, text: string, type: RegExp, message: string): void {
  expect(res.status).toBe(503);
  expect(res.headers.get("Cache-Control")).toBe("no-store");
  expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
  expect(res.headers.get("Content-Type")).toMatch(type);
  expect(text).toContain(message);
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  forgetContentTag();
  forgetSiteSettings();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("a dependency that never answers", () => {
  it("D1: a page, the provide API and a playlist answer 503 in their own format", async () => {
    const stuck = { ...FAST, DB: hangingDb() };
    const page = await callWith(stuck, "GET", "/category/all?year=2015");
    expect503(page.res, page.text, /^text\/html/, "页面加载失败");
    const api = await callWith(stuck, "GET", "/api.php/provide/vod/?ac=list");
    expect503(api.res, api.text, /^application\/json/, "服务暂时不可用，请稍后重试");
    const playlist = await callWith(stuck, "GET", "/stream/1/master.m3u8");
    expect503(playlist.res, playlist.text, /^text\/plain/, "媒体服务暂时不可用，请稍后重试");
  });

  it("R2: media read straight from the bucket answers 503", async () => {
    const stuck = { ...FAST, MEDIA_CACHE: "off", MEDIA: hangingBucket() };
    for (const path of ["/1.webp", "/stream/1/master.m3u8"]) {
      const { res, text } = await callWith(stuck, "GET", path);
      expect503(res, text, /^text\/plain/, "媒体服务暂时不可用，请稍后重试");
    }
  });

  it("a 弹幕 room: the reads and the socket answer 503, the video page still plays", async () => {
    const stuck = { ...FAST, DANMAKU: hangingRooms() };
    for (const path of ["/api/danmaku/video_002", "/api/danmaku/v3/?id=video_002&max=10"]) {
      const { res, text } = await callWith(stuck, "GET", path);
      expect503(res, text, /^application\/json/, "服务暂时不可用，请稍后重试");
    }
    const socket = await callWith(stuck, "GET", "/api/danmaku/video_002/ws", { headers: { Upgrade: "websocket", Origin: BASE } });
    expect(socket.res.status).toBe(503);
    const page = await callWith(stuck, "GET", "/video/video_002");
    expect(page.res.status).toBe(200);
    expect(page.text).toContain("<video");
  });

  it("the edge cache: a lookup that never answers is a miss — pages, answers and media are made from storage", async () => {
    // Every cache of the runtime (the prototype's methods): lookups and deletes hang. (A store in the
    // background has the long deadline of a write; callWith waits for the background work.)
    const cacheMethods = Object.getPrototypeOf((caches as unknown as { default: Cache }).default) as Cache;
    const match = vi.spyOn(cacheMethods, "match").mockImplementation(never);
    vi.spyOn(cacheMethods, "delete").mockImplementation(never);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await env.MEDIA.put("1.webp", new Uint8Array(32), { httpMetadata: { contentType: "image/webp" } });
    for (const path of ["/video/video_002", "/category/all", "/api/danmaku/video_002", "/1.webp"]) {
      const { res } = await callWith(FAST, "GET", path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("X-Cache"), path).toBe("MISS");
    }
    expect(match).toHaveBeenCalled();
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/cache/), expect.objectContaining({ name: "DeadlineError" }));
  });
});
