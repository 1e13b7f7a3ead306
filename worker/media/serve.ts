/**
 * Media files from the R2 bucket `MEDIA`: `/N.mp4` (video) and `/N.webp` (cover).
 *
 * GET / HEAD with RFC 9110 semantics (worker/http/r2-answers.ts): 200 full, 206 single range,
 * 416 unsatisfiable, malformed / multiple ranges → 200 full, ETag + If-None-Match /
 * If-Modified-Since → 304, If-Range, a real Content-Length (never chunked) and no compression
 * (`no-transform`). Other methods → 405; any other name → 404, without an R2 read.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { notFound, textResponse } from "../http/plain-answers";
import { answerFromR2 } from "../http/r2-answers";

/** The only accepted names: no leading zero, lower-case extension, nothing else. */
const MEDIA_PATH = /^\/([1-9][0-9]{0,5})\.(mp4|webp)$/;

const CONTENT_TYPES = { mp4: "video/mp4", webp: "image/webp" } as const;

/** R2 key and Content-Type of a raw (undecoded) path such as `/12.mp4`, or null for any other path. */
export function parseMediaPath(pathname: string): { key: string; contentType: string } | null {
  const match = MEDIA_PATH.exec(pathname);
  if (!match) return null;
  return { key: `${match[1]}.${match[2]}`, contentType: CONTENT_TYPES[match[2] as keyof typeof CONTENT_TYPES] };
}

/**
 * Media may be regenerated under the same URL, so no `immutable`; `no-transform` keeps
 * Cloudflare (and any proxy) from compressing or re-encoding the bytes.
 */
export const MEDIA_CACHE_CONTROL = "public, max-age=86400, stale-while-revalidate=604800, no-transform";

export async function serveMedia(c: Context<AppEnv>): Promise<Response> {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD") {
    return textResponse(405, "Method Not Allowed", { Allow: "GET, HEAD" });
  }
  // The key is built only from the strict match on the raw (undecoded) path.
  const file = parseMediaPath(new URL(c.req.url).pathname);
  if (!file) return notFound();
  return answerFromR2(c.req.raw, c.env.MEDIA, file.key, { contentType: file.contentType, cacheControl: MEDIA_CACHE_CONTROL });
}
