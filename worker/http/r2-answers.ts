/**
 * Answers read straight from R2 (no cache in front): a GET / HEAD for one object, answered
 * with the rules of ./representation.ts, and the whole object as a full 200, the form the edge
 * cache stores (./cached-files.ts).
 *
 * R2 calls of `answerFromR2`: one per request in the common cases (plain GET → get; GET with
 * Range → one ranged get whose result carries the size and validators; HEAD → head). A
 * conditional GET (If-None-Match / If-Modified-Since) uses head first so that a 304 never opens
 * a body, and then one get when the representation changed.
 */
import { notFound, RETRY_AFTER_SECONDS, MEDIA_UNAVAILABLE, textResponse, unavailable } from "./plain-answers";
import { parseRangeSpec, resolveRange, type RangeSpec } from "./range";
import {
  decideRange,
  discardBody,
  entityHeaders,
  isNotModified,
  metaOfObject,
  notModified,
  rangeAnswer,
  rangeNotSatisfiable,
  type RouteHeaders,
} from "./representation";
import { ifRangeAllows } from "./validators";

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

/** The whole object `obj` as a 200 (`body` null for HEAD or an empty object). */
function wholeAnswer(obj: R2Object, route: RouteHeaders, body: ReadableStream | null): Response {
  return rangeAnswer(entityHeaders(route, metaOfObject(obj)), { kind: "full" }, obj.size, body);
}

/**
 * The answer to `request` (GET or HEAD) for the R2 object `key`: 200 / 206 / 304 / 416 with
 * `route`'s headers, 404 when there is no such object, 503 (logged) when R2 fails.
 *
 * @example
 * return answerFromR2(c.req.raw, c.env.MEDIA, "12.mp4", { contentType: "video/mp4", cacheControl });
 */
export async function answerFromR2(request: Request, bucket: R2Bucket, key: string, route: RouteHeaders): Promise<Response> {
  const method = request.method;
  const ifRange = request.headers.get("If-Range");
  const spec = parseRangeSpec(request.headers.get("Range"));

  /** head → decision → at most one get with the exact range. */
  const viaHead = async (): Promise<Response> => {
    let head: R2Object | null;
    try {
      head = await bucket.head(key);
    } catch (err) {
      return unavailable(err, key);
    }
    if (!head) return notFound();
    const meta = metaOfObject(head);
    if (isNotModified(request, meta)) return notModified(entityHeaders(route, meta));
    const range = decideRange(request, meta);
    if (range.kind === "unsatisfiable") return rangeNotSatisfiable(meta.size);
    if (method === "HEAD" || meta.size === 0) return rangeAnswer(entityHeaders(route, meta), range, meta.size, null);
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
    if (obj.httpEtag !== meta.etag && range.kind === "partial") {
      // Replaced between head and get: the announced slice may no longer exist. Rare enough
      // to let the client retry rather than guess. (A full body is simply the new object.)
      await discardBody(obj.body);
      return textResponse(503, MEDIA_UNAVAILABLE, { "Retry-After": "1" });
    }
    return rangeAnswer(entityHeaders(route, metaOfObject(obj)), range, obj.size, obj.body);
  };

  if (method === "HEAD" || request.headers.has("If-None-Match") || request.headers.has("If-Modified-Since")) {
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
    return wholeAnswer(obj, route, obj.body);
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
    await discardBody(obj.body);
    let whole: R2ObjectBody | null;
    try {
      whole = await bucket.get(key);
    } catch (err) {
      return unavailable(err, key);
    }
    if (!whole) return notFound();
    return wholeAnswer(whole, route, whole.body);
  }
  const range = resolveRange(spec, obj.size);
  if (range.kind === "unsatisfiable") {
    await discardBody(obj.body);
    return rangeNotSatisfiable(obj.size);
  }
  if (range.kind === "partial" && !rangeMatches(obj, spec, range.start, range.end)) {
    // R2 did not report the expected slice: fetch exactly what we announce.
    await discardBody(obj.body);
    return viaHead();
  }
  return rangeAnswer(entityHeaders(route, metaOfObject(obj)), range, obj.size, obj.body);
}

export interface WholeObjectOptions extends RouteHeaders {
  /** Retry-After of the 503 sent when R2 fails. Default: 30 (seconds). */
  retryAfterSeconds?: number;
}

/**
 * One R2 get of the whole object `key` as a full 200 (Content-Length and the entity headers of
 * ./representation.ts), 404 (no-store) when there is no such object, 503 (no-store,
 * Retry-After, logged) when R2 throws.
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
  return wholeAnswer(obj, options, obj.size > 0 ? obj.body : null);
}
