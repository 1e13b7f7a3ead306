/**
 * Byte ranges (RFC 9110 §14): the Range header parsed, and resolved against a representation's
 * size. Pure; the conditions that may cancel a Range (If-Range) are in ./validators.ts.
 */
import { trimOws } from "./header-value";

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
