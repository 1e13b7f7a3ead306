import clientAssets from "virtual:client-assets";
import type { AppContext } from "./app-env";
import { commentedTitleOf, commentVersion } from "./comments/version";
import { contentTag } from "./content-version";
import { isStorageFault } from "./fault-answers";
import { answerCache } from "./http/edge-cache";
import { routeAt } from "../shared/routes/route-at";
import { settingsKey, siteSettings } from "./site-settings";

const BUILD_ID = clientAssets.scripts.join(",");

/** Anonymous HTML: one minute fresh at the edge, five more minutes served stale while revalidating. */
export const ANONYMOUS_HTML_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

/** Whether a streamed page rendered completely (set by the SSR; false after a render error). */
const renderOutcomes = new WeakMap<Response, Promise<boolean>>();

/** The SSR tells the cache when a page's render has finished, and whether without an error. */
export function noteRenderOutcome(response: Response, complete: Promise<boolean>): void {
  renderOutcomes.set(response, complete);
}

/**
 * Query parameters that share links and ad campaigns add (WeChat, Weibo, Bilibili, Taobao, search
 * engines and social sites) and that no page reads: they are left out of the cache key, so
 * `/video/x?utm_source=wx` is the same cached page as `/video/x`.
 */
const TRACKING_PARAM =
  /^(?:utm_[a-z_]+|fbclid|gclid|gclsrc|dclid|msclkid|yclid|spm|spm_id_from|vd_source|share_source|share_medium|share_plat|share_from|share_tag|isappinstalled|scene|clicktime|mc_cid|mc_eid|_hsenc|_hsmkt)$/i;

/**
 * The cache key's URL: tracking parameters dropped and the rest sorted (`?sort=rating&year=2025`
 * and `?year=2025&sort=rating` render the same page), plus the build id, the version of the
 * 站点设置 (a save changes every page's key: docs/decisions/0073-admin-settings-and-cache.md) and
 * the content's version (worker/content-version.ts: a catalogue edit changes every page's key;
 * a video page's also carries its title's 评论区 version, worker/comments/version.ts).
 */
export function pageCacheKeyUrl(requestUrl: string, buildId: string = BUILD_ID, settings = "0", content = ""): string {
  const url = new URL(requestUrl);
  const kept = [...url.searchParams].filter(([name]) => !TRACKING_PARAM.test(name));
  kept.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  url.search = new URLSearchParams([...kept, ["__build", buildId], ["__site", settings], ...(content ? [["__content", content]] : [])]).toString();
  url.hash = "";
  return url.toString();
}

/**
 * The page cache's key of a request URL now: with the 站点设置's version (the request's own when
 * given, else read through the isolate's memo) and the content's version (read through its memo).
 */
export async function pageCacheKey(requestUrl: string, db: D1Database, settings?: string): Promise<Request> {
  const site = settings ?? String((await siteSettings(db)).version);
  // A video page also names its title's 评论区 version: a post changes the key of the page whose first comments it shows.
  const commented = commentedTitleOf(new URL(requestUrl).pathname);
  const comments = commented ? `~c${await commentVersion(db, commented)}` : "";
  return new Request(pageCacheKeyUrl(requestUrl, BUILD_ID, site, (await contentTag(db)) + comments), { method: "GET" });
}

/** Whether the path names a page whose anonymous HTML is kept at the edge for a short time (declared `html: "edge"`, shared/routes/). */
export function isCacheablePath(pathname: string): boolean {
  return routeAt(pathname)?.route.html === "edge";
}

export function isCacheablePage(c: AppContext): boolean {
  return c.req.method === "GET" && isCacheablePath(new URL(c.req.url).pathname);
}

/**
 * How long the last good copy of an anonymous page is kept for the days storage fails (the
 * fresh copy's key names the settings and content versions, which come from D1).
 */
export const STALE_HTML_SECONDS = 24 * 60 * 60;

/** The key of a page's last good copy: the build's, without the D1 versions. */
export function staleCacheKey(requestUrl: string): Request {
  return new Request(pageCacheKeyUrl(requestUrl, BUILD_ID, "stale"), { method: "GET" });
}

/** A stored copy with this request's nonce: the copy carries the nonce of the request that rendered it, and the CSP stays one-use. */
function withThisNonce(c: AppContext, stored: Response, state: "HIT" | "STALE"): Response {
  const nonce = c.get("secureHeadersNonce");
  const fresh = nonce ? new HTMLRewriter().on("script[nonce]", { element: (el) => void el.setAttribute("nonce", nonce) }).transform(stored) : stored;
  const res = new Response(fresh.body, fresh);
  res.headers.set("X-Cache", state);
  // A stale copy stands in while storage fails: no cache after the edge keeps it.
  if (state === "STALE") res.headers.set("Cache-Control", "no-store");
  return res;
}

/**
 * Serves an anonymous page from the Workers cache, or renders it and stores a copy — only 200
 * answers that set no cookie and are public: not-found pages are rendered each time, so any
 * number of made-up paths cannot fill the cache. Each copy is also kept as the page's last good
 * copy (STALE_HTML_SECONDS), served when storage fails (D1 erring or hanging: the versions in the
 * key cannot be read, or the render answers 5xx) instead of the error page.
 */
export async function withPageCache(c: AppContext, render: () => Promise<Response>): Promise<Response> {
  const cache = answerCache(c.env);
  if (!cache || !isCacheablePage(c)) return render();
  // The build's entry file name is part of the key: after a deploy no page points at old assets.
  let key: Request | null = null;
  try {
    key = await pageCacheKey(c.req.url, c.env.DB, await settingsKey(c));
  } catch (error) {
    if (!isStorageFault(error)) throw error;
    console.error("page cache: the versions in the key could not be read", error);
  }
  try {
    const hit = key && (await cache.match(key));
    if (hit) return withThisNonce(c, hit, "HIT");
  } catch (error) {
    console.error("page cache read failed", error);
  }
  const response = await render();
  if (response.status >= 500 || !key) {
    if (response.status < 500) return response;
    const stale = await cache.match(staleCacheKey(c.req.url)).catch(() => undefined);
    if (!stale) return response;
    await response.body?.cancel();
    return withThisNonce(c, stale, "STALE");
  }
  const storable = response.status === 200 && !response.headers.has("Set-Cookie") && (response.headers.get("Cache-Control") ?? "").startsWith("public");
  if (!storable) return response;
  const [forClient, forCaches] = response.body ? response.body.tee() : [null, null];
  const [forCache, forStale] = forCaches ? forCaches.tee() : [null, null];
  const stored = new Response(forCache, response);
  const staleCopy = new Response(forStale, response);
  staleCopy.headers.set("Cache-Control", `public, max-age=0, s-maxage=${STALE_HTML_SECONDS}`);
  const fresh = key;
  const store = async () => {
    // A page whose render failed after the shell (its Suspense fallback is in the HTML) is not kept.
    if ((await renderOutcomes.get(response)) === false) {
      await Promise.all([stored.body?.cancel(), staleCopy.body?.cancel()]);
      return;
    }
    await Promise.all([cache.put(fresh, stored), cache.put(staleCacheKey(c.req.url), staleCopy)]);
  };
  c.executionCtx.waitUntil(store().catch((error) => console.error("page cache write failed", error)));
  const res = new Response(forClient, response);
  res.headers.set("X-Cache", "MISS");
  return res;
}
