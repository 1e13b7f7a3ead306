// /rss.xml and the video entries of /sitemap.xml as crawlers and feed readers read them.
import { SELF } from "cloudflare:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import { RSS_SIZE } from "../../worker/feeds/crawl-feeds";

const BASE = "https://feeds.test";

interface SitemapVideo {
  "video:thumbnail_loc": string;
  "video:title": string;
  "video:description": string;
  "video:content_loc": string;
  "video:duration": string;
  "video:publication_date": string;
  "video:tag"?: string[];
}
interface SitemapDoc {
  urlset: { "@xmlns": string; "@xmlns:video": string; url: Array<{ loc: string; "video:video"?: SitemapVideo }> };
}
interface RssItem {
  title: string;
  link: string;
  guid: { "#text": string; "@isPermaLink": string };
  pubDate: string;
  description: string;
  category: string[];
  "media:thumbnail": { "@url": string };
}
interface RssDoc {
  rss: { "@version": string; channel: { title: string; link: string; description: string; language: string; item: RssItem[] } };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  isArray: (name) => ["url", "item", "category", "video:tag"].includes(name),
});

async function xmlOf(path: string): Promise<{ res: Response; xml: string }> {
  const res = await SELF.fetch(BASE + path);
  return { res, xml: await res.text() };
}

describe("video sitemap", () => {
  it("is well-formed XML with one video:video per title and per episode, episodes at /video/{id}/{n}", async () => {
    const { res, xml } = await xmlOf("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml) as SitemapDoc;
    expect(doc.urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    expect(doc.urlset["@xmlns:video"]).toBe("http://www.google.com/schemas/sitemap-video/1.1");
    const withVideo = doc.urlset.url.filter((u) => u["video:video"]);
    expect(withVideo).toHaveLength(videos.reduce((n, v) => n + (v.episodes?.length ?? 1), 0));
    for (const { loc, "video:video": video } of withVideo) {
      expect(loc).toMatch(/^https:\/\/feeds\.test\/video\/video_\d{3}(?:\/\d+)?$/);
      expect(video!["video:thumbnail_loc"]).toMatch(/^https:\/\/feeds\.test\/\d+\.webp$/);
      expect(video!["video:content_loc"]).toMatch(/^https:\/\/feeds\.test\/\d+\.mp4$/);
      expect(video!["video:title"].length).toBeGreaterThan(0);
      expect(video!["video:description"].length).toBeGreaterThan(0);
      const seconds = Number(video!["video:duration"]);
      expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 28_800, loc).toBe(true);
      expect(video!["video:publication_date"]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      expect((video!["video:tag"] ?? []).length).toBeLessThanOrEqual(32);
    }
    // A series: episode 1 is the title's page, the others have their own, each with its own media.
    const series = videos.find((v) => v.id === "video_003")!;
    const episodes = withVideo.filter((u) => u.loc === `${BASE}/video/video_003` || u.loc.startsWith(`${BASE}/video/video_003/`));
    expect(episodes.map((u) => u.loc)).toEqual(series.episodes!.map((_, i) => (i === 0 ? `${BASE}/video/video_003` : `${BASE}/video/video_003/${i + 1}`)));
    expect(episodes[1]["video:video"]!["video:content_loc"]).toBe(`${BASE}/10302.mp4`);
    expect(episodes[1]["video:video"]!["video:title"]).toBe("槐树巷的春天 第02集");
    const variety = withVideo.find((u) => u.loc === `${BASE}/video/video_004/2`);
    expect(variety?.["video:video"]?.["video:title"]).toBe("声声入夏 第2期：意外来客");
  });
});

describe("RSS", () => {
  it("/rss.xml is RSS 2.0 with the latest 30 titles, absolute links and RFC 822 dates", async () => {
    const { res, xml } = await xmlOf("/rss.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/rss+xml; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toContain("max-age=");
    expect(XMLValidator.validate(xml)).toBe(true);
    const { rss } = parser.parse(xml) as RssDoc;
    expect(rss["@version"]).toBe("2.0");
    expect(rss.channel).toMatchObject({ title: "影视站", link: `${BASE}/`, language: "zh-CN" });
    const items = rss.channel.item;
    expect(items).toHaveLength(Math.min(RSS_SIZE, videos.length));
    const dates = items.map((item) => Date.parse(item.pubDate));
    expect(dates.every((d) => !Number.isNaN(d))).toBe(true);
    expect(dates).toEqual(dates.slice().sort((a, b) => b - a));
    for (const item of items) {
      expect(item.pubDate).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(item.link).toMatch(/^https:\/\/feeds\.test\/video\/video_\d{3}$/);
      expect(item.guid["#text"]).toBe(item.link);
      expect(item["media:thumbnail"]["@url"]).toMatch(/^https:\/\/feeds\.test\/\d+\.webp$/);
      const video = videos.find((v) => item.link.endsWith(v.id))!;
      expect(item.title.startsWith(video.title)).toBe(true);
      expect(item.description).toBe(video.description);
      expect(item.category).toEqual(video.category);
    }
  });
});
