import type { Video } from "./catalogue/types";
import { pageCount, pageSlice, parsePage } from "./pagination";
import { compareTitles } from "./collation";

export type SearchSort = "relevance" | "rating" | "year" | "title";

export const SEARCH_SORTS: ReadonlyArray<{ value: SearchSort; label: string }> = [
  { value: "relevance", label: "相关度" },
  { value: "rating", label: "评分最高" },
  { value: "year", label: "最新年份" },
  { value: "title", label: "按标题" },
];

/** Longest query we look at; longer input is cut, never an error. */
export const MAX_QUERY_LENGTH = 100;

/** Case-insensitive substring over title, description, any tag or any category. */
export function matchesQuery(video: Video, query: string): boolean {
  const q = query.toLowerCase();
  return (
    video.title.toLowerCase().includes(q) ||
    video.description.toLowerCase().includes(q) ||
    video.tags.some((t) => t.toLowerCase().includes(q)) ||
    video.category.some((c) => c.toLowerCase().includes(q))
  );
}

export function sortSearchResults(videos: readonly Video[], sort: SearchSort): Video[] {
  const copy = videos.slice();
  switch (sort) {
    case "relevance":
      return copy;
    case "rating":
      return copy.sort((a, b) => b.rating - a.rating);
    case "year":
      return copy.sort((a, b) => b.year - a.year);
    case "title":
      return copy.sort((a, b) => compareTitles(a.title, b.title));
  }
}

/** Categories present in the matches, most frequent first: the options of the category filter. */
export function resultCategories(videos: readonly Video[]): string[] {
  const counts = new Map<string, number>();
  for (const v of videos) for (const c of v.category) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || compareTitles(a[0], b[0])).map(([c]) => c);
}

export interface SearchState {
  /** The trimmed query (cut to MAX_QUERY_LENGTH); empty means "start searching". */
  q: string;
  category: string | null;
  sort: SearchSort;
  page: number;
}

export interface SearchResult {
  state: SearchState;
  categories: string[];
  total: number;
  pageCount: number;
  ids: string[];
}

function isSearchSort(value: string | null): value is SearchSort {
  return value === "relevance" || value === "rating" || value === "year" || value === "title";
}

export function normaliseQuery(raw: string | null): string {
  return [...(raw ?? "").trim()].slice(0, MAX_QUERY_LENGTH).join("").trim();
}

export function runSearch(catalogue: readonly Video[], params: URLSearchParams): SearchResult {
  const q = normaliseQuery(params.get("q"));
  const sortRaw = params.get("sort");
  const sort: SearchSort = isSearchSort(sortRaw) ? sortRaw : "relevance";
  const matches = q ? catalogue.filter((v) => matchesQuery(v, q)) : [];
  const categories = resultCategories(matches);
  const categoryRaw = params.get("category");
  const category = categoryRaw !== null && categories.includes(categoryRaw) ? categoryRaw : null;
  const filtered = category === null ? matches : matches.filter((v) => v.category.includes(category));
  const sorted = sortSearchResults(filtered, sort);
  const pages = pageCount(sorted.length);
  const page = parsePage(params.get("page"), pages);
  return {
    state: { q, category, sort, page },
    categories,
    total: sorted.length,
    pageCount: pages,
    ids: pageSlice(sorted, page).map((v) => v.id),
  };
}

/** Query string of a search state; changing the filter or sort resets to page 1. */
export function searchQuery(state: SearchState, change: Partial<SearchState> = {}): string {
  const next: SearchState = { ...state, ...change };
  if (!("page" in change)) next.page = 1;
  const params = new URLSearchParams();
  params.set("q", next.q);
  if (next.category !== null) params.set("category", next.category);
  if (next.sort !== "relevance") params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  return `?${params.toString()}`;
}
