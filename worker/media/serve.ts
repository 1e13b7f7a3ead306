/**
 * Media files from the R2 bucket `MEDIA`: `/N.mp4` (video) and `/N.webp` (cover).
 *
 * GET / HEAD with RFC 9110 semantics: 200 full, 206 single range, 416 unsatisfiable,
 * malformed / multiple ranges → 200 full, ETag + If-None-Match / If-Modified-Since → 304,
 * If-Range, a real Content-Length (never chunked) and no compression (`no-transform`).
 *
 * R2 calls: one per request in the common cases (plain GET → get; GET with Range → one
 * ranged get whose result carries the size and validators; HEAD → head). A conditional GET
 * (If-None-Match / If-Modified-Since) uses head first so that a 304 never opens a body, and
 * then one get when the representation changed.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { contentRange, ifNoneMatchMatches, ifRangeAllows, notModifiedSince, parseRangeSpec, resolveRange, type RangeResult, type RangeSpec } from "./range";
import { MEDIA_UNAVAILABLE, notFound, rangeNotSatisfiable, textResponse, unavailable } from "./responses";

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

type Meta = Pick<R2Object, "size" | "httpEtag" | "uploaded">;

/** Headers shared by 200 / 206 / 304 / HEAD responses. */
function entityHeaders(meta: Meta, contentType: string): Headers {
  return new Headers({
    "Content-Type": contentType,
    ETag: meta.httpEtag,
    "Last-Modified": meta.uploaded.toUTCString(),
    "Cache-Control": MEDIA_CACHE_CONTROL,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  });
}

function notModified(meta: Meta, contentType: string): Response {
  const headers = entityHeaders(meta, contentType);
  headers.delete("Content-Type");
  return new Response(null, { status: 304, headers });
}

/** 200 / 206 response; `body` null for HEAD (or an empty object). */
function entityResponse(meta: Meta, contentType: string, range: RangeResult, body: ReadableStream | null): Response {
  const headers = entityHeaders(meta, contentType);
  if (range.kind === "partial") {
    headers.set("Content-Range", contentRange(range.start, range.end, meta.size));
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(meta.size));
  return new Response(body, { status: 200, headers });
}

/** Releases an R2 body we are not going to send. */
async function discard(obj: R2ObjectBody | null): Promise<void> {
  try {
    await obj?.body.cancel();
  } catch {
    // Nothing to release.
  }
}

/** R2 range for a spec (R2 clamps lengths past the end and suffixes longer than the object). */
function r2Range(spec: RangeSpec): R2Range {
  if (spec.type === "suffix") return { suffix: spec.length };
  return spec.last === undefined ? { offset: spec.first } : { offset: spec.first, length: spec.last - spec.first + 1 };
}

/** Does the range R2 reports for a ranged get cover exactly `start..end`? */
function rangeMatches(obj: R2ObjectBody, spec: RangeSpec, start: number, end: number): boolean {
  const r = obj.range as { offset?: number; length?: number; suffix?: number } | undefined;
  if (!r) return false;
  if (r.suffix !== undefined) return spec.type === "suffix" && r.suffix === spec.length;
  if (r.offset !== start) return false;
  return r.length === undefined ? end === obj.size - 1 : r.length === end - start + 1;
}

export async function serveMedia(c: Context<AppEnv>): Promise<Response> {
  const method = c.req.method;
  if (method !== "GET" && method !== "HEAD") {
    return textResponse(405, "Method Not Allowed", { Allow: "GET, HEAD" });
  }
  // The key is built only from the strict match on the raw (undecoded) path.
  const file = parseMediaPath(new URL(c.req.url).pathname);
  if (!file) return notFound();
  const { key, contentType } = file;
  const bucket = c.env.MEDIA;

  const rangeHeader = c.req.header("Range");
  const ifRange = c.req.header("If-Range");
  const ifNoneMatch = c.req.header("If-None-Match");
  const ifModifiedSince = c.req.header("If-Modified-Since");
  const spec = parseRangeSpec(rangeHeader);

  /** 304 check: If-None-Match wins; If-Modified-Since only without it (RFC 9110 §13.2.2). */
  const isNotModified = (meta: Meta) =>
    ifNoneMatch !== undefined ? ifNoneMatchMatches(ifNoneMatch, meta.httpEtag) : notModifiedSince(ifModifiedSince, meta.uploaded);

  /** Range to serve given the current validators (If-Range may cancel the Range). */
  const decideRange = (meta: Meta): RangeResult =>
    spec !== null && ifRangeAllows(ifRange, meta.httpEtag, meta.uploaded) ? resolveRange(spec, meta.size) : { kind: "full" };

  /** head → decision → at most one get with the exact range. */
  const viaHead = async (): Promise<Response> => {
    let meta: R2Object | null;
    try {
      meta = await bucket.head(key);
    } catch (err) {
      return unavailable(err, key);
    }
    if (!meta) return notFound();
    if (isNotModified(meta)) return notModified(meta, contentType);
    const range = decideRange(meta);
    if (range.kind === "unsatisfiable") return rangeNotSatisfiable(meta.size);
    if (method === "HEAD") return entityResponse(meta, contentType, range, null);
    if (meta.size === 0) return entityResponse(meta, contentType, range, null);
    let obj: R2ObjectBody | null;
    try {
      obj =
        range.kind === "partial"
          ? await bucket.get(key, {
              range: { offset: range.start, length: range.end - range.start + 1 },
            })
          : await bucket.get(key);
    } catch (err) {
      return unavailable(err, key);
    }
    if (!obj) return notFound();
    if (obj.httpEtag !== meta.httpEtag && range.kind === "partial") {
      // Replaced between head and get: the announced slice may no longer exist. Rare enough
      // to let the client retry rather than guess. (A full body is simply the new object.)
      await discard(obj);
      return textResponse(503, MEDIA_UNAVAILABLE, { "Retry-After": "1" });
    }
    return entityResponse(obj, contentType, range, obj.body);
  };

  if (method === "HEAD" || ifNoneMatch !== undefined || ifModifiedSince !== undefined) {
    return viaHead();
  }

  // Plain GET: one get of the whole object.
  if (spec === null) {
    let obj: R2ObjectBody | null;
    try {
      obj = await bucket.get(key);
    } catch (err) {
      return unavailable(err, key);
    }
    if (!obj) return notFound();
    return entityResponse(obj, contentType, { kind: "full" }, obj.body);
  }

  // `-0` can never be satisfied; R2 would reject it. Ask for the size only.
  if (spec.type === "suffix" && spec.length === 0) return viaHead();

  // GET with a Range: optimistic single ranged get. R2 rejects ranges starting at or past
  // the end (and every range on an empty object) — then fall back to head.
  let obj: R2ObjectBody | null;
  try {
    obj = await bucket.get(key, { range: r2Range(spec) });
  } catch {
    return viaHead();
  }
  if (!obj) return notFound();
  if (!ifRangeAllows(ifRange, obj.httpEtag, obj.uploaded)) {
    // Stale validator: the whole current representation.
    await discard(obj);
    let whole: R2ObjectBody | null;
    try {
      whole = await bucket.get(key);
    } catch (err) {
      return unavailable(err, key);
    }
    if (!whole) return notFound();
    return entityResponse(whole, contentType, { kind: "full" }, whole.body);
  }
  const range = resolveRange(spec, obj.size);
  if (range.kind === "unsatisfiable") {
    await discard(obj);
    return rangeNotSatisfiable(obj.size);
  }
  if (range.kind === "partial" && !rangeMatches(obj, spec, range.start, range.end)) {
    // R2 did not report the expected slice: fetch exactly what we announce.
    await discard(obj);
    return viaHead();
  }
  return entityResponse(obj, contentType, range, obj.body);
}
