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
import { isRouteErrorResponse } from "react-router";
import type { LibraryCard } from "../../shared/catalogue/card";
import { isTitleId, MAX_TITLE_IDS } from "../../shared/catalogue/title-ids";
import { notFoundKindOfData, type NotFoundKind } from "../../shared/loaders";
import { isDataPagePath } from "../../shared/routes/route-at";
import type { AppContext, AppEnv } from "../app-env";
import { cachedJson } from "../edge-answers";
import { siteConfigFor } from "../site-settings";
import { anonymousRootData, siteHandler, type ServerLoaderContext } from "../ssr";
import { episodeNamesOf } from "./episode-names";
import { cardsByIds } from "./titles";

/** Listing and detail data: a minute fresh in browsers (prefetched data is reused), five at the edge. */
export const PAGE_DATA_CACHE = "public, max-age=45, s-maxage=300"; // browser ≤ 45 s: a catalogue edit shows within 60 s (decision 0075)

/** What a 404 of a page's data says (the kinds of the page's own not-found answers, shared/loaders.ts). */
export interface PageDataNotFound {
  notFound: NotFoundKind;
}

async function statusOf(error: unknown): Promise<{ status: number; kind: NotFoundKind } | null> {
  // A loader's `throw data({ kind }, { status })`, as React Router hands it back.
  if (isRouteErrorResponse(error)) return { status: error.status, kind: notFoundKindOfData(error.data) };
  if (typeof error === "object" && error !== null && "init" in error && "data" in error) {
    const init = (error as { init?: { status?: number } | null }).init;
    return { status: init?.status ?? 500, kind: notFoundKindOfData((error as { data?: unknown }).data) };
  }
  // queryRoute answers a thrown `data()` as a Response whose body is the data.
  if (error instanceof Response) return { status: error.status, kind: notFoundKindOfData(await error.json().catch(() => null)) };
  return null;
}

async function pageData(c: AppContext, path: string, search: string) {
  const origin = new URL(c.req.url).origin;
  const target = new URL(origin + path + search);
  // "/" alone names the root route: `?index` asks for the home page's own (index route) loader.
  if (path === "/") target.searchParams.append("index", "");
  const request = new Request(target, { signal: c.req.raw.signal });
  try {
    const body: unknown = await siteHandler.queryRoute(request, {
      requestContext: { root: anonymousRootData(c, await siteConfigFor(c)), db: c.env.DB, env: c.env } satisfies ServerLoaderContext,
    });
    return { body };
  } catch (error) {
    const known = await statusOf(error);
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
