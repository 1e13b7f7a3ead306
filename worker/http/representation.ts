/**
 * Answers about one representation (a file: an R2 object, or the whole copy of it in the edge
 * cache), with the RFC 9110 rules of ./validators.ts and ./range.ts: If-None-Match (or, without
 * it, If-Modified-Since) → 304; If-Range; one byte range → 206, unsatisfiable → 416, malformed
 * or several ranges → 200 whole. Every 200 / 206 / 304 carries the same entity headers, and a
 * real Content-Length (never chunked).
 *
 * Used by the answers read straight from R2 (./r2-answers.ts) and by those from the edge cache
 * (./cached-files.ts), so a file gets the same answer either way.
 */
import { sliceBody, withLength } from "./body-slice";
import { contentRange, parseRangeSpec, resolveRange, type RangeResult } from "./range";
import { ifNoneMatchMatches, ifRangeAllows, notModifiedSince } from "./validators";

/** What an answer needs to know about the representation: its size and validators. */
export interface RepresentationMeta {
  size: number;
  etag: string;
  lastModified: Date;
}

/** How a route sends its files (the same for every file of one kind). */
export interface RouteHeaders {
  contentType: string;
  cacheControl: string;
}

/** Size and validators of an R2 object. */
export function metaOfObject(obj: Pick<R2Object, "size" | "httpEtag" | "uploaded">): RepresentationMeta {
  return { size: obj.size, etag: obj.httpEtag, lastModified: obj.uploaded };
}

/**
 * The entity headers of a file's 200 / 206 / 304 / HEAD answers: the route's Content-Type and
 * Cache-Control (never the object's stored metadata), the validators, Accept-Ranges, nosniff.
 */
export function entityHeaders(route: RouteHeaders, meta: RepresentationMeta): Headers {
  return new Headers({
    "Content-Type": route.contentType,
    ETag: meta.etag,
    "Last-Modified": meta.lastModified.toUTCString(),
    "Cache-Control": route.cacheControl,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  });
}

/** The entity headers, as copied from a whole representation onto the answers made from it. */
const ENTITY_HEADERS = ["Content-Type", "Cache-Control", "ETag", "Last-Modified", "Accept-Ranges", "X-Content-Type-Options"] as const;

/** The entity headers of the whole representation `full`. */
function entityHeadersOf(full: Response): Headers {
  const headers = new Headers();
  for (const name of ENTITY_HEADERS) {
    const value = full.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

/** Size and validators of a full 200 response, or null when it lacks them (not a usable copy). */
export function representationMeta(full: Response): RepresentationMeta | null {
  const length = full.headers.get("Content-Length");
  const etag = full.headers.get("ETag");
  const modified = full.headers.get("Last-Modified");
  if (full.status !== 200 || length === null || !/^[0-9]+$/.test(length) || !etag || !modified) return null;
  const size = Number(length);
  const lastModified = new Date(modified);
  if (!Number.isSafeInteger(size) || Number.isNaN(lastModified.getTime())) return null;
  return { size, etag, lastModified };
}

/** The range to serve: If-Range may cancel the Range header (then the whole representation). */
export function decideRange(request: Request, meta: RepresentationMeta): RangeResult {
  const spec = parseRangeSpec(request.headers.get("Range"));
  return spec !== null && ifRangeAllows(request.headers.get("If-Range"), meta.etag, meta.lastModified) ? resolveRange(spec, meta.size) : { kind: "full" };
}

/** 304 check: If-None-Match wins; If-Modified-Since only without it (RFC 9110 §13.2.2). */
export function isNotModified(request: Request, meta: RepresentationMeta): boolean {
  const ifNoneMatch = request.headers.get("If-None-Match");
  return ifNoneMatch !== null ? ifNoneMatchMatches(ifNoneMatch, meta.etag) : notModifiedSince(request.headers.get("If-Modified-Since"), meta.lastModified);
}

/** Releases a body that is not going to be sent. */
export async function discardBody(body: ReadableStream | null | undefined): Promise<void> {
  try {
    await body?.cancel();
  } catch {
    // Nothing to release.
  }
}

/** 304 with the entity headers but Content-Type. */
export function notModified(headers: Headers): Response {
  headers.delete("Content-Type");
  return new Response(null, { status: 304, headers });
}

/** 416 for a representation of `size` bytes. */
export function rangeNotSatisfiable(size: number): Response {
  return new Response(null, {
    status: 416,
    headers: {
      "Content-Range": `bytes */${size}`,
      "Content-Length": "0",
      "Accept-Ranges": "bytes",
      "Cache-Control": "no-store",
    },
  });
}

/** 206 for `range` of a representation of `size` bytes; `body` holds exactly those bytes (null for HEAD). */
export function partialAnswer(headers: Headers, range: { start: number; end: number }, size: number, body: ReadableStream | null): Response {
  headers.set("Content-Range", contentRange(range.start, range.end, size));
  headers.set("Content-Length", String(range.end - range.start + 1));
  return new Response(body, { status: 206, headers });
}

/** 200 (the whole representation) or 206 (`range`); `body` holds exactly those bytes (null for HEAD). */
export function rangeAnswer(headers: Headers, range: Exclude<RangeResult, { kind: "unsatisfiable" }>, size: number, body: ReadableStream | null): Response {
  if (range.kind === "partial") return partialAnswer(headers, range, size, body);
  headers.set("Content-Length", String(size));
  return new Response(body, { status: 200, headers });
}

/**
 * The answer to `request` (GET or HEAD) from `full`, the whole representation, whose metadata
 * is `meta`. Consumes `full.body`: sends it (whole or a slice) or cancels it.
 */
export function answerFromRepresentation(request: Request, full: Response, meta: RepresentationMeta): Response {
  const headers = entityHeadersOf(full);
  if (isNotModified(request, meta)) {
    void discardBody(full.body);
    return notModified(headers);
  }
  const range = decideRange(request, meta);
  if (range.kind === "unsatisfiable") {
    void discardBody(full.body);
    return rangeNotSatisfiable(meta.size);
  }
  const head = request.method === "HEAD";
  let body: ReadableStream | null = null;
  if (range.kind === "partial") {
    if (head || !full.body) void discardBody(full.body);
    // A range covering every byte (`bytes=0-`) is the whole body: no slicing needed.
    else if (range.start === 0 && range.end === meta.size - 1) body = withLength(full.body, meta.size);
    else body = sliceBody(full.body, range.start, range.end);
  } else if (head || !full.body || meta.size === 0) void discardBody(full.body);
  else body = withLength(full.body, meta.size);
  return rangeAnswer(headers, range, meta.size, body);
}

/**
 * 206 for `range` of the whole representation `full` (its entity headers), with `body` holding
 * exactly those bytes. Does not consume `full.body`.
 */
export function partialFromRepresentation(
  full: Response,
  meta: RepresentationMeta,
  range: { start: number; end: number },
  body: ReadableStream | null,
): Response {
  return partialAnswer(entityHeadersOf(full), range, meta.size, body);
}
