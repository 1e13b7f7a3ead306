import { Hono } from "hono";
import clientAssets from "virtual:client-assets";
import { normaliseQuery } from "../../shared/search/normalise";
import type { AppContext, AppEnv } from "../app-env";
import { searchEngine } from "./engine";

/** Search answers depend only on the URL and the catalogue: a minute fresh, five more stale at the edge. */
export const SEARCH_API_CACHE = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";

/** The catalogue ships with the client build: its entry name tells one catalogue from the next. */
const BUILD_ID = clientAssets.scripts.join(",");

function edgeCache(c: AppContext): Cache | null {
  if (c.env.PAGE_CACHE === "off") return null;
  return typeof caches !== "undefined" && "default" in caches ? (caches as unknown as { default: Cache }).default : null;
}

/**
 * Answers `body()` as JSON through the Workers cache. The key is the normalised
 * parameters (so `q=%20雾港` and `q=雾港` share an entry) plus the build.
 */
async function cachedJson(c: AppContext, key: URLSearchParams, body: () => unknown): Promise<Response> {
  const cache = edgeCache(c);
  const keyUrl = new URL(new URL(c.req.url).pathname, c.req.url);
  key.sort();
  keyUrl.search = key.toString();
  keyUrl.searchParams.set("__build", BUILD_ID);
  const request = new Request(keyUrl.toString(), { method: "GET" });
  if (cache) {
    try {
      const hit = await cache.match(request);
      if (hit) {
        const res = new Response(hit.body, hit);
        res.headers.set("X-Cache", "HIT");
        return res;
      }
    } catch (error) {
      console.error("search cache read failed", error);
    }
  }
  const response = new Response(JSON.stringify(body()), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": SEARCH_API_CACHE },
  });
  if (cache) c.executionCtx.waitUntil(cache.put(request, response.clone()).catch((error) => console.error("search cache write failed", error)));
  response.headers.set("X-Cache", cache ? "MISS" : "BYPASS");
  return response;
}

const SEARCH_PARAMS = ["q", "category", "sort", "page"] as const;

/** GET /api/search (the search page after hydration) and GET /api/search/suggest (the header box). */
export const searchApi = new Hono<AppEnv>();

searchApi.get("/suggest", (c) => {
  const q = normaliseQuery(c.req.query("q") ?? null);
  return cachedJson(c, new URLSearchParams({ q }), () => searchEngine.suggest(q));
});

searchApi.get("/", (c) => {
  const url = new URL(c.req.url);
  const params = new URLSearchParams();
  for (const name of SEARCH_PARAMS) {
    const value = url.searchParams.get(name);
    if (value !== null) params.set(name, name === "q" ? normaliseQuery(value) : value.slice(0, 100));
  }
  return cachedJson(c, new URLSearchParams(params), () => searchEngine.run(params));
});
