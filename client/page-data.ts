/**
 * The catalogue pages' loaders in the browser: after hydration a navigation fetches that page's
 * loader data from the worker (GET /api/page/{path}?{query}, worker/catalogue/api.ts) — never
 * the catalogue. Responses may come from the browser cache when a link was prefetched on intent
 * (client/prefetch.ts) within the last minute.
 */
import type { LoaderFunction, LoaderFunctionArgs } from "../shared/router";
import { notFound, notFoundKindOf } from "../shared/loaders";

/** The data URL of a page URL: /category/电影?page=2 → /api/page/category/电影?page=2. */
export function pageDataUrl(url: URL): string {
  return "/api/page" + url.pathname + url.search;
}

async function fetchPageData({ request }: LoaderFunctionArgs): Promise<unknown> {
  const response = await fetch(pageDataUrl(new URL(request.url)), { signal: request.signal, headers: { Accept: "application/json" } });
  if (response.status === 404) {
    const body = (await response.json().catch(() => null)) as { notFound?: unknown } | null;
    notFound(notFoundKindOf(body?.notFound));
  }
  if (!response.ok) throw new Error(`页面数据加载失败（${response.status}）`);
  return response.json();
}

/** Every data page's loader in the browser (whatever its catalogue key): its data from the worker. */
export const browserPageData = (): LoaderFunction => fetchPageData;
