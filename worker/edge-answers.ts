/**
 * Generated answers through the Workers cache (the edge): the pages' loader data, search, cards
 * by id (JSON), the provide API, RSS and the ranking (text), the 弹幕 reads. One path for all:
 * look the key up, else make the answer and store a copy of a 200 — so a hit never runs the
 * queries again. Pages have their own cache (worker/page-cache.ts: nonces, streaming) and media
 * theirs (worker/stream/edge-cache.ts: Range, conditional requests).
 */
import clientAssets from "virtual:client-assets";
import type { AppContext } from "./app-env";
import { configOf } from "./config";
import { defaultEdgeCache } from "./stream/edge-cache";

/** The client build's entry names: they tell one build from the next (keys include it). */
const BUILD_ID = clientAssets.scripts.join(",");

/** `caches.default`, or null when `PAGE_CACHE` is "off" (tests that count queries, local debugging). */
export function answerCache(c: AppContext): Cache | null {
  return configOf(c.env).PAGE_CACHE === "off" ? null : defaultEdgeCache();
}

/**
 * Answers from `cache` under `key`, else `make()`; a 200 is stored (its headers say for how
 * long). `X-Cache` says which happened: HIT, MISS (stored) or BYPASS (no cache, or not a 200).
 */
export async function throughEdgeCache(c: AppContext, cache: Cache | null, key: Request, make: () => Promise<Response>): Promise<Response> {
  if (cache) {
    try {
      const hit = await cache.match(key);
      if (hit) {
        // A cached response's headers are immutable: copy it so the middlewares can add theirs.
        const res = new Response(hit.body, hit);
        res.headers.set("X-Cache", "HIT");
        return res;
      }
    } catch (error) {
      console.error("edge cache read failed", error);
    }
  }
  const response = await make();
  const stored = cache !== null && response.status === 200;
  if (stored) c.executionCtx.waitUntil(cache.put(key, response.clone()).catch((error) => console.error("edge cache write failed", error)));
  response.headers.set("X-Cache", stored ? "MISS" : "BYPASS");
  return response;
}

/** A cache key: the URL with its query sorted, plus the build. */
function keyOf(url: URL): Request {
  const keyUrl = new URL(url);
  keyUrl.searchParams.sort();
  keyUrl.searchParams.set("__build", BUILD_ID);
  keyUrl.hash = "";
  return new Request(keyUrl.toString(), { method: "GET" });
}

export interface JsonAnswer {
  status?: number;
  body: unknown;
}

/**
 * Answers `make()` as JSON with `cacheControl` (a non-200 gets no-store), through the edge cache
 * under `key` (a canonical URL given by the caller) plus the build.
 */
export async function cachedJson(c: AppContext, key: URL, cacheControl: string, make: () => Promise<JsonAnswer> | JsonAnswer): Promise<Response> {
  return throughEdgeCache(c, answerCache(c), keyOf(key), async () => {
    const { status = 200, body } = await make();
    return new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": status === 200 ? cacheControl : "no-store" },
    });
  });
}

export interface CachedBody {
  body: string;
  contentType: string;
}

/**
 * Answers `render()` through the edge cache under `key`, a normalised form of the request chosen
 * by the caller so that equivalent URLs share one entry, plus the build: a 200 with
 * `cacheControl`, stored; or, when `render()` gives null (nothing there, e.g. a sitemap part past
 * the last), a 404 with `no-store`, not stored — so the part can appear later without waiting
 * for a cached 404 to expire.
 */
export async function cachedText(c: AppContext, key: string, cacheControl: string, render: () => Promise<CachedBody | null>): Promise<Response> {
  const keyUrl = new URL("/__answers-cache", c.req.url);
  keyUrl.searchParams.set("k", key);
  return throughEdgeCache(c, answerCache(c), keyOf(keyUrl), async () => {
    const rendered = await render();
    if (rendered === null)
      return new Response("404 Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    return new Response(rendered.body, { headers: { "Content-Type": rendered.contentType, "Cache-Control": cacheControl } });
  });
}
