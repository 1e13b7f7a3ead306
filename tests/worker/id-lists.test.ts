// Endpoints that take a list of title ids (GET /api/titles, the provide API's ids=): the
// documented maximum answers, one more is a 400 with a Chinese message (never a 500 from D1's
// 100-parameter limit), and duplicates count once.
import { describe, expect, it } from "vitest";
import type { LibraryCard } from "../../shared/catalogue/card";
import { MAX_TITLE_IDS } from "../../shared/catalogue/title-ids";
import type { JsonAnswer } from "../../worker/feeds/maccms";
import { MAX_IDS as MAX_VOD_IDS } from "../../worker/feeds/maccms";
import { call } from "./helpers/visitor";

const NO_CACHE = { PAGE_CACHE: "off" };

/** `count` well-formed title ids: the built-in titles first (video_001 … video_050), then ids the catalogue lacks. */
const titleIds = (count: number) => Array.from({ length: count }, (_, i) => `video_${String(i + 1).padStart(3, "0")}`);

async function titles(ids: readonly string[]) {
  const res = await call("GET", `/api/titles?ids=${ids.join(",")}`, { env: NO_CACHE });
  return { status: res.status, body: await res.json<LibraryCard[] | { error: { code: string; message: string } }>() };
}

describe("GET /api/titles", () => {
  it(`answers ${MAX_TITLE_IDS} distinct ids with the cards the catalogue has, episode names included`, async () => {
    const { status, body } = await titles(titleIds(MAX_TITLE_IDS));
    expect(status).toBe(200);
    const cards = body as LibraryCard[];
    expect(cards.length).toBeGreaterThanOrEqual(50);
    expect(cards.map((c) => c.id)).toEqual(titleIds(cards.length));
    expect(cards.find((c) => c.id === "video_004")?.episodeNames?.["1"]).toBe("第1期：初次见面");
  });

  it(`one more than ${MAX_TITLE_IDS} distinct ids is a 400 that says the limit`, async () => {
    const { status, body } = await titles(titleIds(MAX_TITLE_IDS + 1));
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: "too_many_ids", message: `一次最多查询${MAX_TITLE_IDS}部作品` } });
  });

  it("duplicates count once: 101 and 500 copies of one id are one card", async () => {
    for (const copies of [101, 500]) {
      const { status, body } = await titles([...Array<string>(copies).fill("video_004"), "video_003", "video_004"]);
      expect(status).toBe(200);
      expect((body as LibraryCard[]).map((c) => c.id)).toEqual(["video_004", "video_003"]);
    }
  });
});

describe("provide API ids=", () => {
  const API = "/api.php/provide/vod/?ac=detail&pagesize=100&ids=";
  const vodIds = (count: number) => Array.from({ length: count }, (_, i) => String(i + 1));

  it(`answers ${MAX_VOD_IDS} distinct ids; one more is a 400 in MacCMS's shape with a Chinese message; duplicates count once`, async () => {
    const atMost = await call("GET", API + vodIds(MAX_VOD_IDS).join(","), { env: NO_CACHE });
    expect(atMost.status).toBe(200);
    const answer = await atMost.json<JsonAnswer>();
    expect(answer.total).toBeGreaterThanOrEqual(50);
    expect(answer.list).toHaveLength(answer.total);

    const over = await call("GET", API + vodIds(MAX_VOD_IDS + 1).join(","), { env: NO_CACHE });
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ code: 0, msg: `ids 一次最多${MAX_VOD_IDS}个` });
    expect(over.headers.get("Access-Control-Allow-Origin")).toBe("*");

    // 1, 01 and 001 are one title: 150 copies are one id, under the limit.
    const copies = await call("GET", API + [...Array<string>(148).fill("4"), "04", "004"].join(","), { env: NO_CACHE });
    expect(copies.status).toBe(200);
    expect((await copies.json<JsonAnswer>()).list.map((row) => row.vod_id)).toEqual([4]);
  });
});
