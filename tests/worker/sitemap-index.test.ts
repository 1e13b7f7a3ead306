// /sitemap.xml as a sitemap index of /sitemap-N.xml parts once the catalogue has more than one
// part's worth of pages (worker/seo.ts SITEMAP_PART_URLS), and the 404 of a part that does not exist.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import app from "../../worker/index";
import { SITEMAP_PART_URLS, sitemapPaths } from "../../worker/seo";

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, isArray: (name) => ["url", "sitemap"].includes(name) });

interface UrlSet {
  urlset?: { url: Array<{ loc: string }> };
  sitemapindex?: { "@xmlns": string; sitemap: Array<{ loc: string; lastmod: string }> };
}

/** One request through the whole app, its cache writes awaited (so the next request can hit). */
async function get(url: string): Promise<{ res: Response; text: string }> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(url), env, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

const builtInPages = videos.reduce((n, v) => n + (v.episodes?.length ?? 1), 0);

describe("a catalogue within one part", () => {
  const BASE = "https://small.test";

  it("/sitemap.xml stays the plain sitemap, cached at the edge", async () => {
    const first = await get(BASE + "/sitemap.xml");
    expect(first.res.status).toBe(200);
    const doc = parser.parse(first.text) as UrlSet;
    expect(doc.sitemapindex).toBeUndefined();
    expect(doc.urlset?.url).toHaveLength(sitemapPaths().length + builtInPages);
    expect(first.res.headers.get("X-Cache")).toBe("MISS");
    expect((await get(BASE + "/sitemap.xml")).res.headers.get("X-Cache")).toBe("HIT");
  });

  it("a part past the last is a 404 that is not cached", async () => {
    for (let i = 0; i < 2; i++) {
      const { res } = await get(BASE + "/sitemap-2.xml");
      expect(res.status).toBe(404);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("X-Cache")).toBe("BYPASS");
    }
    expect((await get(BASE + "/sitemap-999.xml")).res.status).toBe(404);
    // Not a part's name at all: the site's 404 page.
    expect((await get(BASE + "/sitemap-0.xml")).res.status).toBe(404);
  });
});

describe("a catalogue of several parts", () => {
  const BASE = "https://large.test";
  const ADDED = 2000;

  it("/sitemap.xml is an index of every part; the parts hold each page once, the site's pages in part 1", async () => {
    // 2,000 more films, copies of video_001 under new ids, written in one statement.
    await env.DB.prepare(
      `INSERT INTO catalogue_titles (id, position, title, title_order, year, rating, duration, area, language, letter, episode_count, added_at, updated_at,
         content_hash, card, entry, search_title, search_pinyin, search_pinyin_flat, search_names, search_names_flat, search_labels, search_description)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       SELECT 'video_' || (1000 + i), 1000 + i, title, title_order, year, rating, duration, area, language, letter, 1, added_at, updated_at + i,
         content_hash, card, json_set(json_remove(entry, '$.episodes'), '$.id', 'video_' || (1000 + i)), search_title, search_pinyin, search_pinyin_flat,
         search_names, search_names_flat, search_labels, search_description
       FROM n, titles WHERE titles.id = 'video_001'`,
    )
      .bind(ADDED)
      .run();
    const total = builtInPages + ADDED;

    const { res, text } = await get(BASE + "/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(XMLValidator.validate(text)).toBe(true);
    const index = (parser.parse(text) as UrlSet).sitemapindex;
    expect(index?.["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const parts = index?.sitemap ?? [];
    expect(parts.length).toBeGreaterThanOrEqual(Math.ceil(total / (SITEMAP_PART_URLS + 10)));
    expect(parts.map((p) => p.loc)).toEqual(parts.map((_, i) => `${BASE}/sitemap-${i + 1}.xml`));
    for (const p of parts) expect(p.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);

    const seen: string[] = [];
    for (const [i, part] of parts.entries()) {
      const answer = await get(part.loc);
      expect(answer.res.status, part.loc).toBe(200);
      expect(XMLValidator.validate(answer.text), part.loc).toBe(true);
      const locs = ((parser.parse(answer.text) as UrlSet).urlset?.url ?? []).map((u) => u.loc);
      const own = locs.filter((l) => !l.includes("/video/"));
      expect(own, part.loc).toHaveLength(i === 0 ? sitemapPaths().length : 0);
      const pages = locs.filter((l) => l.includes("/video/"));
      expect(pages.length, part.loc).toBeGreaterThan(0);
      expect(pages.length, part.loc).toBeLessThan(SITEMAP_PART_URLS + 100);
      seen.push(...pages);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toContain(`${BASE}/video/video_3000`);

    const after = await get(`${BASE}/sitemap-${parts.length + 1}.xml`);
    expect(after.res.status).toBe(404);
    expect(after.res.headers.get("X-Cache")).toBe("BYPASS");
    expect((await get(BASE + "/robots.txt")).text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });
});
