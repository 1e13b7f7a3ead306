import { Hono } from "hono";
import { normaliseQuery } from "../../shared/search/normalise";
import type { AppEnv } from "../app-env";
import { querySearch, querySuggest } from "../catalogue/search";
import { cachedJson } from "../edge-answers";

/** Search answers depend only on the URL and the catalogue: a minute fresh, five more stale at the edge. */
export const SEARCH_API_CACHE = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";

const SEARCH_PARAMS = ["q", "category", "sort", "page"] as const;

/** The cache key: this path and the normalised parameters (so `q=%20雾港` and `q=雾港` share an entry). */
function keyOf(url: string, params: URLSearchParams): URL {
  const key = new URL(new URL(url).pathname, url);
  key.search = params.toString();
  return key;
}

/** GET /api/search (ranked results as ids) and GET /api/search/suggest (the header box), from D1. */
export const searchApi = new Hono<AppEnv>();

searchApi.get("/suggest", (c) => {
  const q = normaliseQuery(c.req.query("q") ?? null);
  return cachedJson(c, keyOf(c.req.url, new URLSearchParams({ q })), SEARCH_API_CACHE, async () => ({ body: await querySuggest(c.env.DB, q) }));
});

searchApi.get("/", (c) => {
  const url = new URL(c.req.url);
  const params = new URLSearchParams();
  for (const name of SEARCH_PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null) params.set(name, name === "q" ? normaliseQuery(value) : value.slice(0, 100));
  }
  return cachedJson(c, keyOf(c.req.url, params), SEARCH_API_CACHE, async () => ({ body: await querySearch(c.env.DB, params) }));
});
