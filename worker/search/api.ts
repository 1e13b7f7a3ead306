import { Hono } from "hono";
import { normaliseQuery } from "../../shared/search/normalise";
import type { AppEnv } from "../app-env";
import { querySuggest } from "../catalogue/search";
import { cachedJson } from "../edge-answers";

/** Search answers depend only on the URL and the catalogue: a minute fresh, five more stale at the edge. */
export const SEARCH_API_CACHE = "public, max-age=45, s-maxage=300"; // decision 0075

/** The cache key: this path and the normalised query (so `q=%20雾港` and `q=雾港` share an entry). */
function keyOf(url: string, params: URLSearchParams): URL {
  const key = new URL(new URL(url).pathname, url);
  key.search = params.toString();
  return key;
}

/**
 * GET /api/search/suggest (the header box), from D1. The /search page's results reach the browser
 * as that page's loader data (GET /api/page/search, worker/catalogue/api.ts), not through here.
 */
export const searchApi = new Hono<AppEnv>();

searchApi.get("/suggest", (c) => {
  const q = normaliseQuery(c.req.query("q") ?? null);
  return cachedJson(c, keyOf(c.req.url, new URLSearchParams({ q })), SEARCH_API_CACHE, async () => ({ body: await querySuggest(c.env.DB, q) }));
});
