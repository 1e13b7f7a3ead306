import { MAIN_CATEGORIES } from "./catalogue/categories";
import type { Video } from "./catalogue/types";
import { PAGE_SIZE, pageCount, pageSlice, parsePage } from "./pagination";
import { compareTitles } from "./collation";

export type ListingSort = "latest" | "hot" | "rating" | "title" | "duration";
export type RatingFilter = 0 | 7 | 8 | 9;
export type ViewMode = "grid" | "list";

/** The sort select: the spec's four sorts (§9) and 最热 (real plays). */
export const LISTING_SORTS: ReadonlyArray<{ value: ListingSort; label: string }> = [
  { value: "latest", label: "最新上线" },
  { value: "hot", label: "最热" },
  { value: "rating", label: "评分最高" },
  { value: "title", label: "按标题" },
  { value: "duration", label: "按时长" },
];

/** The quick sorts of the facet bar: 最新 / 最热 / 评分. */
export const QUICK_SORTS: ReadonlyArray<{ value: ListingSort; label: string }> = [
  { value: "latest", label: "最新" },
  { value: "hot", label: "最热" },
  { value: "rating", label: "评分" },
];

export const RATING_FILTERS: ReadonlyArray<{ value: RatingFilter; label: string }> = [
  { value: 0, label: "全部评分" },
  { value: 9, label: "9分以上" },
  { value: 8, label: "8分以上" },
  { value: 7, label: "7分以上" },
];

/** The 字母 facet: first pinyin letter of the title, "#" for anything else. */
export const LETTERS: readonly string[] = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ", "#"];

/** What a listing shows: everything in the URL query except the path's category. */
export interface ListingState {
  year: number | null;
  rating: RatingFilter;
  /** 类型: one category (genre) the titles must carry exactly. */
  genre: string | null;
  /** 地区 */
  area: string | null;
  /** 字母: A–Z or "#". */
  letter: string | null;
  sort: ListingSort;
  page: number;
  view: ViewMode;
}

/** The values a listing's facets offer (those present among the titles of its category). */
export interface ListingFacets {
  /** Distinct years, newest first. */
  years: number[];
  /** 类型: categories other than the main four and the page's own, most titles first. */
  genres: string[];
  /** 地区, most titles first. */
  areas: string[];
}

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

/** Most options one facet row offers. */
export const MAX_FACET_OPTIONS = 30;

/** Whether a category is a 类型 option on the listing of `category` (not a main category, not the page's own). */
export function isGenreOption(name: string, category: string | null): boolean {
  return !(MAIN_CATEGORIES as readonly string[]).includes(name) && name !== category;
}

/** The facets of a listing's titles (the reference for worker/catalogue/listing.ts). */
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

export function isListingSort(value: string | null): value is ListingSort {
  return LISTING_SORTS.some((s) => s.value === value);
}

/**
 * The listing state from a URL query. Invalid values fall back to the
 * defaults: an unknown year, rating, genre, area or letter means "all", a bad page means 1.
 */
export function parseListingState(
  params: URLSearchParams,
  facets: ListingFacets,
  defaultSort: ListingSort,
): Omit<ListingState, "page"> & { rawPage: string | null } {
  const yearRaw = params.get("year");
  const year = yearRaw !== null && /^\d{4}$/.test(yearRaw) && facets.years.includes(Number(yearRaw)) ? Number(yearRaw) : null;
  const ratingRaw = params.get("rating");
  const rating = (["7", "8", "9"].includes(ratingRaw ?? "") ? Number(ratingRaw) : 0) as RatingFilter;
  const genreRaw = params.get("genre");
  const genre = genreRaw !== null && facets.genres.includes(genreRaw) ? genreRaw : null;
  const areaRaw = params.get("area");
  const area = areaRaw !== null && facets.areas.includes(areaRaw) ? areaRaw : null;
  const letterRaw = params.get("letter")?.toUpperCase() ?? null;
  const letter = letterRaw !== null && LETTERS.includes(letterRaw) ? letterRaw : null;
  const sortRaw = params.get("sort");
  const sort = isListingSort(sortRaw) ? sortRaw : defaultSort;
  const view: ViewMode = params.get("view") === "list" ? "list" : "grid";
  return { year, rating, genre, area, letter, sort, view, rawPage: params.get("page") };
}

export interface ListingResult {
  state: ListingState;
  facets: ListingFacets;
  total: number;
  pageCount: number;
  /** Ids of the videos on this page. */
  ids: string[];
}

/** Letters of titles by id (computed at import with pinyin; the in-memory reference is given them). */
export type Letters = ReadonlyMap<string, string>;

/**
 * Everything a listing page needs, from the videos of its category and the URL query: the
 * in-memory reference of the D1 queries (worker/catalogue/listing.ts), used by the tests.
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

/**
 * The query string of a listing state, leaving defaults out so that URLs stay
 * short and canonical. Changing anything but the page resets the page to 1.
 */
export function listingQuery(state: ListingState, defaultSort: ListingSort, change: Partial<ListingState> = {}): string {
  const next: ListingState = { ...state, ...change };
  if (!("page" in change)) next.page = 1;
  const params = new URLSearchParams();
  if (next.genre !== null) params.set("genre", next.genre);
  if (next.area !== null) params.set("area", next.area);
  if (next.year !== null) params.set("year", String(next.year));
  if (next.letter !== null) params.set("letter", next.letter);
  if (next.rating !== 0) params.set("rating", String(next.rating));
  if (next.sort !== defaultSort) params.set("sort", next.sort);
  if (next.view !== "grid") params.set("view", next.view);
  if (next.page > 1) params.set("page", String(next.page));
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}
