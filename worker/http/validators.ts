/**
 * Validators and conditional requests (RFC 9110 §8.8, §13): entity tags parsed and compared,
 * HTTP dates, If-None-Match / If-Modified-Since (→ 304) and If-Range (may cancel a Range).
 * Pure; answers built from these decisions are in ./representation.ts.
 */
import { trimOws } from "./header-value";

export interface EntityTag {
  weak: boolean;
  /** The opaque-tag including its double quotes, e.g. `"abc"`. */
  opaque: string;
}

const ETAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

/** Parses one entity-tag (`"x"` or `W/"x"`), or null when malformed. */
export function parseEntityTag(value: string): EntityTag | null {
  const m = ETAG.exec(trimOws(value));
  return m ? { weak: m[1] !== undefined, opaque: m[2] } : null;
}

/**
 * Parses an If-None-Match / If-Match value: `"*"` or a list of entity-tags. Entity-tags may
 * contain commas, so the list is scanned tag by tag. Returns null when malformed.
 */
export function parseEntityTagList(header: string): "*" | EntityTag[] | null {
  const value = trimOws(header);
  if (value === "*") return "*";
  const tags: EntityTag[] = [];
  let i = 0;
  const n = value.length;
  const skip = (chars: string) => {
    while (i < n && chars.includes(value[i])) i++;
  };
  while (i < n) {
    skip(" \t,");
    if (i >= n) break;
    let weak = false;
    if (value.startsWith("W/", i)) {
      weak = true;
      i += 2;
    }
    if (value[i] !== '"') return null;
    const close = value.indexOf('"', i + 1);
    if (close < 0) return null;
    const tag = parseEntityTag(value.slice(i, close + 1));
    if (!tag) return null;
    tags.push({ weak, opaque: tag.opaque });
    i = close + 1;
    skip(" \t");
    if (i < n && value[i] !== ",") return null;
  }
  return tags.length > 0 ? tags : null;
}

/** Weak comparison (RFC 9110 §8.8.3.2): opaque-tags equal, weakness ignored. */
export function weakMatch(a: EntityTag, b: EntityTag): boolean {
  return a.opaque === b.opaque;
}

/** Strong comparison: both strong and opaque-tags equal. */
export function strongMatch(a: EntityTag, b: EntityTag): boolean {
  return !a.weak && !b.weak && a.opaque === b.opaque;
}

/**
 * If-None-Match evaluation for an existing representation with entity-tag `etag`:
 * true when the condition is FALSE (i.e. a GET/HEAD should get 304 Not Modified).
 * A malformed header never matches.
 */
export function ifNoneMatchMatches(header: string | null | undefined, etag: string): boolean {
  if (header == null) return false;
  const list = parseEntityTagList(header);
  if (list === null) return false;
  if (list === "*") return true;
  const current = parseEntityTag(etag);
  if (!current) return false;
  return list.some((t) => weakMatch(t, current));
}

/** Parses an HTTP-date; returns epoch seconds or null. */
export function parseHttpDate(value: string): number | null {
  const v = trimOws(value);
  // IMF-fixdate, RFC 850 and asctime all contain a weekday name and a time of day.
  if (!/^[A-Za-z]{3,9},? /.test(v) || !/\d{2}:\d{2}:\d{2}/.test(v)) return null;
  const ms = Date.parse(/GMT$/.test(v) ? v : `${v} GMT`);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/**
 * If-Modified-Since evaluation (only meaningful without If-None-Match): true when the
 * representation has not been modified since the given date, i.e. 304.
 */
export function notModifiedSince(header: string | null | undefined, lastModified: Date): boolean {
  if (header == null) return false;
  const since = parseHttpDate(header);
  if (since === null) return false;
  return Math.floor(lastModified.getTime() / 1000) <= since;
}

/**
 * If-Range evaluation (RFC 9110 §13.1.5): true when the Range header may be honoured.
 * Absent → true. An entity-tag must match the current one strongly (weak tags never match);
 * an HTTP-date must equal Last-Modified exactly (to the second); anything else → false,
 * which means the Range header is ignored and the whole representation is sent.
 */
export function ifRangeAllows(header: string | null | undefined, etag: string, lastModified: Date): boolean {
  if (header == null) return true;
  const value = trimOws(header);
  if (value.startsWith('"') || value.startsWith("W/")) {
    const tag = parseEntityTag(value);
    const current = parseEntityTag(etag);
    return tag !== null && current !== null && strongMatch(tag, current);
  }
  const date = parseHttpDate(value);
  return date !== null && date === Math.floor(lastModified.getTime() / 1000);
}
