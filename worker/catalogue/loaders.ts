/**
 * The catalogue pages' loaders in the worker: each page's data from D1 (worker/catalogue/),
 * used by the server render and by GET /api/page/* (the browser's navigations).
 */
import { listComments } from "../comments/store";
import type { LoaderFunctionArgs } from "../../shared/router";
import {
  HOME_HOT_COUNT,
  HOME_LATEST_COUNT,
  HOME_TOP_RATED_COUNT,
  isUndecodable,
  notFound,
  RELATED_COUNT,
  type CatalogueLoaders,
  type HomeData,
  type ListingData,
  type ListingKind,
  type ScheduleData,
  type SearchData,
  type VideoData,
} from "../../shared/loaders";
import type { ListingSort } from "../../shared/listing";
import { parseEpisodeParam } from "../../shared/episodes";
import { randomInt } from "../../shared/random";
import { viewerScore } from "../../shared/ratings";
import { cardViews } from "./cards";
import { queryHome } from "./home";
import { queryListing } from "./listing";
import { querySchedule } from "./schedule";
import { querySearch } from "./search";
import { chinaWeekday, parseScheduleDay } from "../../shared/schedule";
import { cardsByIds, titleDetail } from "./titles";

/** How a loader finds the database of its request (the static handler's request context). */
export type DbOf = (args: LoaderFunctionArgs) => D1Database;

export function catalogueLoaders(dbOf: DbOf): CatalogueLoaders {
  const listing =
    (kind: ListingKind) =>
    async (args: LoaderFunctionArgs): Promise<ListingData> => {
      const url = new URL(args.request.url);
      let category: string | null = null;
      if (kind === "category") {
        category = args.params.name ?? "";
        if (!category || isUndecodable(category)) notFound();
      }
      const defaultSort: ListingSort = kind === "top-rated" ? "rating" : "latest";
      const { scopeTotal, state, facets, total, pageCount, items } = await queryListing(dbOf(args), category, url.searchParams, defaultSort);
      // A category with no titles is not a page (its name would be any text from the link: spam).
      if (kind === "category" && scopeTotal === 0) notFound();
      return { state, facets, total, pageCount, items, kind, category, defaultSort };
    };

  return {
    async home(args): Promise<HomeData> {
      return queryHome(dbOf(args), { hot: HOME_HOT_COUNT, latest: HOME_LATEST_COUNT, topRated: HOME_TOP_RATED_COUNT });
    },
    category: listing("category"),
    latest: listing("latest"),
    topRated: listing("top-rated"),
    async search(args): Promise<SearchData> {
      const db = dbOf(args);
      const { ids, recommended, ...result } = await querySearch(db, new URL(args.request.url).searchParams);
      const [items, hot] = await Promise.all([cardsByIds(db, ids), cardsByIds(db, recommended)]);
      return { ...result, items, recommended: hot };
    },
    async schedule(args): Promise<ScheduleData> {
      const today = chinaWeekday(Date.now());
      const param = new URL(args.request.url).searchParams.get("day");
      const named = parseScheduleDay(param);
      const day = named ?? today;
      return { day, dayInUrl: named !== null, today, items: await querySchedule(dbOf(args), day) };
    },
    async video(args): Promise<VideoData> {
      const id = args.params.id ?? "";
      const wellFormed = /^[\w-]{1,40}$/.test(id);
      // The 评论区's first page is read alongside the title (two bounded reads: worker/comments/store.ts).
      const comments = wellFormed ? listComments(dbOf(args), id, "hot", 1, null) : null;
      // Awaited below; a failure meanwhile (the title's read failing first) must not go unhandled.
      comments?.catch(() => {});
      const detail = wellFormed ? await titleDetail(dbOf(args), id, RELATED_COUNT) : null;
      if (!detail || !comments) notFound("video");
      // /video/{id}/{n}: a bad or out-of-range episode (or an episode URL of a film) is a 404.
      const param = args.params.episode;
      const episode = param === undefined ? 1 : parseEpisodeParam(detail.video, param);
      if (episode === null) notFound("video");
      const score = viewerScore(detail.ratings);
      return {
        id,
        video: detail.video,
        episode,
        episodeInUrl: param !== undefined,
        nextVideoId: detail.nextVideoId ?? id,
        views: cardViews(detail.hits, 1000, 50999),
        related: detail.related,
        ratingCount: score === null ? randomInt(100, 1099) : detail.ratings.count,
        viewerScore: score,
        ratings: detail.ratings,
        comments: await comments,
      };
    },
  };
}
