/**
 * The one way the feeds (provide API, RSS, sitemap, 排行榜 cards) read titles: pages of titles
 * in update order with the filters the provide API needs, titles by id, the categories, and an
 * update time per title. The site's source reads the D1 catalogue (worker/feeds/d1-source.ts);
 * tests may use one over titles held in memory (tests/reference/memory-source.ts). Everything is
 * async so that it can be a query.
 */
import type { Video } from "../../shared/catalogue/types";
import { isEnded } from "../../shared/schedule";
import { typeIdOf, type FeedCategory } from "./categories";

export type { FeedCategory } from "./categories";

/** One title as the feeds see it. */
export interface FeedTitle {
  video: Video;
  /** Category id of the title (FeedCategory.id): its first category that has an id. */
  typeId: number;
  /** When the title (or one of its episodes) last changed, ms since the epoch (the import that changed its entry). */
  updatedAt: number;
  /** When the title was first published, ms since the epoch (its first import; a re-import never moves it). */
  publishedAt: number;
  /** The title in pinyin without spaces ("wuganglaixin"), for MacCMS's vod_en. */
  pinyin: string;
}

export interface TitleQuery {
  /** Only this category id and its sub-categories. */
  typeId?: number;
  /**
   * The site search's query (worker/catalogue/search.ts: pinyin, initials, traditional
   * characters, several words; title, aliases, people, tags, categories, description): the
   * matches come in the search's relevance order instead of update order.
   */
  keyword?: string;
  /** Only titles updated at or after this instant (ms). */
  updatedSince?: number;
  /** Inclusive year range. */
  yearFrom?: number;
  yearTo?: number;
  /** true: finished titles only (films and series whose every episode is there); false: still updating. */
  ended?: boolean;
  /** Rows to skip and rows to return. */
  offset: number;
  limit: number;
}

export interface TitlePage {
  /** Titles matching the query, before offset and limit. */
  total: number;
  /** Newest update first (with a keyword: best match first). */
  items: FeedTitle[];
}

export interface FeedSource {
  titles(query: TitleQuery): Promise<TitlePage>;
  /** The titles among `ids` that exist, in update order; unknown ids are left out. */
  byIds(ids: readonly string[]): Promise<FeedTitle[]>;
  categories(): Promise<readonly FeedCategory[]>;
}

export { isEnded } from "../../shared/schedule";

/** Whether a title passes the query's filters other than the keyword (the search decides that). */
export function matchesFilters(title: FeedTitle, query: TitleQuery, parents: ReadonlyMap<number, number>): boolean {
  const { video } = title;
  if (query.typeId !== undefined && title.typeId !== query.typeId && parents.get(title.typeId) !== query.typeId) return false;
  if (query.updatedSince !== undefined && title.updatedAt < query.updatedSince) return false;
  if (query.yearFrom !== undefined && video.year < query.yearFrom) return false;
  if (query.yearTo !== undefined && video.year > query.yearTo) return false;
  if (query.ended !== undefined && isEnded(video) !== query.ended) return false;
  return true;
}

/** A feed title; `publishedAt` defaults to `updatedAt` (a title never changed since it was published). */
export function toFeedTitle(video: Video, updatedAt: number, pinyin: string, publishedAt = updatedAt): FeedTitle {
  return { video, typeId: typeIdOf(video), updatedAt, publishedAt, pinyin: pinyin.replace(/[^a-z0-9]/g, "") };
}
