// The provide API's `wd` as an aggregator's MacCMS client sends it (issue 34): it finds what the
// site's own search finds for the same words — pinyin, initials, traditional characters, several
// words, names, tags — in the same order, inside MacCMS's answer shape.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { querySearch } from "../../worker/catalogue/search";
import type { DetailRow, JsonAnswer } from "../../worker/feeds/maccms";
import worker from "../../worker/index";

const API = "/api.php/provide/vod/";

async function provide(query: string): Promise<JsonAnswer> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`https://tvbox.test${API}${query}`), { ...env, PAGE_CACHE: "off" }, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status, query).toBe(200);
  return await res.json<JsonAnswer>();
}

/** Every id the site search finds for `q`, best first, with its total (all its pages). */
async function searchIds(q: string): Promise<{ total: number; ids: string[] }> {
  const first = await querySearch(env.DB, new URLSearchParams({ q }));
  const ids = [...first.ids];
  for (let page = 2; page <= first.pageCount; page++) ids.push(...(await querySearch(env.DB, new URLSearchParams({ q, page: String(page) }))).ids);
  return { total: first.total, ids };
}

const idOf = (vodId: number) => `video_${String(vodId).padStart(3, "0")}`;

describe("wd is the site search", () => {
  // The cases (a character, full pinyin, traditional characters) and the search's own kinds of query.
  const cases = ["爱", "wugang", "霧港", "wglx", "雾港 来信", "wu gang", "wu港", "WUGANG", "街巷 味", "喜剧", "xiaoli"];

  it.each(cases)("wd=%s finds the same titles as /search?q=, in the same order (videolist and list)", async (words) => {
    const site = await searchIds(words);
    expect(site.total, `the site search finds something for ${words}`).toBeGreaterThan(0);
    for (const ac of ["videolist", "list"]) {
      const answer = await provide(`?ac=${ac}&pagesize=100&wd=${encodeURIComponent(words)}`);
      expect(answer.total, `${ac} ${words}`).toBe(site.total);
      expect(
        answer.list.map((row) => idOf(row.vod_id)),
        `${ac} ${words}`,
      ).toEqual(site.ids);
    }
  });

  it("pages through the matches like any list, and answers no match with an empty list", async () => {
    const site = await searchIds("爱");
    expect(site.total).toBeGreaterThan(2);
    const second = await provide(`?ac=detail&pagesize=2&pg=2&wd=${encodeURIComponent("爱")}`);
    expect(second).toMatchObject({ code: 1, page: 2, limit: "2", total: site.total, pagecount: Math.ceil(site.total / 2) });
    expect(second.list.map((row) => idOf(row.vod_id))).toEqual(site.ids.slice(2, 4));
    expect((second.list[0] as DetailRow).vod_play_url).toContain("/master.m3u8");
    expect(await provide(`?wd=${encodeURIComponent("没有这部片子")}`)).toMatchObject({ total: 0, list: [] });
    expect(await provide(`?wd=${encodeURIComponent("！？")}`)).toMatchObject({ total: 0, list: [] });
  });

  it("combines with the other filters: t and isend narrow the search's matches, kept in its order", async () => {
    const site = await searchIds("a");
    const narrowed: number[] = [];
    for (const filter of ["t=1", "t=2", "isend=0", "isend=1"]) {
      const withFilter = new Set((await provide(`?ac=detail&pagesize=100&${filter}`)).list.map((row) => idOf(row.vod_id)));
      const found = await provide(`?ac=detail&pagesize=100&${filter}&wd=a`);
      expect(
        found.list.map((row) => idOf(row.vod_id)),
        filter,
      ).toEqual(site.ids.filter((id) => withFilter.has(id)));
      narrowed.push(found.total);
    }
    // The filters do narrow here: each finds some of the matches, none all of them.
    expect(
      narrowed.every((n) => n > 0 && n < site.total),
      String(narrowed),
    ).toBe(true);
  });
});
