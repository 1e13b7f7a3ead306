/**
 * Title ids: the one rule for what a title id looks like (the catalogue schema, the 弹幕 rooms,
 * the play counter, /api/titles and the stored library all ask here), the most ids one
 * GET /api/titles may name, and how the browser splits a longer list (a library's favourites
 * have no cap) into requests the worker accepts.
 */

/** A title id as the catalogue schema allows it: "video_" and 3–7 digits (video_001 …). Anything else is not a title. */
export const TITLE_ID_PATTERN = /^video_\d{3,7}$/;

/** Whether `id` is a well-formed title id (it may still name no title in the catalogue). */
export function isTitleId(id: unknown): id is string {
  return typeof id === "string" && TITLE_ID_PATTERN.test(id);
}

/** The most distinct title ids one GET /api/titles names; more is a 400 (duplicates count once). */
export const MAX_TITLE_IDS = 200;

/** The distinct ids, sorted (one cache entry per set), in pages of at most `max`. */
export function titleIdPages(ids: readonly string[], max = MAX_TITLE_IDS): string[][] {
  const sorted = [...new Set(ids)].sort();
  const pages: string[][] = [];
  for (let i = 0; i < sorted.length; i += max) pages.push(sorted.slice(i, i + max));
  return pages;
}
