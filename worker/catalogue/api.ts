/**
 * The catalogue for the browser after hydration:
 *
 * - GET /api/page/{path}?{query}: the loader data of the data page at /{path}?{query} (a route
 *   declared with `data` in shared/routes/: home, listings, search, detail) — what the server
 *   render used, as JSON, edge-cached. A client navigation fetches this and nothing else
 *   (client/page-data.ts), and links prefetch it on intent.
 * - GET /api/titles?ids=a,b,…: cards of the given titles (favourites and history on /profile):
 *   at most MAX_TITLE_IDS distinct ids (duplicates count once, malformed ids are left out); more
 *   is a 400 (the browser asks in pages, shared/components/useTitleCards.ts).
 */
import { Hono } from "hono";
import { isRouteErrorResponse } from "../../shared/router";
import { queryRoute } from "../../shared/router/load";
import type { LibraryCard } from "../../shared/catalogue/card";
import { isTitleId, MAX_TITLE_IDS } from "../../shared/catalogue/title-ids";
import { notFoundKindOfData, type NotFoundKind } from "../../shared/loaders";
import { isDataPagePath } from "../../shared/routes/route-at";
import type { AppContext, AppEnv } from "../app-env";
import { cachedJson } from "../edge-answers";
import { siteConfigFor } from "../site-settings";
import { anonymousRootData, siteRoutes, type ServerLoaderContext } from "../ssr";
import { episodeNamesOf } from "./episode-names";
import { cardsByIds } from "./titles";

/** Listing and detail data: a minute fresh in browsers (prefetched data is reused), five at the edge. */
export const PAGE_DATA_CACHE = "public, max-age=45, s-maxage=300"; // browser ≤ 45 s: a catalogue edit shows within 60 s (decision 0075)

/** What a 404 of a page's data says (the kinds of the page's own not-found answers, shared/loaders.ts). */
export interface PageDataNotFound {
  notFound: NotFoundKind;
}

/** A loader's `throw data({ kind }, { status })`, as the router's queryRoute hands it back. */
function statusOf(error: unknown): { status: number; kind: NotFoundKind } | null {
  return isRouteErrorResponse(error) ? { status: error.status, kind: notFoundKindOfData(error.data) } : null;
}

async function pageData(c: AppContext, path: string, search: string) {
  const origin = new URL(c.req.url).origin;
  const request = new Request(new URL(origin + path + search), { signal: c.req.raw.signal });
  try {
    const context = { root: anonymousRootData(c, await siteConfigFor(c)), db: c.env.DB, env: c.env } satisfies ServerLoaderContext;
    // The page's own route's loader ("/" is the home page's index route).
    const body: unknown = await queryRoute(siteRoutes, request, context);
    return { body };
  } catch (error) {
    const known = statusOf(error);
    if (known && known.status === 404) return { status: 404, body: { notFound: known.kind } satisfies PageDataNotFound };
    throw error;
  }
}

export const catalogueApi = new Hono<AppEnv>();

catalogueApi.get("/page/*", (c) => {
  const url = new URL(c.req.url);
  const path = url.pathname.slice("/api/page".length) || "/";
  if (!isDataPagePath(path)) return c.json({ notFound: "page" } satisfies PageDataNotFound, 404, { "Cache-Control": "no-store" });
  return cachedJson(c, url, PAGE_DATA_CACHE, () => pageData(c, path, url.search));
});

catalogueApi.get("/titles", (c) => {
  const ids = [...new Set((c.req.query("ids") ?? "").split(",").filter(isTitleId))];
  if (ids.length > MAX_TITLE_IDS) {
    return c.json({ error: { code: "too_many_ids", message: `一次最多查询${MAX_TITLE_IDS}部作品` } }, 400, { "Cache-Control": "no-store" });
  }
  const key = new URL("/api/titles", c.req.url);
  key.searchParams.set("ids", ids.join(","));
  return cachedJson(c, key, PAGE_DATA_CACHE, async () => {
    const [cards, names] = await Promise.all([cardsByIds(c.env.DB, ids), episodeNamesOf(c.env.DB, ids)]);
    const body: LibraryCard[] = cards.map((card) => {
      const episodeNames = names.get(card.id);
      return episodeNames ? { ...card, episodeNames } : card;
    });
    return { body };
  });
});
