import { data, type LoaderFunctionArgs } from "react-router";
import { getVideo, MAIN_CATEGORIES, videos } from "./catalogue/index";
import type { Video } from "./catalogue/types";
import { isInfoPageType, type InfoPageType } from "./content/info-page-types";
import { buildListing, matchesCategory, sortVideos, type ListingResult, type ListingSort } from "./listing";
import { pickRandom, randomInt } from "./random";
import type { SearchResult } from "./search/query";

/** A card on a list: the video id and its (fake) view count, drawn in the loader. */
export interface CardItem {
  id: string;
  views: number;
}

/** Card view counts are random 1000–10999 (spec §9). */
export function toCards(list: readonly Video[]): CardItem[] {
  return list.map((v) => ({ id: v.id, views: randomInt(1000, 10999) }));
}

export const HOME_HOT_COUNT = 8;
export const HOME_LATEST_COUNT = 12;
export const HOME_TOP_RATED_COUNT = 8;

export interface HomeData {
  hot: CardItem[];
  latest: CardItem[];
  topRated: CardItem[];
  counts: Array<{ name: string; count: number }>;
}

export function homeLoader(): HomeData {
  return {
    hot: toCards(pickRandom(videos, HOME_HOT_COUNT)),
    latest: toCards(sortVideos(videos, "latest").slice(0, HOME_LATEST_COUNT)),
    topRated: toCards(sortVideos(videos, "rating").slice(0, HOME_TOP_RATED_COUNT)),
    counts: MAIN_CATEGORIES.map((name) => ({ name, count: videos.filter((v) => matchesCategory(v, name)).length })),
  };
}

export type ListingKind = "category" | "latest" | "top-rated";

export interface ListingData extends Omit<ListingResult, "ids"> {
  kind: ListingKind;
  /** The category from the path (`all` for everything); null on /latest and /top-rated. */
  category: string | null;
  defaultSort: ListingSort;
  items: CardItem[];
}

/**
 * A path parameter that still holds a "%" could not be percent-decoded (or
 * decoded to a "%", which no catalogue name has): treat it as not found.
 */
function isUndecodable(param: string): boolean {
  return param.includes("%") || param.includes("\uFFFD");
}

export function notFound(kind: "page" | "video" | "info" = "page"): never {
  throw data({ kind }, { status: 404 });
}

export function listingLoader(kind: ListingKind) {
  return ({ request, params }: LoaderFunctionArgs): ListingData => {
    const url = new URL(request.url);
    let category: string | null = null;
    let source: readonly Video[] = videos;
    if (kind === "category") {
      category = params.name ?? "";
      if (!category || isUndecodable(category)) notFound();
      source = videos.filter((v) => matchesCategory(v, category as string));
      // A category with no titles is not a page (its name would be any text from the link: spam).
      if (source.length === 0) notFound();
    }
    const defaultSort: ListingSort = kind === "top-rated" ? "rating" : "latest";
    const { ids, ...result } = buildListing(source, url.searchParams, defaultSort);
    return { ...result, kind, category, defaultSort, items: toCards(ids.map((id) => getVideo(id) as Video)) };
  };
}

export interface SearchData extends Omit<SearchResult, "ids" | "recommended"> {
  items: CardItem[];
  /** 热门推荐 under "no results". */
  recommended: CardItem[];
}

/**
 * Runs a search: the worker ranks the catalogue itself (it holds the
 * traditional→simplified table); the browser asks the worker (GET /api/search).
 */
export type SearchRunner = (params: URLSearchParams, signal: AbortSignal) => SearchResult | Promise<SearchResult>;

export function searchLoader(search: SearchRunner) {
  return async ({ request }: LoaderFunctionArgs): Promise<SearchData> => {
    const { ids, recommended, ...result } = await search(new URL(request.url).searchParams, request.signal);
    const cards = (list: readonly string[]) => toCards(list.flatMap((id) => getVideo(id) ?? []));
    return { ...result, items: cards(ids), recommended: cards(recommended) };
  };
}

export const RELATED_COUNT = 8;
export const SIDEBAR_RELATED_COUNT = 6;

export interface VideoData {
  id: string;
  /** Random 1000–50999 per visit (spec §9). */
  views: number;
  /** Up to 8 random videos sharing a category, never the current one. */
  related: CardItem[];
  /** Structured-data rating count, random 100–1099. */
  ratingCount: number;
}

export function relatedCandidates(video: Video): Video[] {
  const own = new Set(video.category);
  return videos.filter((v) => v.id !== video.id && v.category.some((c) => own.has(c)));
}

export function videoLoader({ params }: LoaderFunctionArgs): VideoData {
  const video = getVideo(params.id ?? "");
  if (!video) notFound("video");
  return {
    id: video.id,
    views: randomInt(1000, 50999),
    related: toCards(pickRandom(relatedCandidates(video), RELATED_COUNT)),
    ratingCount: randomInt(100, 1099),
  };
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
