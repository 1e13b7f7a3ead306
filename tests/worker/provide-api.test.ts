/// <reference types="vite/client" />
// The MacCMS provide API (/api.php/provide/vod/) as a TV-box app reads it: the answers have the
// shape of a real MacCMS site's (tests/fixtures/maccms/), JSON and XML, with pagination and the
// filters apps send (wd, ids, h, t, year, isend, from).
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import type { AppEnv } from "../../worker/app-env";
import type { DetailRow, JsonAnswer, ListRow } from "../../worker/feeds/maccms";
import { provideApi } from "../../worker/feeds/provide";
import worker from "../../worker/index";
import { toFeedTitle } from "../../worker/feeds/source";
import { memorySource } from "../reference/memory-source";
import detailFixture from "../fixtures/maccms/detail.json";
import listFixture from "../fixtures/maccms/list.json";
import detailXmlFixture from "../fixtures/maccms/detail.xml?raw";
import listXmlFixture from "../fixtures/maccms/list.xml?raw";

const BASE = "https://tvbox.test";
const API = "/api.php/provide/vod/";
/** The edge cache is tested once on its own; other answers are rendered fresh. */
const NO_CACHE = { PAGE_CACHE: "off" };

async function get(path: string, bindings: Partial<Env> = NO_CACHE, app: Hono<AppEnv> = worker): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(BASE + path), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function json(path: string, app: Hono<AppEnv> = worker): Promise<JsonAnswer> {
  const res = await get(path, NO_CACHE, app);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
  return await res.json<JsonAnswer>();
}

const typeOf = (value: unknown) => (Array.isArray(value) ? "array" : typeof value);
/** Each key of `ours` that the MacCMS row also has holds a value of the same JSON type. */
function expectSameTypes(ours: object, theirs: object) {
  for (const [key, value] of Object.entries(ours)) {
    if (key in theirs) expect(typeOf(value), key).toBe(typeOf((theirs as Record<string, unknown>)[key]));
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  isArray: (name) => ["video", "ty", "dd"].includes(name),
});

interface XmlVideo {
  id: string;
  name: string;
  pic?: string;
  state?: string;
  dl?: { dd: Array<{ "@flag": string; "#text": string }> };
}
interface XmlDoc {
  rss: {
    "@version": string;
    list: { "@page": string; "@pagesize": string; "@recordcount": string; video: XmlVideo[] };
    class?: { ty: Array<{ "@id": string; "#text": string }> };
  };
}
const parseXml = (xml: string) => parser.parse(xml) as XmlDoc;

/** Element names of a parsed XML object, recursively, without attribute names or values. */
function shape(node: unknown): unknown {
  if (Array.isArray(node)) return shape(node[0]);
  if (typeof node !== "object" || node === null) return "text";
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== "#text")
      .map(([k, v]) => [k, k.startsWith("@") ? "attr" : shape(v)]),
  );
}

describe("JSON answers in MacCMS's format", () => {
  it("the bare call gives the first list page with every title counted and the categories (TVBox's tabs)", async () => {
    for (const path of [API, API.slice(0, -1)]) {
      const body = await json(path);
      expect(Object.keys(body).sort()).toEqual(Object.keys(listFixture).sort());
      expectSameTypes(body, listFixture);
      expect(body).toMatchObject({ code: 1, msg: "数据列表", page: 1, limit: "20", total: videos.length, pagecount: Math.ceil(videos.length / 20) });
      expect(body.list).toHaveLength(20);
      expect(Object.keys(body.list[0]).sort()).toEqual(Object.keys(listFixture.list[0]).sort());
      expectSameTypes(body.list[0], listFixture.list[0]);
      expect(body.class?.map((c) => c.type_name)).toEqual(expect.arrayContaining(["电影", "电视剧", "综艺", "纪录片"]));
      expectSameTypes(body.class![0], listFixture.class[0]);
    }
  });

  it("list rows are newest first, with the title's pinyin, time and remarks", async () => {
    const { list } = await json(API + "?ac=list&pagesize=100");
    expect(list).toHaveLength(videos.length);
    const times = list.map((row) => row.vod_time);
    expect(times).toEqual(times.slice().sort().reverse());
    const film = list.find((row) => row.vod_id === 1) as ListRow;
    expect(film).toMatchObject({
      vod_name: "雾港来信",
      type_id: 1,
      type_name: "电影",
      vod_en: "wuganglaixin",
      vod_remarks: "HD",
      vod_play_from: "m3u8,mp4,line2m3u8",
    });
    expect(film.vod_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("detail rows carry every field the contract names, with MacCMS's types", async () => {
    const { list, class: classes } = await json(API + "?ac=detail&ids=3");
    expect(classes).toBeUndefined();
    expect(list).toHaveLength(1);
    const row = list[0] as DetailRow;
    expectSameTypes(row, detailFixture.list[0]);
    for (const key of ["vod_pic", "vod_actor", "vod_director", "vod_area", "vod_lang", "vod_year", "vod_class", "vod_blurb", "vod_content"])
      expect(row, key).toHaveProperty(key);
    expect(row).toMatchObject({ vod_id: 3, vod_name: "槐树巷的春天", type_name: "电视剧", vod_remarks: "全6集", vod_serial: "6", vod_total: 6, vod_isend: 1 });
    expect(row.vod_pic).toBe(`${BASE}/3.webp`);
    expect(row.vod_content).toMatch(/^<p>.+<\/p>$/);
  });

  it("vod_play_url lists every episode's master playlist, then the MP4s, as absolute URLs", async () => {
    const row = (await json(API + "?ac=videolist&ids=3")).list[0] as DetailRow;
    expect(row.vod_play_from).toBe("m3u8$$$mp4");
    expect(row.vod_play_server.split("$$$")).toHaveLength(2);
    const [hls, mp4] = row.vod_play_url.split("$$$").map((source) => source.split("#").map((episode) => episode.split("$")));
    expect(hls).toHaveLength(6);
    expect(hls[0]).toEqual(["第01集", `${BASE}/stream/3/master.m3u8`]);
    expect(hls[1]).toEqual(["第02集", `${BASE}/stream/10302/master.m3u8`]);
    expect(mp4[5]).toEqual(["第06集", `${BASE}/10306.mp4`]);
    // A film has one episode, 正片; from= keeps only the sources asked for.
    const film = (await json(API + "?ac=detail&ids=1&from=mp4")).list[0] as DetailRow;
    expect(film.vod_play_from).toBe("mp4");
    expect(film.vod_play_url).toBe(`正片$${BASE}/1.mp4`);
  });

  it("the playlist URLs of a row are served by this site", async () => {
    const row = (await json(API + "?ac=detail&ids=1")).list[0] as DetailRow;
    const url = new URL(row.vod_play_url.split("$$$")[0].split("$")[1]);
    expect(url.origin).toBe(BASE);
    const res = await SELF.fetch(BASE + url.pathname);
    // The stream route answers for this path (the file itself exists once the media are packed).
    expect([200, 404]).toContain(res.status);
    expect(res.headers.get("Content-Type") ?? "").not.toContain("text/html");
    await res.arrayBuffer();
  });

  it("pages: pg and pagesize (at most 100, limit is a string), past the end an empty page", async () => {
    const all = (await json(API + "?pagesize=100")).list.map((row) => row.vod_id);
    const second = await json(API + "?pg=2&pagesize=7");
    expect(second).toMatchObject({ page: 2, limit: "7", pagecount: Math.ceil(videos.length / 7) });
    expect(second.list.map((row) => row.vod_id)).toEqual(all.slice(7, 14));
    expect((await json(API + "?pagesize=500")).limit).toBe("100");
    expect((await json(API + "?pagesize=abc&pg=-3")).limit).toBe("20");
    const beyond = await json(API + "?pg=99");
    expect(beyond.page).toBe(99);
    expect(beyond.list).toEqual([]);
  });

  it("wd finds titles by name (and cast), t filters a category with its sub-categories", async () => {
    const found = await json(API + "?ac=detail&wd=" + encodeURIComponent("雾港"));
    expect(found.list.map((row) => row.vod_name)).toEqual(["雾港来信"]);
    expect((found.list[0] as DetailRow).vod_pic).toBe(`${BASE}/1.webp`);
    expect((await json(API + "?wd=" + encodeURIComponent("没有这部片子"))).list).toEqual([]);
    const series = await json(API + "?ac=detail&t=2&pagesize=100");
    const subTypes = series.class ?? (await json(API)).class!;
    const allowed = new Set([2, ...subTypes.filter((c) => c.type_pid === 2).map((c) => c.type_id)]);
    expect(series.total).toBeGreaterThan(0);
    expect(series.list.every((row) => allowed.has(row.type_id))).toBe(true);
    const shorts = await json(API + "?t=7&pagesize=100");
    expect(shorts.list.map((row) => row.type_name)).toEqual(shorts.list.map(() => "短剧"));
    expect(shorts.total).toBe(videos.filter((v) => v.category.includes("短剧")).length);
  });

  it("ids gives those titles (unknown ids left out); year and isend filter", async () => {
    const some = await json(API + "?ac=detail&ids=1,7,999999");
    expect(some.list.map((row) => row.vod_id).sort()).toEqual([1, 7]);
    expect((some.list.find((row) => row.vod_id === 7) as DetailRow).vod_isend).toBe(0);
    const range = await json(API + "?ac=detail&year=2020-2022&pagesize=100");
    expect(range.total).toBe(videos.filter((v) => v.year >= 2020 && v.year <= 2022).length);
    expect(range.list.every((row) => Number((row as DetailRow).vod_year) >= 2020 && Number((row as DetailRow).vod_year) <= 2022)).toBe(true);
    const updating = await json(API + "?ac=detail&isend=0&pagesize=100");
    expect(updating.total).toBeGreaterThan(0);
    expect(updating.list.every((row) => (row as DetailRow).vod_isend === 0)).toBe(true);
  });

  it("h keeps titles updated in the last h hours (the in-memory source)", async () => {
    const now = Date.now();
    const [a, b, c] = videos;
    const source = memorySource([toFeedTitle(a, now - 3_600_000, ""), toFeedTitle(b, now - 30 * 3_600_000, ""), toFeedTitle(c, now - 100 * 3_600_000, "")]);
    const app = new Hono<AppEnv>().route(
      "/api.php/provide",
      provideApi(() => source),
    );
    expect((await json(API + "?h=24", app)).list.map((row) => row.vod_id)).toEqual([1]);
    expect((await json(API + "?h=48", app)).list.map((row) => row.vod_id)).toEqual([1, 2]);
    expect((await json(API + "?h=1000", app)).total).toBe(3);
  });

  it("h on the site's D1 catalogue: the SQL window is in milliseconds like updated_at", async () => {
    // The worker tests' D1 holds the catalogue file, imported moments ago (tests/worker/setup.ts).
    expect((await json(API + "?h=1")).total).toBe(videos.length);
    const saved = await env.DB.prepare("SELECT id, updated_at FROM titles").all<{ id: string; updated_at: number }>();
    const setUpdated = (rows: ReadonlyArray<{ id: string; updated_at: number }>) =>
      env.DB.batch(rows.map((r) => env.DB.prepare("UPDATE catalogue_titles SET updated_at = ? WHERE id = ?").bind(r.updated_at, r.id)));
    const now = Date.now();
    const hoursAgo = (h: number) => now - h * 3_600_000;
    try {
      // Every title last updated 1000 hours ago, but three: 1, 30 and 100 hours ago.
      await env.DB.prepare("UPDATE catalogue_titles SET updated_at = ?").bind(hoursAgo(1000)).run();
      const [a, b, c] = videos;
      await setUpdated([
        { id: a.id, updated_at: hoursAgo(1) },
        { id: b.id, updated_at: hoursAgo(30) },
        { id: c.id, updated_at: hoursAgo(100) },
      ]);
      const ids = async (query: string) => (await json(API + query)).list.map((row) => row.vod_id);
      expect(await ids("?h=24")).toEqual([1]);
      expect(await ids("?h=48")).toEqual([1, 2]);
      expect(await ids("?h=200&ac=detail")).toEqual([1, 2, 3]);
      expect((await json(API + "?h=200")).total).toBe(3);
      expect((await json(API + "?h=2000")).total).toBe(videos.length);
    } finally {
      await setUpdated(saved.results);
    }
  });

  it("answers are edge-cached; equivalent URLs share an entry", async () => {
    const first = await get(API + "?ac=detail&ids=2&pg=1", {});
    await first.arrayBuffer();
    expect(first.headers.get("Cache-Control")).toContain("s-maxage=");
    const second = await get(API + "?pg=01&ids=2&ac=detail", {});
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(await second.json<JsonAnswer>()).toMatchObject({ total: 1, list: [{ vod_id: 2 }] });
    expect(second.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });
});

describe("XML answers in MacCMS's format (at=xml and the /at/xml/ path)", () => {
  it("list mode: the same elements as a MacCMS site, with the categories", async () => {
    for (const path of [API + "?at=xml", API + "at/xml/", API + "at/xml"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
      const xml = await res.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const doc = parseXml(xml);
      expect(shape(doc)).toEqual(shape(parseXml(listXmlFixture)));
      expect(doc.rss["@version"]).toBe("5.1");
      expect(doc.rss.list).toMatchObject({ "@page": "1", "@pagesize": "20", "@recordcount": String(videos.length) });
      expect(doc.rss.list.video).toHaveLength(20);
      expect(doc.rss.class?.ty.map((t) => t["#text"])).toContain("纪录片");
    }
  });

  it("detail mode: pic, play lists per source in <dl><dd flag>, no categories", async () => {
    const xml = await (await get(API + "at/xml/?ac=detail&ids=3")).text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parseXml(xml);
    expect(shape(doc)).toEqual(shape(parseXml(detailXmlFixture)));
    const video = doc.rss.list.video[0];
    expect(video).toMatchObject({ id: "3", name: "槐树巷的春天", pic: `${BASE}/3.webp`, state: "6" });
    expect(video.dl?.dd.map((dd) => dd["@flag"])).toEqual(["m3u8", "mp4"]);
    expect(video.dl?.dd[0]["#text"].split("#")[0]).toBe(`第01集$${BASE}/stream/3/master.m3u8`);
    const search = parseXml(await (await get(API + "?at=xml&ac=detail&wd=" + encodeURIComponent("雾港"))).text());
    expect(search.rss.list.video.map((v) => v.name)).toEqual(["雾港来信"]);
  });
});
