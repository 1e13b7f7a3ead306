/**
 * `/N.mp4` and `/N.webp` through the edge cache (worker/http/cached-files.ts), like the
 * stream files. A miss is answered by serve.ts (one R2 read, ranged for a Range, so a seek
 * does not wait for the whole file and nothing is buffered for a slow client) while a second
 * read stores the whole object in the background. Hits are answered from the cached copy with
 * the same RFC 9110 rules.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { serveThroughEdgeCache } from "../http/cached-files";
import { mediaEdgeCache } from "../http/edge-cache";
import { loadWholeObject } from "../http/r2-answers";
import { notFound } from "../http/plain-answers";
import { MEDIA_CACHE_CONTROL, parseMediaPath, serveMedia } from "./serve";
import { mediaHidden } from "./visibility";

export async function serveMediaCached(c: Context<AppEnv>): Promise<Response> {
  const file = parseMediaPath(new URL(c.req.url).pathname);
  // Odd names and other methods: serve.ts answers (404 / 405) without touching R2.
  if (!file || (c.req.method !== "GET" && c.req.method !== "HEAD")) return serveMedia(c);
  // The progressive file of a title that is not published is gone (covers stay: the 管理后台 shows them).
  if (file.contentType === "video/mp4" && (await mediaHidden(c.env.DB, Number(file.key.split(".")[0])))) return notFound();
  return serveThroughEdgeCache(
    c,
    {
      loadWhole: () => loadWholeObject(c.env.MEDIA, file.key, { contentType: file.contentType, cacheControl: MEDIA_CACHE_CONTROL }),
      answerMiss: () => serveMedia(c),
    },
    { cache: mediaEdgeCache(c.env) },
  );
}
