/**
 * Text folding for search: the same rules for the catalogue (at build time and
 * when the index is built) and for the query, so that both sides compare equal.
 *
 * - full-width and compatibility forms become their plain form (NFKC: `ＷＧＬＸ` → `WGLX`),
 * - letters are lower-cased,
 * - punctuation, symbols and spaces are dropped (`开麦吧，邻居` → `开麦吧邻居`),
 * - optionally, each character goes through a traditional→simplified table.
 */

/** Longest query we look at; longer input is cut, never an error. */
export const MAX_QUERY_LENGTH = 100;

/** Most terms looked at in one query (more are ignored). */
export const MAX_TERMS = 8;

/** A character-level mapping (the traditional→simplified table in the worker, none in the browser). */
export type CharMap = (char: string) => string;

/** A folded text: its characters (one code point each) and where each one came from in the original. */
export interface FoldedText {
  /** The folded text as a string. */
  text: string;
  /** The folded characters, one code point each. */
  chars: string[];
  /** UTF-16 offset in the original text where each folded character starts. */
  starts: number[];
  /** UTF-16 offset in the original text where each folded character ends. */
  ends: number[];
}

const KEEP = /[\p{L}\p{N}]/u;

/**
 * Folds one code point of the original and hands each resulting search
 * character to `emit`. ASCII letters and digits and CJK unified ideographs (the
 * bulk of any title or description) take a fast path with the same result as
 * NFKC + lower-casing (those characters have no decomposition).
 */
function foldCodePoint(cp: string, map: CharMap | undefined, emit: (c: string) => void): void {
  if (cp.length === 1) {
    const code = cp.charCodeAt(0);
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return emit(cp);
    if (code >= 0x41 && code <= 0x5a) return emit(String.fromCharCode(code + 32));
    if (code >= 0x4e00 && code <= 0x9fff) return emit(map ? map(cp) : cp);
    if (code < 0x80) return; // ASCII space and punctuation
  }
  for (const c of cp.normalize("NFKC").toLowerCase()) {
    if (KEEP.test(c)) emit(map ? map(c) : c);
  }
}

/** Folds a text, keeping the origin of every folded character (for highlighting). */
export function foldText(text: string, map?: CharMap): FoldedText {
  const chars: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const cp of text) {
    foldCodePoint(cp, map, (c) => {
      chars.push(c);
      starts.push(offset);
      ends.push(offset + cp.length);
    });
    offset += cp.length;
  }
  return { text: chars.join(""), chars, starts, ends };
}

/** Folds a text to a plain string (no origins). */
export function fold(text: string, map?: CharMap): string {
  let out = "";
  for (const cp of text) foldCodePoint(cp, map, (c) => (out += c));
  return out;
}

/** Trims and cuts the raw query (in code points); never fails. */
export function normaliseQuery(raw: string | null): string {
  return [...(raw ?? "").trim()].slice(0, MAX_QUERY_LENGTH).join("").trim();
}

/**
 * The terms of a query: split on white space (any kind, full-width included),
 * each folded; empty terms (only punctuation) dropped, duplicates once.
 */
export function queryTerms(query: string, map?: CharMap): string[] {
  const terms: string[] = [];
  for (const part of query.normalize("NFKC").split(/\s+/u)) {
    const term = fold(part, map);
    if (term && !terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}
