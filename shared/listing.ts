/**
 * Listing pages' URL state: the sorts, filters and facets a listing offers, the state read from
 * a URL query and written back. The D1 queries are worker/catalogue/listing.ts; their in-memory
 * reference, for the tests, is tests/reference/listing.ts.
 */

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

/** Most options one facet row offers. */
export const MAX_FACET_OPTIONS = 30;

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
