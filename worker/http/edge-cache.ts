/**
 * The Workers Cache API (the edge): which cache each kind of answer uses, and the one path of a
 * generated answer through it (look the key up, else make the answer and store a copy of a 200,
 * so a hit never runs the queries again).
 *
 * - Generated answers (the pages' loader data, search, the 弹幕 reads, RSS, the sitemap…):
 *   `throughEdgeCache`, with the formats and keys of worker/edge-answers.ts.
 * - Pages: worker/page-cache.ts (nonces, streaming), in `answerCache`.
 * - Files (media, stream): ./cached-files.ts (Range, conditional requests), in `mediaEdgeCache`.
 */
import type { AppContext } from "../app-env";
import { configOf } from "../config";
import { guardedCache, STORAGE_TIMEOUT_MS } from "../outside-calls";

/**
 * The default edge cache under deadlines (worker/outside-calls.ts: a lookup that does not answer
 * within `ms` is a miss), or null where the runtime has none.
 */
export function defaultEdgeCache(ms: number = STORAGE_TIMEOUT_MS): Cache | null {
  return typeof caches !== "undefined" && "default" in caches ? guardedCache((caches as unknown as { default: Cache }).default, ms) : null;
}

/** The edge cache for media and stream files: `caches.default`, or null when `MEDIA_CACHE` is "off". */
export function mediaEdgeCache(env: Env): Cache | null {
  const config = configOf(env);
  return config.MEDIA_CACHE === "off" ? null : defaultEdgeCache(config.STORAGE_TIMEOUT_MS);
}

/**
 * The edge cache for pages and generated answers: `caches.default`, or null when `PAGE_CACHE`
 * is "off" (tests that count queries, local debugging).
 */
export function answerCache(env: Env): Cache | null {
  const config = configOf(env);
  return config.PAGE_CACHE === "off" ? null : defaultEdgeCache(config.STORAGE_TIMEOUT_MS);
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
