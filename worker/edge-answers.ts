/**
 * Generated answers through the Workers cache (the edge), in their two forms: JSON (the pages'
 * loader data, search, cards by id, the 弹幕 reads) and text (the provide API, RSS, the ranking,
 * the sitemap). Both take the one path of worker/http/edge-cache.ts, under a key that includes
 * the build and the content's version. Pages have their own cache (worker/page-cache.ts: nonces, streaming) and files
 * theirs (worker/http/cached-files.ts: Range, conditional requests).
 */
import clientAssets from "virtual:client-assets";
import type { AppContext } from "./app-env";
import { contentTag } from "./content-version";
import { answerCache, throughEdgeCache } from "./http/edge-cache";
import { settingsKey } from "./site-settings";

/** The client build's entry names: they tell one build from the next (keys include it). */
const BUILD_ID = clientAssets.scripts.join(",");

/** A cache key: the URL with its query sorted, plus the build, the 站点设置's version (worker/site-settings.ts) and the content's (worker/content-version.ts). */
function keyOf(url: URL, settings: string, content: string): Request {
  const keyUrl = new URL(url);
  keyUrl.searchParams.sort();
  keyUrl.searchParams.set("__build", BUILD_ID);
  keyUrl.searchParams.set("__site", settings);
  keyUrl.searchParams.set("__content", content);
  keyUrl.hash = "";
  return new Request(keyUrl.toString(), { method: "GET" });
}

export interface JsonAnswer {
  status?: number;
  body: unknown;
}

/**
 * Answers `make()` as JSON with `cacheControl` (a non-200 gets no-store), through the edge cache
 * under `key` (a canonical URL given by the caller) plus the build.
 */
export async function cachedJson(c: AppContext, key: URL, cacheControl: string, make: () => Promise<JsonAnswer> | JsonAnswer): Promise<Response> {
  return throughEdgeCache(c, answerCache(c.env), keyOf(key, await settingsKey(c), await contentTag(c.env.DB)), async () => {
    const { status = 200, body } = await make();
    return new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": status === 200 ? cacheControl : "no-store" },
    });
  });
}

/**
 * Drops the JSON answer cached under `key` (as cachedJson stores it, with the current build and
 * versions) from this location's edge cache: a 弹幕 a moderator deleted leaves the room's reads at
 * once here; other locations' copies expire by their max-age (a few seconds).
 */
export async function forgetCachedJson(c: { env: Env; req: { raw: Request; url: string } }, key: URL): Promise<void> {
  const cache = answerCache(c.env);
  if (!cache) return;
  await cache.delete(keyOf(key, await settingsKey(c), await contentTag(c.env.DB)));
}

export interface CachedBody {
  body: string;
  contentType: string;
}

/**
 * Answers `render()` through the edge cache under `key`, a normalised form of the request chosen
 * by the caller so that equivalent URLs share one entry, plus the build: a 200 with
 * `cacheControl`, stored; or, when `render()` gives null (nothing there, e.g. a sitemap part past
 * the last), a 404 with `no-store`, not stored — so the part can appear later without waiting
 * for a cached 404 to expire.
 */
export async function cachedText(c: AppContext, key: string, cacheControl: string, render: () => Promise<CachedBody | null>): Promise<Response> {
  const keyUrl = new URL("/__answers-cache", c.req.url);
  keyUrl.searchParams.set("k", key);
  return throughEdgeCache(c, answerCache(c.env), keyOf(keyUrl, await settingsKey(c), await contentTag(c.env.DB)), async () => {
    const rendered = await render();
    if (rendered === null)
      return new Response("404 Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    return new Response(rendered.body, { headers: { "Content-Type": rendered.contentType, "Cache-Control": cacheControl } });
  });
}
