import type { Video } from "./catalogue/types";
import { PAGE_SIZE, pageCount, pageSlice, parsePage } from "./pagination";
import { compareTitles } from "./collation";

export type ListingSort = "latest" | "rating" | "title" | "duration";
export type RatingFilter = 0 | 7 | 8 | 9;
export type ViewMode = "grid" | "list";

export const LISTING_SORTS: ReadonlyArray<{ value: ListingSort; label: string }> = [
  { value: "latest", label: "最新上线" },
  { value: "rating", label: "评分最高" },
  { value: "title", label: "按标题" },
  { value: "duration", label: "按时长" },
];

export const RATING_FILTERS: ReadonlyArray<{ value: RatingFilter; label: string }> = [
  { value: 0, label: "全部评分" },
  { value: 9, label: "9分以上" },
  { value: 8, label: "8分以上" },
  { value: 7, label: "7分以上" },
];

/** What a listing shows: everything in the URL query except the path's category. */
export interface ListingState {
  year: number | null;
  rating: RatingFilter;
  sort: ListingSort;
  page: number;
  view: ViewMode;
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

export function filterVideos(videos: readonly Video[], year: number | null, rating: RatingFilter): Video[] {
  return videos.filter((v) => (year === null || v.year === year) && v.rating >= rating);
}

/** Latest first: year descending, then id descending. */
export function compareLatest(a: Video, b: Video): number {
  return b.year - a.year || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Sorted copy (stable: ties keep catalogue order). */
export function sortVideos(videos: readonly Video[], sort: ListingSort): Video[] {
  const copy = videos.slice();
  switch (sort) {
    case "latest":
      return copy.sort(compareLatest);
    case "rating":
      return copy.sort((a, b) => b.rating - a.rating);
    case "title":
      return copy.sort((a, b) => compareTitles(a.title, b.title));
    case "duration":
      // Spec §9: duration sorts by string comparison, largest string first.
      return copy.sort((a, b) => (a.duration < b.duration ? 1 : a.duration > b.duration ? -1 : 0));
  }
}

function isSort(value: string | null): value is ListingSort {
  return value === "latest" || value === "rating" || value === "title" || value === "duration";
}

/**
 * The listing state from a URL query. Invalid values fall back to the
 * defaults: an unknown year or rating means "all", a bad page means 1.
 */
export function parseListingState(
  params: URLSearchParams,
  years: readonly number[],
  defaultSort: ListingSort,
): Omit<ListingState, "page"> & { rawPage: string | null } {
  const yearRaw = params.get("year");
  const year = yearRaw !== null && /^\d{4}$/.test(yearRaw) && years.includes(Number(yearRaw)) ? Number(yearRaw) : null;
  const ratingRaw = params.get("rating");
  const rating = (["7", "8", "9"].includes(ratingRaw ?? "") ? Number(ratingRaw) : 0) as RatingFilter;
  const sortRaw = params.get("sort");
  const sort = isSort(sortRaw) ? sortRaw : defaultSort;
  const view: ViewMode = params.get("view") === "list" ? "list" : "grid";
  return { year, rating, sort, view, rawPage: params.get("page") };
}

export interface ListingResult {
  state: ListingState;
  years: number[];
  total: number;
  pageCount: number;
  /** Ids of the videos on this page. */
  ids: string[];
}

/** Everything a listing page needs, from the videos of its category and the URL query. */
export function buildListing(source: readonly Video[], params: URLSearchParams, defaultSort: ListingSort): ListingResult {
  const years = distinctYears(source);
  const { rawPage, ...rest } = parseListingState(params, years, defaultSort);
  const matching = sortVideos(filterVideos(source, rest.year, rest.rating), rest.sort);
  const pages = pageCount(matching.length, PAGE_SIZE);
  const page = parsePage(rawPage, pages);
  return {
    state: { ...rest, page },
    years,
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
  if (next.year !== null) params.set("year", String(next.year));
  if (next.rating !== 0) params.set("rating", String(next.rating));
  if (next.sort !== defaultSort) params.set("sort", next.sort);
  if (next.view !== "grid") params.set("view", next.view);
  if (next.page > 1) params.set("page", String(next.page));
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}
