/**
 * What crawlers and feed readers read: the sitemap with a `video:video` entry per title and
 * episode (episode 1 at /video/{id}, episode N at /video/{id}/{N}), and the RSS feed of the
 * latest titles. Pure builders; worker/seo.ts serves them.
 */
import { normaliseMediaPath } from "../../shared/catalogue/categories";
import { durationSeconds } from "../../shared/format";
import { episodeNames } from "./maccms";
import { xmlText, cdata } from "./maccms";
import type { FeedTitle } from "./source";

/** Google reads at most 32 tags and durations up to 8 hours. */
const MAX_TAGS = 32;
const MAX_DURATION = 28_800;

export interface EpisodePage {
  path: string;
  name: string;
  videoFile: string;
  duration: string;
}

/** A title's playable pages: one for a film, one per episode for a series. */
export function episodePages(title: FeedTitle): EpisodePage[] {
  const { video } = title;
  const base = `/video/${video.id}`;
  if (!video.episodes) return [{ path: base, name: video.title, videoFile: video.videoFile, duration: video.duration }];
  const names = episodeNames(video);
  return video.episodes.map((episode, i) => ({
    path: i === 0 ? base : `${base}/${i + 1}`,
    name: `${video.title} ${names[i]}`,
    videoFile: episode.videoFile,
    duration: episode.duration,
  }));
}

const isoDate = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");

function videoEntry(origin: string, title: FeedTitle, page: EpisodePage): string {
  const { video } = title;
  const seconds = Math.min(MAX_DURATION, Math.max(1, durationSeconds(page.duration)));
  const tags = [...new Set([...video.category, ...video.tags])].slice(0, MAX_TAGS);
  return (
    `<url><loc>${xmlText(origin + encodeURI(page.path))}</loc><lastmod>${isoDate(title.updatedAt)}</lastmod><video:video>` +
    `<video:thumbnail_loc>${xmlText(origin + normaliseMediaPath(video.coverImage))}</video:thumbnail_loc>` +
    `<video:title>${xmlText(page.name)}</video:title>` +
    `<video:description>${xmlText(video.description)}</video:description>` +
    `<video:content_loc>${xmlText(origin + normaliseMediaPath(page.videoFile))}</video:content_loc>` +
    `<video:duration>${seconds}</video:duration>` +
    `<video:rating>${(video.rating / 2).toFixed(1)}</video:rating>` +
    `<video:publication_date>${isoDate(title.publishedAt)}</video:publication_date>` +
    `<video:family_friendly>yes</video:family_friendly>` +
    tags.map((tag) => `<video:tag>${xmlText(tag)}</video:tag>`).join("") +
    `</video:video></url>`
  );
}

/** The sitemap: the site's pages (changing daily), then every title's and episode's page with its video. */
export function sitemapXml(origin: string, pagePaths: readonly string[], titles: readonly FeedTitle[]): string {
  const pages = pagePaths.map((p) => `<url><loc>${xmlText(origin + encodeURI(p))}</loc><changefreq>daily</changefreq></url>`).join("");
  const videos = titles.flatMap((title) => episodePages(title).map((page) => videoEntry(origin, title, page))).join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">${pages}${videos}</urlset>`
  );
}

/** One part of a sitemap index: its number (/sitemap-N.xml) and its titles' latest update. */
export interface SitemapPart {
  part: number;
  lastModified: number;
}

/** The sitemap index: one `<sitemap>` per part, with the latest update of its titles. */
export function sitemapIndexXml(origin: string, parts: readonly SitemapPart[]): string {
  const entries = parts
    .map((p) => `<sitemap><loc>${xmlText(`${origin}/sitemap-${p.part}.xml`)}</loc><lastmod>${isoDate(p.lastModified)}</lastmod></sitemap>`)
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</sitemapindex>`;
}

/** How many titles the RSS feed carries. */
export const RSS_SIZE = 30;

export interface RssChannel {
  origin: string;
  siteName: string;
  description: string;
}

/** A title's progressive MP4 as an RSS enclosure: its absolute URL and its size in bytes. */
export interface Enclosure {
  url: string;
  length: number;
}

/**
 * RSS 2.0 of the latest titles (newest update first), each linking to its page with its cover,
 * dated when it was first published, with its progressive MP4 as the enclosure where
 * `enclosures` (by title id) has it.
 */
export function rssXml(channel: RssChannel, titles: readonly FeedTitle[], now: number, enclosures: ReadonlyMap<string, Enclosure> = new Map()): string {
  const { origin } = channel;
  const items = titles
    .map(({ video, publishedAt }) => {
      const enclosure = enclosures.get(video.id);
      const link = xmlText(`${origin}/video/${video.id}`);
      const cover = xmlText(origin + normaliseMediaPath(video.coverImage));
      const status = video.status ? `（${video.status}）` : "";
      return (
        `<item><title>${cdata(video.title + status)}</title><link>${link}</link><guid isPermaLink="true">${link}</guid>` +
        `<pubDate>${new Date(publishedAt).toUTCString()}</pubDate>` +
        video.category.map((c) => `<category>${xmlText(c)}</category>`).join("") +
        `<description>${cdata(video.description)}</description>` +
        (enclosure ? `<enclosure url="${xmlText(enclosure.url)}" length="${enclosure.length}" type="video/mp4"/>` : "") +
        `<media:thumbnail url="${cover}"/></item>`
      );
    })
    .join("");
  const lastBuild = titles.length > 0 ? Math.max(...titles.map((t) => t.updatedAt)) : now;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><channel>` +
    `<title>${xmlText(channel.siteName)}</title><link>${xmlText(origin + "/")}</link>` +
    `<description>${xmlText(channel.description)}</description><language>zh-CN</language>` +
    `<lastBuildDate>${new Date(lastBuild).toUTCString()}</lastBuildDate>` +
    `<atom:link href="${xmlText(origin + "/rss.xml")}" rel="self" type="application/rss+xml"/>` +
    `${items}</channel></rss>`
  );
}
