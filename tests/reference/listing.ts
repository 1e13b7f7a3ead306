/**
 * The in-memory reference of the D1 listings (worker/catalogue/listing.ts): the same facets,
 * filters, sorts and pages over an array of titles. Tests only: tests/worker/catalogue-queries.test.ts
 * holds the two side by side, and the unit tests pin the rules here.
 */
import { MAIN_CATEGORIES } from "../../shared/catalogue/categories";
import type { Video } from "../../shared/catalogue/types";
import { compareTitles } from "../../shared/collation";
import { MAX_FACET_OPTIONS, parseListingState, type ListingFacets, type ListingResult, type ListingSort, type RatingFilter } from "../../shared/listing";
import { PAGE_SIZE, pageCount, pageSlice, parsePage } from "../../shared/pagination";

/** Category match: `all` is everything; otherwise case-insensitive substring on any category. */
export function matchesCategory(video: Video, name: string): boolean {
  if (name === "all") return true;
  const needle = name.toLowerCase();
  return video.category.some((c) => c.toLowerCase().includes(needle));
}

/** Distinct years, newest first. */
export function distinctYears(videos: readonly Video[]): number[] {
  return [...new Set(videos.map((v) => v.year))].sort((a, b) => b - a);
}

/** Values by how many titles have them, most first (name order on ties). */
function byCount(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || compareTitles(a[0], b[0])).map(([v]) => v);
}

/** Whether a category is a 类型 option on the listing of `category` (not a main category, not the page's own). */
export function isGenreOption(name: string, category: string | null): boolean {
  return !(MAIN_CATEGORIES as readonly string[]).includes(name) && name !== category;
}

/** The facets of a listing's titles. */
export function listingFacets(videos: readonly Video[], category: string | null): ListingFacets {
  return {
    years: distinctYears(videos),
    genres: byCount(videos.flatMap((v) => v.category.filter((c) => isGenreOption(c, category)))).slice(0, MAX_FACET_OPTIONS),
    areas: byCount(videos.flatMap((v) => (v.area ? [v.area] : []))).slice(0, MAX_FACET_OPTIONS),
  };
}

export function filterVideos(videos: readonly Video[], year: number | null, rating: RatingFilter): Video[] {
  return videos.filter((v) => (year === null || v.year === year) && v.rating >= rating);
}

/** Latest first: year descending, then id descending. */
export function compareLatest(a: Video, b: Video): number {
  return b.year - a.year || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Real play totals by title id (title_hits; missing means none). */
export type Hits = ReadonlyMap<string, number>;

/** Sorted copy (stable: ties keep catalogue order). 最热: most plays, then latest. */
export function sortVideos(videos: readonly Video[], sort: ListingSort, hits: Hits = new Map()): Video[] {
  const copy = videos.slice();
  switch (sort) {
    case "latest":
      return copy.sort(compareLatest);
    case "hot":
      return copy.sort((a, b) => (hits.get(b.id) ?? 0) - (hits.get(a.id) ?? 0) || compareLatest(a, b));
    case "rating":
      return copy.sort((a, b) => b.rating - a.rating);
    case "title":
      return copy.sort((a, b) => compareTitles(a.title, b.title));
    case "duration":
      // Spec §9: duration sorts by string comparison, largest string first.
      return copy.sort((a, b) => (a.duration < b.duration ? 1 : a.duration > b.duration ? -1 : 0));
  }
}

/** Letters of titles by id (computed at import with pinyin; the in-memory reference is given them). */
export type Letters = ReadonlyMap<string, string>;

/**
 * Everything a listing page needs, from the videos of its category and the URL query.
 */
export function buildListing(
  source: readonly Video[],
  params: URLSearchParams,
  defaultSort: ListingSort,
  { category = null, hits, letters }: { category?: string | null; hits?: Hits; letters?: Letters } = {},
): ListingResult {
  const facets = listingFacets(source, category);
  const { rawPage, ...rest } = parseListingState(params, facets, defaultSort);
  const filtered = filterVideos(source, rest.year, rest.rating).filter(
    (v) =>
      (rest.genre === null || v.category.includes(rest.genre)) &&
      (rest.area === null || v.area === rest.area) &&
      (rest.letter === null || letters?.get(v.id) === rest.letter),
  );
  const matching = sortVideos(filtered, rest.sort, hits);
  const pages = pageCount(matching.length, PAGE_SIZE);
  const page = parsePage(rawPage, pages);
  return {
    state: { ...rest, page },
    facets,
    total: matching.length,
    pageCount: pages,
    ids: pageSlice(matching, page).map((v) => v.id),
  };
}
