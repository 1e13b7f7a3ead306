import { MAIN_CATEGORIES, videos } from "../shared/catalogue/index";
import { INFO_PAGE_TYPES } from "../shared/content/info-page-types";
import { siteConfigFrom } from "../shared/site-config";
import type { AppContext } from "./app-env";

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Every public page a crawler should know: home, categories, listings, info pages, all videos. */
export function sitemapPaths(): string[] {
  return [
    "/",
    ...MAIN_CATEGORIES.map((c) => `/category/${c}`),
    "/category/all",
    "/latest",
    "/top-rated",
    ...INFO_PAGE_TYPES.map((t) => `/info/${t}`),
    ...videos.map((v) => `/video/${v.id}`),
  ];
}

export function sitemapXml(origin: string): string {
  const urls = sitemapPaths()
    .map((p) => `<url><loc>${xmlEscape(origin + encodeURI(p))}</loc>${p.startsWith("/video/") ? "" : "<changefreq>daily</changefreq>"}</url>`)
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
}

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /profile", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}

const originOf = (c: AppContext) => siteConfigFrom(c.env, new URL(c.req.url).origin).origin;
const CACHE = "public, max-age=3600, s-maxage=86400";

export const sitemapHandler = (c: AppContext) =>
  c.body(sitemapXml(originOf(c)), 200, { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": CACHE });
export const robotsHandler = (c: AppContext) => c.text(robotsTxt(originOf(c)), 200, { "Cache-Control": CACHE });
