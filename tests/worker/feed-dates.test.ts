// Feed dates and enclosures as feed readers and incremental collectors read them (issue 34): a
// title keeps the time it was first published and the time it last changed — a re-import of an
// unchanged title moves neither — and RSS pubDate, the sitemap's dates, vod_time and `h=` use
// them; every RSS item carries its progressive MP4 with the real size R2 holds.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { importRows, type TitleRow } from "../../shared/catalogue/import-plan";
import { d1CatalogueDb } from "../../worker/catalogue/import-db";
import { episodeMedia } from "../../shared/episodes";
import type { Video } from "../../shared/catalogue/types";
import { vodTime, type JsonAnswer } from "../../worker/feeds/maccms";
import worker from "../../worker/index";

const BASE = "https://feeds.test";
const HOUR = 3_600_000;

async function get(path: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(BASE + path), { ...env, PAGE_CACHE: "off" }, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status, path).toBe(200);
  return res;
}

interface Dates {
  id: string;
  added_at: number;
  updated_at: number;
}
const datesOf = async () => (await env.DB.prepare("SELECT id, added_at, updated_at FROM titles ORDER BY id").all<Dates>()).results;
const catalogueRows = () => JSON.parse(env.TEST_CATALOGUE_ROWS ?? "[]") as TitleRow[];

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, isArray: (name) => ["item", "url"].includes(name) });

interface RssItem {
  link: string;
  pubDate: string;
  enclosure?: { "@url": string; "@length": string; "@type": string };
}
interface SitemapUrl {
  loc: string;
  lastmod?: string;
  "video:video"?: { "video:publication_date": string };
}

describe("a title's dates", () => {
  it("survive a second import of the same file, and only a changed title's last-change time moves; the feeds read them", async () => {
    const db = d1CatalogueDb(env.DB);
    const published = Date.now() - 1000 * HOUR;
    // The catalogue as if first imported 1000 hours ago (the test setup imported it moments ago).
    await env.DB.prepare("UPDATE catalogue_titles SET added_at = ?1, updated_at = ?1").bind(published).run();
    const before = await datesOf();

    const rows = catalogueRows();
    const again = await importRows(db, rows, Date.now());
    expect(again).toMatchObject({ added: 0, changed: 0, removed: 0 });
    expect(await datesOf()).toEqual(before);

    // One title's entry changes (a new description): only its last-change time moves.
    const changedAt = Date.now();
    const target = rows[4];
    const entry = JSON.parse(target.entry) as Video;
    const edited: TitleRow = {
      ...target,
      content_hash: `${target.content_hash}-edited`,
      entry: JSON.stringify({ ...entry, description: `${entry.description}（修订）` }),
    };
    expect(
      await importRows(
        db,
        rows.map((r) => (r.id === target.id ? edited : r)),
        changedAt,
      ),
    ).toMatchObject({ changed: 1, added: 0 });
    const after = await datesOf();
    expect(after.find((d) => d.id === target.id)).toEqual({ id: target.id, added_at: published, updated_at: changedAt });
    expect(after.filter((d) => d.id !== target.id)).toEqual(before.filter((d) => d.id !== target.id));

    // The provide API: h=24 finds only the changed title, and vod_time is its last change.
    const recent = await (await get("/api.php/provide/vod/?h=24")).json<JsonAnswer>();
    expect(recent.list.map((row) => row.vod_id)).toEqual([Number(target.id.replace("video_", ""))]);
    expect(recent.list[0].vod_time).toBe(vodTime(changedAt));
    const all = await (await get("/api.php/provide/vod/?pagesize=100")).json<JsonAnswer>();
    expect(new Set(all.list.slice(1).map((row) => row.vod_time))).toEqual(new Set([vodTime(published)]));

    // RSS: newest change first, each dated when it was first published.
    const rss = parser.parse(await (await get("/rss.xml")).text()) as { rss: { channel: { item: RssItem[] } } };
    const items = rss.rss.channel.item;
    expect(items[0].link).toBe(`${BASE}/video/${target.id}`);
    expect(new Set(items.map((item) => item.pubDate))).toEqual(new Set([new Date(published).toUTCString()]));

    // The sitemap: publication_date is the first publication, lastmod the last change.
    const sitemap = parser.parse(await (await get("/sitemap-1.xml")).text()) as { urlset: { url: SitemapUrl[] } };
    const pageOf = (id: string) => sitemap.urlset.url.find((u) => u.loc === `${BASE}/video/${id}`);
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
    expect(pageOf(target.id)).toMatchObject({ lastmod: iso(changedAt), "video:video": { "video:publication_date": iso(published) } });
    expect(pageOf(rows[0].id)).toMatchObject({ lastmod: iso(published), "video:video": { "video:publication_date": iso(published) } });
  });
});

describe("RSS enclosures", () => {
  it("every item carries its progressive MP4 with the size R2 holds and type video/mp4; a file missing from R2 gets none", async () => {
    const { items: titles } = { items: catalogueRows().map((r) => JSON.parse(r.entry) as Video) };
    const files = new Map(titles.map((video) => [video.id, episodeMedia(video, 1)?.videoFile ?? ""]));
    const missing = titles[titles.length - 1].id;
    // Objects of distinct sizes (none of the title's real files are in the worker tests' bucket).
    const sizes = new Map<string, number>();
    for (const [i, video] of titles.entries()) {
      if (video.id === missing) continue;
      sizes.set(video.id, 1000 + 37 * i);
      await env.MEDIA.put(files.get(video.id)!.slice(1), new Uint8Array(1000 + 37 * i));
    }
    await env.MEDIA.delete(files.get(missing)!.slice(1));
    try {
      // Feed order does not matter here: make the title without a file one of the feed's 30.
      await env.DB.prepare("UPDATE catalogue_titles SET updated_at = updated_at + 1 WHERE id = ?").bind(missing).run();
      const rss = parser.parse(await (await get("/rss.xml")).text()) as { rss: { channel: { item: RssItem[] } } };
      const items = rss.rss.channel.item;
      expect(items.length).toBeGreaterThan(1);
      for (const item of items) {
        const id = item.link.replace(`${BASE}/video/`, "");
        if (id === missing) {
          expect(item.enclosure, id).toBeUndefined();
          continue;
        }
        expect(item.enclosure, id).toEqual({ "@url": BASE + files.get(id), "@length": String(sizes.get(id)), "@type": "video/mp4" });
      }
      expect(items.some((item) => item.link.endsWith(missing))).toBe(true);
    } finally {
      for (const file of files.values()) await env.MEDIA.delete(file.slice(1));
    }
  });
});
