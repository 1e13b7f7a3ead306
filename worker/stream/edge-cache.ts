/**
 * The Workers Cache API (`caches.default`) in front of R2 for media files: a file is read from
 * R2 once per edge location and then served from that location's cache to every viewer.
 *
 * - Key: the request URL without query string or fragment, method GET (HEAD, Range and
 *   conditional requests share the entry of the plain GET; queries never make new keys).
 * - Stored: only the whole 200 representation with Content-Length, ETag and Last-Modified,
 *   kept as long as its own Cache-Control allows (s-maxage / max-age). Errors (404, 503, 416…)
 *   are never stored.
 * - Answered: every request is answered from a whole representation by representation.ts
 *   (304 / 206 / 416 / 200 with the rules of worker/media/range.ts). The cache's own Range and
 *   conditional handling is not relied on, so answers are the same on a hit and on a miss, in
 *   production and locally (miniflare's cache answers several ranges with multipart bodies;
 *   range.ts sends the whole file then). The one use of it: for a copy over
 *   `rangedReadAbove` bytes, the range range.ts decided is read from the cache by range, and
 *   that answer is kept only if it is exactly that range of the same representation.
 * - Misses: small files (stream segments, playlists) are read once and the body is split
 *   between the client and the cache; sources with `answerMiss` (progressive videos) answer
 *   from their own read and fill the cache with a second, background read.
 * - `X-Cache: HIT` when the answer came from the edge cache, `MISS` when it came from R2 — a
 *   debugging aid (and what the tests read); it is not stored.
 */
import type { AppContext } from "../app-env";
import { configOf } from "../config";
import { contentRange } from "../media/range";
import {
  answerFromRepresentation,
  decideRange,
  discardBody,
  isNotModified,
  partialResponse,
  representationMeta,
  type RepresentationMeta,
} from "./representation";
import { withLength } from "./slice";

/** The default edge cache, or null where the runtime has none. */
export function defaultEdgeCache(): Cache | null {
  return typeof caches !== "undefined" && "default" in caches ? (caches as unknown as { default: Cache }).default : null;
}

/** The edge cache for media and stream files: `caches.default`, or null when `MEDIA_CACHE` is "off". */
export function mediaEdgeCache(env: Env): Cache | null {
  return configOf(env).MEDIA_CACHE === "off" ? null : defaultEdgeCache();
}

/** Cache key of a request: its URL without query or fragment, as a plain GET. */
export function edgeCacheKey(url: string): Request {
  const keyUrl = new URL(url);
  keyUrl.search = "";
  keyUrl.hash = "";
  return new Request(keyUrl.toString(), { method: "GET" });
}

export interface EdgeCacheSource {
  /**
   * Reads the whole representation from the origin (R2): a 200 with Content-Length, ETag and
   * Last-Modified, which is stored and answered from; any other response (404, 503…) is sent
   * as it is and never stored.
   */
  loadWhole: () => Promise<Response>;
  /**
   * Optional, for large files. Answers every miss (and every request when there is no cache)
   * straight from the origin, while the whole representation is loaded into the cache in the
   * background by a second read. Without it a miss is answered from `loadWhole`, its body
   * split between the client and the cache: right for small files (one read), but for a large
   * one a slow client would leave up to the whole file buffered in the isolate's memory, and a
   * seek would wait for every byte before its range.
   */
  answerMiss?: () => Promise<Response>;
}

export interface EdgeCacheOptions {
  /** The cache to use. Default: `caches.default`; null serves every request from the origin and stores nothing. */
  cache?: Cache | null;
  /**
   * Cached copies larger than this (bytes) answer a byte range with a ranged cache read
   * (the exact, already validated `bytes=start-end`) instead of reading the copy from its
   * start and dropping the bytes before the range. Default: 2 MiB (every stream segment is
   * sliced in the worker; a seek into a large MP4 reads only its range).
   */
  rangedReadAbove?: number;
}

/** Default of {@link EdgeCacheOptions.rangedReadAbove}. */
export const RANGED_READ_ABOVE = 2 * 1024 * 1024;

/** Statuses after which a background fill is worth trying (the object exists). */
const FOUND = new Set([200, 206, 304, 416]);

function marked(response: Response, state: "HIT" | "MISS"): Response {
  const res = new Response(response.body, response);
  res.headers.set("X-Cache", state);
  return res;
}

/** Runs `work` after the answer is sent (c.executionCtx.waitUntil); errors are logged. */
function inBackground(c: AppContext, work: Promise<unknown>): void {
  const logged = work.catch((error: unknown) => console.error("edge cache: background work failed", error));
  try {
    c.executionCtx.waitUntil(logged);
  } catch {
    // No execution context (a bare app.fetch in a test): the promise still runs.
  }
}

/**
 * Background fills under way in this isolate, by cache-key URL: while one runs, further misses
 * on the same file start none (a popular new video would otherwise be read whole once per
 * concurrent viewer). Per isolate only; other isolates may still fill the same file.
 */
const fillsInFlight = new Set<string>();

function fillOnce(c: AppContext, cache: Cache, key: Request, source: EdgeCacheSource): void {
  if (fillsInFlight.has(key.url)) return;
  fillsInFlight.add(key.url);
  inBackground(
    c,
    fill(cache, key, source).finally(() => fillsInFlight.delete(key.url)),
  );
}

/** Loads the whole representation and stores it when it is a usable 200 (background fills). */
async function fill(cache: Cache, key: Request, source: EdgeCacheSource): Promise<void> {
  const whole = await source.loadWhole();
  const meta = representationMeta(whole);
  if (!meta) {
    await discardBody(whole.body);
    return;
  }
  const body = whole.body && meta.size > 0 ? withLength(whole.body, meta.size) : null;
  if (!body) await discardBody(whole.body);
  await cache.put(key, new Response(body, whole));
}

/**
 * Answers `c`'s GET / HEAD from the edge cache, or from `source` on a miss (filling the cache).
 *
 * @example
 * return serveThroughEdgeCache(c, { loadWhole: () => loadWholeObject(c.env.MEDIA, key, type) });
 */
export async function serveThroughEdgeCache(c: AppContext, source: EdgeCacheSource, options: EdgeCacheOptions = {}): Promise<Response> {
  const request = c.req.raw;
  const cache = options.cache === undefined ? defaultEdgeCache() : options.cache;
  if (!cache) return source.answerMiss ? source.answerMiss() : answerWhole(request, await source.loadWhole());
  const key = edgeCacheKey(request.url);

  let hit: Response | undefined;
  try {
    hit = await cache.match(key);
  } catch (error) {
    console.error("edge cache: match failed", error);
  }
  if (hit) {
    const meta = representationMeta(hit);
    if (meta) {
      const ranged = meta.size > (options.rangedReadAbove ?? RANGED_READ_ABOVE) ? await rangedHit(cache, key, request, hit, meta) : null;
      return marked(ranged ?? answerFromRepresentation(request, hit, meta), "HIT");
    }
    // Not a copy this module stored (no size or validators): drop it and read the origin.
    await discardBody(hit.body);
    inBackground(c, cache.delete(key));
  }

  if (source.answerMiss) {
    const answer = await source.answerMiss();
    if (FOUND.has(answer.status)) fillOnce(c, cache, key, source);
    return marked(answer, "MISS");
  }

  const whole = await source.loadWhole();
  const meta = representationMeta(whole);
  if (!meta) return marked(whole, "MISS");
  let forClient: ReadableStream<Uint8Array> | null = null;
  let forCache: ReadableStream<Uint8Array> | null = null;
  if (whole.body && meta.size > 0) {
    const body: ReadableStream<Uint8Array> = whole.body;
    [forClient, forCache] = body.tee();
    forCache = withLength(forCache, meta.size);
  } else {
    await discardBody(whole.body);
  }
  inBackground(c, cache.put(key, new Response(forCache, whole)));
  return marked(answerFromRepresentation(request, new Response(forClient, whole), meta), "MISS");
}

/**
 * The 206 of a GET for a byte range of a large cached copy, read from the cache by range: the
 * cache is asked for the exact range range.ts chose, and its answer is used only when it is
 * that range of the same representation; otherwise null (the caller slices `hit` itself).
 * Consumes `hit.body` only when it returns a response.
 */
async function rangedHit(cache: Cache, key: Request, request: Request, hit: Response, meta: RepresentationMeta): Promise<Response | null> {
  if (request.method !== "GET" || isNotModified(request, meta)) return null;
  const range = decideRange(request, meta);
  // From byte 0, slicing reads no byte it does not send: only later starts gain from a ranged read.
  if (range.kind !== "partial" || range.start === 0) return null;
  let part: Response | undefined;
  try {
    part = await cache.match(new Request(key.url, { headers: { Range: `bytes=${range.start}-${range.end}` } }));
  } catch (error) {
    console.error("edge cache: ranged match failed", error);
    return null;
  }
  const exact =
    part?.status === 206 &&
    part.body !== null &&
    part.headers.get("Content-Range") === contentRange(range.start, range.end, meta.size) &&
    part.headers.get("ETag") === meta.etag;
  if (!part || !exact || !part.body) {
    await discardBody(part?.body ?? null);
    return null;
  }
  await discardBody(hit.body);
  return partialResponse(hit, meta, range, withLength(part.body, range.end - range.start + 1));
}

/** Without a cache: answer from the whole representation, or pass the origin's error on. */
function answerWhole(request: Request, whole: Response): Response {
  const meta = representationMeta(whole);
  return meta ? answerFromRepresentation(request, whole, meta) : whole;
}
