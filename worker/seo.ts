import { MAIN_CATEGORIES } from "../shared/catalogue/categories";
import { INFO_PAGE_TYPES } from "../shared/content/info-page-types";
import type { AppContext } from "./app-env";
import { siteConfigOf } from "./config";
import { siteConfigFor } from "./site-settings";
import { cachedText } from "./edge-answers";
import { rssXml, RSS_SIZE, sitemapIndexXml, sitemapXml, type Enclosure } from "./feeds/crawl-feeds";
import type { FeedTitle } from "./feeds/source";
import { episodeMedia } from "../shared/episodes";
import { parseMediaPath } from "./media/serve";
import { feedSource, sitemapPartTitles, sitemapParts } from "./feeds/d1-source";

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

/**
 * Title and episode pages per sitemap part. The protocol allows 50,000 URLs or 50 MB per file;
 * what bounds a part here is the worker: each part is rendered whole (every title's entry parsed,
 * its video entries written, ~1 KB of XML per page), so 1,000 pages keep one render at a few ms
 * of CPU (the free plan allows 10 ms) and about 1 MB of XML. Above one part's worth of pages,
 * /sitemap.xml becomes a sitemap index of /sitemap-N.xml (20 parts at 10,000 generated titles);
 * below it, it stays the plain sitemap.
 */
export const SITEMAP_PART_URLS = 1000;

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /profile", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}

const configOfRequest = (c: AppContext) => siteConfigOf(c.env, c.req.url);
// Browsers and crawlers 45 s, the edge a day under a key that changes with the catalogue (decision 0075).
const CACHE = "public, max-age=45, s-maxage=86400";
/** The feed is polled: fifteen minutes. */
const RSS_CACHE = "public, max-age=45, s-maxage=900";

const XML = "application/xml; charset=utf-8";

/** GET /sitemap.xml: the sitemap, or the index of its parts when the catalogue has more than one part of pages. */
export function sitemapHandler(c: AppContext): Promise<Response> {
  return cachedText(c, "sitemap", CACHE, async () => {
    const { origin } = configOfRequest(c);
    const parts = await sitemapParts(c.env.DB, SITEMAP_PART_URLS);
    if (parts.length > 1) return { body: sitemapIndexXml(origin, parts), contentType: XML };
    const titles = parts.length === 1 ? await sitemapPartTitles(c.env.DB, 1, SITEMAP_PART_URLS) : [];
    return { body: sitemapXml(origin, sitemapPaths(), titles), contentType: XML };
  });
}

/** GET /sitemap-N.xml: part N (the site's own pages go in part 1); a part that does not exist is a 404, never cached. */
export function sitemapPartHandler(c: AppContext): Promise<Response> {
  const part = Number(/^sitemap-([1-9][0-9]{0,5})\.xml$/.exec(c.req.param("file") ?? "")?.[1] ?? 0);
  return cachedText(c, `sitemap-${part}`, CACHE, async () => {
    const titles = part > 0 ? await sitemapPartTitles(c.env.DB, part, SITEMAP_PART_URLS) : [];
    if (titles.length === 0) return null;
    return { body: sitemapXml(configOfRequest(c).origin, part === 1 ? sitemapPaths() : [], titles), contentType: XML };
  });
}

export const robotsHandler = (c: AppContext) => c.text(robotsTxt(configOfRequest(c).origin), 200, { "Cache-Control": CACHE });

/** GET /rss.xml: the latest 30 titles. */
/**
 * Each title's enclosure: its (first episode's) progressive MP4, `/{N}.mp4`, with the size R2
 * holds for it (one `head` per title, in parallel). A title whose file is not in the bucket gets
 * none: the length is never guessed.
 */
async function enclosuresOf(env: Env, origin: string, titles: readonly FeedTitle[]): Promise<Map<string, Enclosure>> {
  const found = await Promise.all(
    titles.map(async ({ video }): Promise<[string, Enclosure] | null> => {
      const path = episodeMedia(video, 1)?.videoFile;
      const file = path ? parseMediaPath(path) : null;
      if (!path || !file) return null;
      const object = await env.MEDIA.head(file.key);
      return object ? [video.id, { url: origin + path, length: object.size }] : null;
    }),
  );
  return new Map(found.filter((entry) => entry !== null));
}

export async function rssHandler(c: AppContext): Promise<Response> {
  // The feed names the site: its name as the 站点设置 have it now.
  const config = await siteConfigFor(c);
  const { items } = await feedSource(c.env).titles({ offset: 0, limit: RSS_SIZE });
  const enclosures = await enclosuresOf(c.env, config.origin, items);
  const channel = {
    origin: config.origin,
    siteName: config.siteName,
    description: `${config.siteName}：免费在线观看最新电影、热门电视剧、综艺节目与精选纪录片。`,
  };
  return c.body(rssXml(channel, items, Date.now(), enclosures), 200, { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": RSS_CACHE });
}
