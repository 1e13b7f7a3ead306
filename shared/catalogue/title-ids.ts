/**
 * Lists of title ids the worker answers for at once (GET /api/titles?ids=…): the most one
 * request may name, and how the browser splits a longer list (a library's favourites have no
 * cap) into requests the worker accepts.
 */

/** The most distinct title ids one GET /api/titles names; more is a 400 (duplicates count once). */
export const MAX_TITLE_IDS = 200;

/** The distinct ids, sorted (one cache entry per set), in pages of at most `max`. */
export function titleIdPages(ids: readonly string[], max = MAX_TITLE_IDS): string[][] {
  const sorted = [...new Set(ids)].sort();
  const pages: string[][] = [];
  for (let i = 0; i < sorted.length; i += max) pages.push(sorted.slice(i, i + max));
  return pages;
}
