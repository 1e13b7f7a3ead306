/**
 * `/N.mp4` and `/N.webp` through the edge cache (worker/stream/edge-cache.ts), like the
 * stream files: a plain GET (or `Range: bytes=0-`) on a miss reads the whole object once and
 * stores it; another Range, a conditional or a HEAD request on a miss is answered by serve.ts (one ranged R2 read, so a
 * seek into a large video does not wait for the whole file) while the whole object is stored
 * in the background. Hits are answered from the cached copy with the same RFC 9110 rules.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { mediaEdgeCache, serveThroughEdgeCache } from "../stream/edge-cache";
import { loadWholeObject } from "../stream/r2-source";
import { MEDIA_CACHE_CONTROL, parseMediaPath, serveMedia } from "./serve";

export async function serveMediaCached(c: Context<AppEnv>): Promise<Response> {
  const file = parseMediaPath(new URL(c.req.url).pathname);
  // Odd names and other methods: serve.ts answers (404 / 405) without touching R2.
  if (!file || (c.req.method !== "GET" && c.req.method !== "HEAD")) return serveMedia(c);
  return serveThroughEdgeCache(c, {
    loadWhole: () =>
      loadWholeObject(c.env.MEDIA, file.key, { contentType: file.contentType, cacheControl: MEDIA_CACHE_CONTROL }),
    answerMiss: () => serveMedia(c),
  }, { cache: mediaEdgeCache(c.env) });
}
