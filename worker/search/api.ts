import { Hono } from "hono";
import { normaliseQuery } from "../../shared/search/normalise";
import type { AppEnv } from "../app-env";
import { querySuggest } from "../catalogue/search";
import { cachedJson } from "../edge-answers";
import { configFor } from "../site-settings";

/** Search answers depend only on the URL and the catalogue: a minute fresh, five more stale at the edge. */
export const SEARCH_API_CACHE = "public, max-age=45, s-maxage=300"; // decision 0075
/** The empty box's 热门搜索 come from the 站点设置: half a minute in the browser, so a change shows within a minute (docs/decisions/0073-admin-settings-and-cache.md). */
export const HOT_SEARCH_CACHE = "public, max-age=30, s-maxage=300, stale-while-revalidate=600";

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
  return cachedJson(c, keyOf(c.req.url, new URLSearchParams({ q })), q ? SEARCH_API_CACHE : HOT_SEARCH_CACHE, async () => {
    const answer = await querySuggest(c.env.DB, q);
    // 热门搜索 set in the 站点设置 (or HOT_SEARCHES) replace the best-rated titles.
    const words = (await configFor(c)).HOT_SEARCHES;
    return { body: !q && words.length > 0 ? { ...answer, hot: words } : answer };
  });
});
