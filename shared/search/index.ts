/**
 * What search's parts share: how many 热门 titles, a ranked match, the names of a title that
 * search matches. The worker ranks in SQL (worker/catalogue/search.ts), the import writes the
 * keys (shared/catalogue/rows.ts), the browser asks the worker; the in-memory reference the
 * tests compare against is tests/reference/search-engine.ts.
 */
import type { Video } from "../catalogue/types";
import type { Mark } from "./highlight";

export { MAX_QUERY_LENGTH, normaliseQuery } from "./normalise";
export * from "./query";

/** 热门搜索 and 热门推荐: how many. */
export const HOT_COUNT = 8;

/** What sorting and filtering search results needs of a title. */
export interface SearchItem {
  id: string;
  title: string;
  year: number;
  rating: number;
  category: readonly string[];
}

/** A ranked match: the title and the marks of its matched runs. */
export interface RankedItem<T extends SearchItem = SearchItem> {
  video: T;
  marks: Mark[];
}

/** The names of a title that search matches at tier 5: aliases, directors, actors (in this order). */
export function titleNames(video: Video): string[] {
  return [...(video.aliases ?? []), ...(video.directors ?? []), ...(video.actors ?? [])];
}
