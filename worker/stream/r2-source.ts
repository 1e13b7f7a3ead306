/**
 * Whole objects from R2 as full 200 responses, the form the edge cache stores
 * (worker/stream/edge-cache.ts): Content-Type and Cache-Control of the route (never the
 * object's stored metadata), Content-Length, ETag, Last-Modified, Accept-Ranges, nosniff.
 */
import { notFound, RETRY_AFTER_SECONDS, unavailable } from "../media/responses";

export interface WholeObjectOptions {
  contentType: string;
  cacheControl: string;
  /** Retry-After of the 503 sent when R2 fails. Default: 30 (seconds). */
  retryAfterSeconds?: number;
}

/**
 * One R2 get of the whole object `key`: 200 with its body, 404 (no-store) when there is no
 * such object, 503 (no-store, Retry-After, logged) when R2 throws.
 */
export async function loadWholeObject(bucket: R2Bucket, key: string, options: WholeObjectOptions): Promise<Response> {
  let obj: R2ObjectBody | null;
  try {
    obj = await bucket.get(key);
  } catch (err) {
    return unavailable(err, key, options.retryAfterSeconds ?? RETRY_AFTER_SECONDS);
  }
  if (!obj) return notFound();
  if (obj.size === 0) await obj.body.cancel().catch(() => {});
  return new Response(obj.size > 0 ? obj.body : null, {
    status: 200,
    headers: {
      "Content-Type": options.contentType,
      "Cache-Control": options.cacheControl,
      "Content-Length": String(obj.size),
      ETag: obj.httpEtag,
      "Last-Modified": obj.uploaded.toUTCString(),
      "Accept-Ranges": "bytes",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
