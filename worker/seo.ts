import { MAIN_CATEGORIES } from "../shared/catalogue/categories";
import { INFO_PAGE_TYPES } from "../shared/content/info-page-types";
import { siteConfigFrom } from "../shared/site-config";
import type { AppContext } from "./app-env";
import { rssXml, RSS_SIZE, sitemapXml } from "./feeds/crawl-feeds";
import { feedSource } from "./feeds/d1-source";

/** Every public page a crawler should know besides the titles: home, categories, listings, 排行榜, info pages. */
export function sitemapPaths(): string[] {
  return [
    "/",
    ...MAIN_CATEGORIES.map((c) => `/category/${c}`),
    "/category/all",
    "/latest",
    "/top-rated",
    "/ranking",
    ...INFO_PAGE_TYPES.map((t) => `/info/${t}`),
  ];
}

/** Titles a sitemap holds at most (the protocol's limit is 50,000 URLs per file, episodes included). */
const SITEMAP_TITLES = 5000;

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /profile", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}

const configOfRequest = (c: AppContext) => siteConfigFrom(c.env, new URL(c.req.url).origin);
const CACHE = "public, max-age=3600, s-maxage=86400";
/** The feed is polled: fifteen minutes. */
const RSS_CACHE = "public, max-age=900, s-maxage=900";

export async function sitemapHandler(c: AppContext): Promise<Response> {
  const { items } = await feedSource(c.env).titles({ offset: 0, limit: SITEMAP_TITLES });
  return c.body(sitemapXml(configOfRequest(c).origin, sitemapPaths(), items), 200, {
    "Content-Type": "application/xml; charset=utf-8",
    "Cache-Control": CACHE,
  });
}

export const robotsHandler = (c: AppContext) => c.text(robotsTxt(configOfRequest(c).origin), 200, { "Cache-Control": CACHE });

/** GET /rss.xml: the latest 30 titles. */
export async function rssHandler(c: AppContext): Promise<Response> {
  const config = configOfRequest(c);
  const { items } = await feedSource(c.env).titles({ offset: 0, limit: RSS_SIZE });
  const channel = {
    origin: config.origin,
    siteName: config.siteName,
    description: `${config.siteName}：免费在线观看最新电影、热门电视剧、综艺节目与精选纪录片。`,
  };
  return c.body(rssXml(channel, items, Date.now()), 200, { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": RSS_CACHE });
}
