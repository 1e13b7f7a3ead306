/**
 * What the browser needs to know about search (the search page's controls and
 * URLs, the result shape): no matching code and no tables.
 */
import type { Mark } from "./highlight";

export type SearchSort = "relevance" | "rating" | "year" | "title";

export const SEARCH_SORTS: ReadonlyArray<{ value: SearchSort; label: string }> = [
  { value: "relevance", label: "相关度" },
  { value: "rating", label: "评分最高" },
  { value: "year", label: "最新年份" },
  { value: "title", label: "按标题" },
];

export function isSearchSort(value: string | null): value is SearchSort {
  return value === "relevance" || value === "rating" || value === "year" || value === "title";
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
  /** The matched runs of the titles on this page (UTF-16 offsets), by id. */
  marks: Record<string, Mark[]>;
  /** 热门推荐 when nothing matched a non-empty query: video ids. */
  recommended: string[];
}

/** One suggestion under the header's search box. */
export interface Suggestion {
  id: string;
  title: string;
  /** Cover path, "/N.webp". */
  cover: string;
  year: number;
  /** The first category (电影, 电视剧, …). */
  category: string;
  marks: Mark[];
}

/** GET /api/search/suggest?q=…: up to 8 titles for a query; for an empty query, 热门搜索. */
export interface SuggestResponse {
  q: string;
  items: Suggestion[];
  /** 热门搜索: queries to offer in an empty box (empty when q is not). */
  hot: string[];
}

/** Most suggestions shown under the box. */
export const MAX_SUGGESTIONS = 8;

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

/** The header box: /search?q=… only when the trimmed text is non-empty. */
export function searchHref(text: string): string | null {
  const q = text.trim();
  return q ? `/search?q=${encodeURIComponent(q)}` : null;
}
