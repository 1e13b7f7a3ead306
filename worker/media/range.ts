/**
 * Pure HTTP helpers for media responses (RFC 9110 §13, §14): Range parsing, entity-tag
 * comparison, If-None-Match / If-Modified-Since and If-Range evaluation. No bindings here.
 */

/** Outcome of a Range header for a representation of a known size. */
export type RangeResult =
  | { kind: "full" }
  | { kind: "partial"; start: number; end: number } // inclusive
  | { kind: "unsatisfiable" };

/**
 * A syntactically valid, single byte range, independent of the size:
 * `int` = `first-last` or `first-` (last undefined); `suffix` = `-length`.
 */
export type RangeSpec = { type: "int"; first: number; last?: number } | { type: "suffix"; length: number };

const FULL: RangeResult = { kind: "full" };
const UNSATISFIABLE: RangeResult = { kind: "unsatisfiable" };

/** token = 1*tchar (RFC 9110 §5.6.2). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const INT_RANGE = /^([0-9]+)-([0-9]*)$/;
const SUFFIX_RANGE = /^-([0-9]+)$/;
/** Leading/trailing OWS (SP / HTAB) — the only whitespace HTTP allows around values. */
const OWS_EDGES = /^[ \t]+|[ \t]+$/g;

function trimOws(s: string): string {
  return s.replace(OWS_EDGES, "");
}

/** Decimal digits → safe integer, or null when the value exceeds Number.MAX_SAFE_INTEGER. */
function toSafeInt(digits: string): number | null {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Parses the size-independent part of a Range header. Returns null when the header must be
 * ignored (absent, other unit, malformed, backwards `a-b` with b < a, numbers beyond
 * MAX_SAFE_INTEGER, or more than one range — multipart responses are not offered).
 * Empty list elements (`bytes=0-1,`) are ignored as the list rule of RFC 9110 §5.6.1 demands.
 */
export function parseRangeSpec(header: string | null | undefined): RangeSpec | null {
  if (header == null) return null;
  const value = trimOws(header);
  const eq = value.indexOf("=");
  if (eq <= 0) return null;
  const unit = value.slice(0, eq);
  if (!TOKEN.test(unit) || unit.toLowerCase() !== "bytes") return null;

  const specs = value
    .slice(eq + 1)
    .split(",")
    .map(trimOws)
    .filter((s) => s !== "");
  if (specs.length !== 1) return null;
  const spec = specs[0];

  const suffix = SUFFIX_RANGE.exec(spec);
  if (suffix) {
    const length = toSafeInt(suffix[1]);
    return length === null ? null : { type: "suffix", length };
  }
  const int = INT_RANGE.exec(spec);
  if (!int) return null;
  const first = toSafeInt(int[1]);
  if (first === null) return null;
  if (int[2] === "") return { type: "int", first };
  const last = toSafeInt(int[2]);
  if (last === null || last < first) return null;
  return { type: "int", first, last };
}

/** Applies a valid range spec to a representation of `size` bytes. */
export function resolveRange(spec: RangeSpec | null, size: number): RangeResult {
  if (spec === null) return FULL;
  if (spec.type === "suffix") {
    // A suffix longer than the representation selects all of it (RFC 9110 §14.1.3).
    if (spec.length === 0 || size === 0) return UNSATISFIABLE;
    return { kind: "partial", start: Math.max(0, size - spec.length), end: size - 1 };
  }
  if (spec.first >= size) return UNSATISFIABLE;
  const end = spec.last === undefined ? size - 1 : Math.min(spec.last, size - 1);
  return { kind: "partial", start: spec.first, end };
}

/** Range header + size → full / partial (inclusive bounds) / unsatisfiable. */
export function parseRange(header: string | null | undefined, size: number): RangeResult {
  return resolveRange(parseRangeSpec(header), size);
}

/** `Content-Range` value of a partial response. */
export function contentRange(start: number, end: number, size: number): string {
  return `bytes ${start}-${end}/${size}`;
}

// ---------------------------------------------------------------------------------------------
// Entity tags and conditional requests

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
