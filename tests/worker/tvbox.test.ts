// /tvbox.json read as TVBox (CatVod's TVBoxOSC and its forks, 影视仓) reads a configuration: the
// keys its loader iterates without checking, a `sites` entry of type 1 whose `api` is then called
// with the parameters the app sends for its tabs, a category, a search and a detail page, and the
// play list parsed into episodes whose URLs play (docs/provide-api.md "/tvbox.json").
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";

const SITE_URL = "https://tv.yingshi.example";
/** The host a TV box happens to reach the site on (a CDN name, an IP): the configuration names SITE_URL all the same. */
const REQUEST_BASE = "https://edge-7.yingshi.test";

async function get(url: string, bindings: Partial<Env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url), { ...env, PAGE_CACHE: "off", ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** What TVBox keeps of a site (ApiConfig.parseJson): `key`, `name`, `type`, `api` required; the flags default to 1. */
interface SiteBean {
  key: string;
  name: string;
  type: number;
  api: string;
  searchable: number;
  quickSearch: number;
  filterable: number;
}

const intOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);

/** The configuration parsed by TVBox's rules: a failure here is a configuration the app refuses to load. */
function parseConfig(text: string): SiteBean[] {
  const json = JSON.parse(text) as Record<string, unknown>;
  // Older builds iterate these without checking they exist (a missing one fails the whole configuration).
  for (const key of ["sites", "parses", "lives", "ads", "ijk"]) expect(Array.isArray(json[key]), key).toBe(true);
  // getIJKCodec falls back to the first group: at least one, each with a group name and its options.
  const ijk = json.ijk as { group: unknown; options: { category: unknown; name: unknown; value: unknown }[] }[];
  expect(ijk.length).toBeGreaterThan(0);
  for (const group of ijk) {
    expect(typeof group.group).toBe("string");
    for (const option of group.options) expect([typeof option.category, typeof option.name, typeof option.value]).toEqual(["number", "string", "string"]);
  }
  return (json.sites as Record<string, unknown>[]).map((site) => {
    for (const key of ["key", "name", "api"]) expect(typeof site[key], key).toBe("string");
    expect(typeof site.type).toBe("number");
    return {
      key: String(site.key).trim(),
      name: String(site.name).trim(),
      type: site.type as number,
      api: String(site.api).trim(),
      searchable: intOr(site.searchable, 1),
      quickSearch: intOr(site.quickSearch, 1),
      filterable: intOr(site.filterable, 1),
    };
  });
}

interface VodRow {
  vod_id: number;
  vod_name: string;
  vod_pic?: string;
  vod_play_from?: string;
  vod_play_url?: string;
}
interface VodAnswer {
  list: VodRow[];
  class?: { type_id: number; type_name: string }[];
}

/** A type 1 call as OkGo makes it: the api with the app's parameters appended. */
async function callApi(api: string, params: Record<string, string> = {}): Promise<VodAnswer> {
  const url = new URL(api);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  const res = await get(url.href, { SITE_URL });
  expect(res.status, url.href).toBe(200);
  return JSON.parse(await res.text()) as VodAnswer;
}

/** vod_play_from / vod_play_url as TVBox splits them: sources by $$$, episodes by #, name$url. */
function playLists(row: VodRow): Map<string, [string, string][]> {
  const from = (row.vod_play_from ?? "").split("$$$");
  const urls = (row.vod_play_url ?? "").split("$$$");
  expect(urls).toHaveLength(from.length);
  return new Map(from.map((flag, i) => [flag, urls[i].split("#").map((episode) => episode.split("$") as [string, string])]));
}

async function configAt(base: string, bindings: Partial<Env>): Promise<{ res: Response; sites: SiteBean[] }> {
  const res = await get(base + "/tvbox.json", bindings);
  expect(res.status).toBe(200);
  return { res, sites: parseConfig(await res.clone().text()) };
}

describe("/tvbox.json", () => {
  it("is JSON TVBox loads, readable by any origin, with one searchable type 1 site on SITE_URL", async () => {
    const { res, sites } = await configAt(REQUEST_BASE, { SITE_URL });
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cache-Control")).toMatch(/^public/);
    expect(sites).toEqual([{ key: "yingshi", name: "影视站", type: 1, api: `${SITE_URL}/api.php/provide/vod/`, searchable: 1, quickSearch: 1, filterable: 1 }]);
  });

  it("without SITE_URL names the origin it was asked on, and the name of the site's settings", async () => {
    const { sites } = await configAt(REQUEST_BASE, { SITE_NAME: "家庭影院" });
    expect(sites[0]).toMatchObject({ name: "家庭影院", api: `${REQUEST_BASE}/api.php/provide/vod/` });
  });

  it("its site answers TVBox's calls: tabs, a category, a search and a detail page whose episodes play", async () => {
    const { sites } = await configAt(REQUEST_BASE, { SITE_URL });
    const site = sites.find((s) => s.type === 1 && s.searchable === 1);
    expect(site).toBeDefined();
    const api = (site as SiteBean).api;

    // Home: the bare api, whose `class` become the tabs.
    const home = await callApi(api);
    expect(home.class?.map((c) => c.type_name)).toEqual(expect.arrayContaining(["电影", "电视剧"]));
    const series = (home.class ?? []).find((c) => c.type_name === "电视剧");

    // A tab: ac=detail, t, pg (type 1 asks for detail rows, with pictures).
    const category = await callApi(api, { ac: "detail", t: String(series?.type_id), pg: "1" });
    expect(category.list.length).toBeGreaterThan(0);
    for (const row of category.list) expect(row.vod_pic).toMatch(new RegExp(`^${SITE_URL}/`));

    // Search and quick search: wd with ac=detail.
    const found = await callApi(api, { wd: "槐树巷", ac: "detail" });
    const title = found.list.find((row) => row.vod_name === "槐树巷的春天");
    expect(title).toBeDefined();

    // Detail: ac=detail&ids=, then the play lists.
    const detail = await callApi(api, { ac: "detail", ids: String(title?.vod_id) });
    const lists = playLists(detail.list[0]);
    const hls = lists.get("m3u8") ?? [];
    expect(hls).toHaveLength(6);
    expect(hls[0]).toEqual(["第01集", `${SITE_URL}/stream/3/master.m3u8`]);
    expect(lists.get("mp4")?.[0]).toEqual(["第01集", `${SITE_URL}/3.mp4`]);

    // The box fetches the episode's URL as given: it answers there.
    await env.MEDIA.put("stream/3/master.m3u8", "#EXTM3U\n#EXT-X-VERSION:7\n");
    const playlist = await get(hls[0][1], { SITE_URL });
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toMatch(/^#EXTM3U/);
  });
});
