/**
 * What each page's loader returns, and the loaders that need no catalogue. The catalogue pages'
 * loaders differ by platform (`CatalogueLoaders`): in the worker they query D1
 * (worker/catalogue/loaders.ts), in the browser they fetch the same data as JSON from the worker
 * (client/page-data.ts). Either way a page gets only what it shows, cards included.
 */
import type { CommentPage } from "./comments/model";
import { data, type LoaderFunction, type LoaderFunctionArgs } from "./router";
import type { CardItem } from "./catalogue/card";
import type { Video } from "./catalogue/types";
import { isInfoPageType, type InfoPageType } from "./content/info-page-types";
import type { ListingResult, ListingSort } from "./listing";
import type { RatingSummary } from "./ratings";
import type { Weekday } from "./schedule";
import type { SearchResult } from "./search/query";

export type { CardItem } from "./catalogue/card";

export const HOME_HOT_COUNT = 8;
export const HOME_LATEST_COUNT = 12;
export const HOME_TOP_RATED_COUNT = 8;

export interface HomeData {
  hot: CardItem[];
  latest: CardItem[];
  topRated: CardItem[];
  counts: Array<{ name: string; count: number }>;
  /** 今日更新: today's weekday in China and the series the 追剧周表 lists for it. */
  today: Weekday;
  todayUpdates: CardItem[];
}

/** 追剧周表 (/schedule?day=N): one weekday's series, and which day today is (the first tab). */
export interface ScheduleData {
  day: Weekday;
  /** Whether the URL names the day (?day=N); /schedule alone shows today. */
  dayInUrl: boolean;
  today: Weekday;
  items: CardItem[];
}

export type ListingKind = "category" | "latest" | "top-rated";

export interface ListingData extends Omit<ListingResult, "ids"> {
  kind: ListingKind;
  /** The category from the path (`all` for everything); null on /latest and /top-rated. */
  category: string | null;
  defaultSort: ListingSort;
  items: CardItem[];
}

export interface SearchData extends Omit<SearchResult, "ids" | "recommended"> {
  items: CardItem[];
  /** 热门推荐 under "no results". */
  recommended: CardItem[];
}

export const RELATED_COUNT = 8;
export const SIDEBAR_RELATED_COUNT = 6;

export interface VideoData {
  id: string;
  /** The title (its episodes included; read by the page and the player). */
  video: Video;
  /** The episode shown, from 1 (1 for single titles). */
  episode: number;
  /**
   * Whether the URL names the episode (/video/{id}/{n}); on /video/{id} the page shows episode 1
   * and the browser may move on to the episode the visitor was last watching.
   */
  episodeInUrl: boolean;
  /** The spec's random next video: a random other title, played after the last episode or a single title. */
  nextVideoId: string;
  /** Real plays where there are any, else random 1000–50999 per visit (spec §9). */
  views: number;
  /** Up to 8 random videos sharing a category, never the current one. */
  related: CardItem[];
  /** Structured-data rating count: the viewers' count where `viewerScore` is set, else random 100–1099. */
  ratingCount: number;
  /** The viewers' average where enough viewers rated for it to count (shared/ratings.ts viewerScore), else null. */
  viewerScore: number | null;
  /** 评分: the viewers' ratings of the title (docs/decisions/0115-viewer-ratings.md). */
  ratings: RatingSummary;
  /** The 评论区's first page (最热), signed out's view: the server renders it under the player (shared/components/comments/). */
  comments: CommentPage;
}

/**
 * The catalogue pages' loaders in the worker (D1 queries, worker/catalogue/loaders.ts), by the key a
 * data page's declaration names for each of its paths (shared/routes/*.route.ts); the browser
 * fetches the same data from GET /api/page/… (client/page-data.ts).
 */
export interface CatalogueLoaders {
  home: LoaderFunction;
  category: LoaderFunction;
  latest: LoaderFunction;
  topRated: LoaderFunction;
  search: LoaderFunction;
  video: LoaderFunction;
  schedule: LoaderFunction;
}

/**
 * A path parameter that still holds a "%" could not be percent-decoded (or
 * decoded to a "%", which no catalogue name has): treat it as not found.
 */
export function isUndecodable(param: string): boolean {
  return param.includes("%") || param.includes("\uFFFD");
}

/**
 * What a 404 is about, so that the page says the right thing (spec §8): an unknown path, a
 * video that does not exist, an info page that does not exist. A loader throws the kind
 * (`notFound`), /api/page answers it (worker/catalogue/api.ts), the browser's loader throws it
 * again (client/page-data.ts) and the error boundary picks the page (shared/pages/NotFoundPages.tsx).
 */
export const NOT_FOUND_KINDS = ["page", "video", "info"] as const;
export type NotFoundKind = (typeof NOT_FOUND_KINDS)[number];

/** The kind a 404 names (`{ kind }` of a loader's 404 data, `notFound` of a page data answer): "page" for anything else. */
export function notFoundKindOf(kind: unknown): NotFoundKind {
  return NOT_FOUND_KINDS.find((k) => k === kind) ?? "page";
}

/** The kind in a loader's 404 data (`{ kind }`, as `notFound` throws it). */
export function notFoundKindOfData(data: unknown): NotFoundKind {
  return notFoundKindOf(typeof data === "object" && data !== null ? (data as { kind?: unknown }).kind : undefined);
}

export function notFound(kind: NotFoundKind = "page"): never {
  throw data({ kind }, { status: 404 });
}

export interface InfoData {
  type: InfoPageType;
}

export function infoLoader({ params }: LoaderFunctionArgs): InfoData {
  const type = params.page ?? "";
  if (isUndecodable(type)) notFound();
  if (!isInfoPageType(type)) notFound("info");
  return { type };
}

export function notFoundLoader(): never {
  notFound();
}
