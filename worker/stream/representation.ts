/**
 * Answers a GET / HEAD from a whole representation (a full 200 response: from the edge cache
 * or just read from R2) with the RFC 9110 rules of worker/media/range.ts: If-None-Match (or,
 * without it, If-Modified-Since) → 304; If-Range; one byte range → 206, unsatisfiable → 416,
 * malformed or several ranges → 200 whole. The same rules as worker/media/serve.ts, which
 * answers straight from R2.
 */
import { contentRange, ifNoneMatchMatches, ifRangeAllows, notModifiedSince, parseRangeSpec, resolveRange, type RangeResult } from "../media/range";
import { rangeNotSatisfiable } from "../media/responses";
import { sliceBody, withLength } from "./slice";

/** What the answer needs to know about the representation, read from its headers. */
export interface RepresentationMeta {
  size: number;
  etag: string;
  lastModified: Date;
}

/** Entity headers copied from the whole representation onto 200 / 206 / 304 answers. */
const ENTITY_HEADERS = ["Content-Type", "Cache-Control", "ETag", "Last-Modified", "Accept-Ranges", "X-Content-Type-Options"] as const;

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

function entityHeaders(full: Response): Headers {
  const headers = new Headers();
  for (const name of ENTITY_HEADERS) {
    const value = full.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
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
export async function discardBody(body: ReadableStream | null): Promise<void> {
  try {
    await body?.cancel();
  } catch {
    // Nothing to release.
  }
}

/**
 * The answer to `request` (GET or HEAD) from `full`, whose metadata is `meta`. Consumes
 * `full.body`: sends it (whole or a slice) or cancels it.
 */
export function answerFromRepresentation(request: Request, full: Response, meta: RepresentationMeta): Response {
  const headers = entityHeaders(full);
  if (isNotModified(request, meta)) {
    void discardBody(full.body);
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  const range = decideRange(request, meta);
  if (range.kind === "unsatisfiable") {
    void discardBody(full.body);
    return rangeNotSatisfiable(meta.size);
  }
  const head = request.method === "HEAD";
  if (range.kind === "partial") {
    let body: ReadableStream | null = null;
    if (head || !full.body) void discardBody(full.body);
    // A range covering every byte (`bytes=0-`) is the whole body: no slicing needed.
    else if (range.start === 0 && range.end === meta.size - 1) body = withLength(full.body, meta.size);
    else body = sliceBody(full.body, range.start, range.end);
    return partialResponse(full, meta, range, body);
  }
  headers.set("Content-Length", String(meta.size));
  let body: ReadableStream | null = null;
  if (head || !full.body || meta.size === 0) void discardBody(full.body);
  else body = withLength(full.body, meta.size);
  return new Response(body, { status: 200, headers });
}

/**
 * 206 for `range` of the representation `full` (its entity headers), with `body` holding
 * exactly those bytes (or null for HEAD).
 */
export function partialResponse(full: Response, meta: RepresentationMeta, range: { start: number; end: number }, body: ReadableStream | null): Response {
  const headers = entityHeaders(full);
  headers.set("Content-Range", contentRange(range.start, range.end, meta.size));
  headers.set("Content-Length", String(range.end - range.start + 1));
  return new Response(body, { status: 206, headers });
}
