// The play counter (POST /api/plays/:id, the player's beacon) and the 排行榜 it feeds:
// once per viewer (account, else network: IPv4 address or IPv6 /64) per title per UTC day, at
// most PLAY_LIMIT plays per network an hour, decided in the play shards and flushed to D1
// (tests/worker/plays-aggregation.test.ts: the flushes themselves, restarts, the spike).
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RankingData } from "../../shared/ranking";
import type { DetailRow, JsonAnswer } from "../../worker/feeds/maccms";
import { PLAY_LIMIT } from "../../worker/plays/store";
import { flushPlays, shardRows } from "./helpers/plays";
import { call, signUp, uniqueIp, type Jar } from "./helpers/visitor";

const NO_CACHE = { PAGE_CACHE: "off" };
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36";

async function play(id: string, ip: string, headers: Record<string, string> = {}, jar?: Jar) {
  const res = await call("POST", `/api/plays/${id}`, { ip, jar, headers: { "User-Agent": CHROME, ...headers } });
  return { status: res.status, body: await res.json<{ counted?: boolean; error?: { message: string } }>() };
}

/** A title's plays of a day in D1, once the shards have flushed. */
async function dayPlays(id: string, day: string) {
  await flushPlays();
  return env.DB.prepare("SELECT plays FROM title_plays WHERE title_id = ? AND day = ?").bind(id, day).first<number>("plays");
}
async function totalPlays(id: string) {
  await flushPlays();
  return env.DB.prepare("SELECT total FROM title_hits WHERE title_id = ?").bind(id).first<number>("total");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("play counter", () => {
  it("counts a visitor's plays of a title once per UTC day, and again the next day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00Z"));
    const ip = uniqueIp();
    expect(await play("video_010", ip)).toEqual({ status: 200, body: { counted: true } });
    expect(await play("video_010", ip)).toEqual({ status: 200, body: { counted: false } });
    vi.setSystemTime(new Date("2026-03-01T23:59:00Z"));
    expect((await play("video_010", ip)).body.counted).toBe(false);
    // Another title, another network count on their own; another browser on the same address does not.
    expect((await play("video_011", ip)).body.counted).toBe(true);
    expect((await play("video_010", uniqueIp())).body.counted).toBe(true);
    expect((await play("video_010", ip, { "User-Agent": "Mozilla/5.0 (iPhone) Safari/604.1" })).body.counted).toBe(false);
    expect(await dayPlays("video_010", "2026-03-01")).toBe(2);
    vi.setSystemTime(new Date("2026-03-02T00:01:00Z"));
    expect((await play("video_010", ip)).body.counted).toBe(true);
    expect(await dayPlays("video_010", "2026-03-02")).toBe(1);
    expect(await totalPlays("video_010")).toBe(3);
  });

  it("stores hashes only: no address or user agent in the shards or D1, and old visits and day keys are deleted", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-04-01T08:00:00Z"));
    const ip = uniqueIp();
    await play("video_012", ip);
    const visits = await shardRows<{ viewer: string }>("SELECT viewer FROM visits WHERE day = ?", "2026-04-01");
    const networks = await shardRows<{ network: string }>("SELECT network FROM network_plays");
    expect(visits.length).toBeGreaterThan(0);
    expect(networks.length).toBeGreaterThan(0);
    for (const key of [...visits.map((v) => v.viewer), ...networks.map((n) => n.network)]) {
      expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(key).not.toContain(ip.split("::")[0]);
    }
    vi.setSystemTime(new Date("2026-04-04T08:00:00Z"));
    await play("video_012", uniqueIp());
    await flushPlays();
    expect(await shardRows("SELECT 1 FROM visits WHERE day = ?", "2026-04-01")).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM play_salts WHERE day = ?").bind("2026-04-01").first<number>("n")).toBe(0);
    // The day's plays stay for the rankings.
    expect(await dayPlays("video_012", "2026-04-01")).toBe(1);
  });

  it("refuses a cross-site beacon and an unknown title, counting nothing", async () => {
    const before = (await totalPlays("video_013")) ?? 0;
    const cross = await play("video_013", uniqueIp(), { Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.body.error?.message).toBe("请求来源无效");
    expect((await play("video_013", uniqueIp(), { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect(await totalPlays("video_013")).toBe(before || null);
    const unknown = await play("video_999", uniqueIp());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe("视频不存在");
    expect((await play("nope", uniqueIp())).status).toBe(404);
    expect((await call("GET", "/api/plays/video_013")).status).toBe(404);
  });

  it("a same-origin beacon counts, and the provide API's vod_hits shows the total", async () => {
    expect((await play("video_014", uniqueIp(), { Origin: "https://yingshi.test", "Sec-Fetch-Site": "same-origin" })).body.counted).toBe(true);
    await flushPlays();
    const res = await call("GET", "/api.php/provide/vod/?ac=detail&ids=14", { env: NO_CACHE });
    const row = (await res.json<JsonAnswer>()).list[0] as DetailRow;
    expect(row.vod_hits).toBe(await totalPlays("video_014"));
    expect(row.vod_hits).toBeGreaterThanOrEqual(1);
  });
});

describe("what a script cannot multiply", () => {
  const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1";
  const CURL = "curl/8.9.1";
  const title = (n: number) => `video_${String(n).padStart(3, "0")}`;

  it("one address with three User-Agents, other forwarded addresses, cookies or languages counts once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-08-01T10:00:00Z"));
    const ip = uniqueIp();
    const answers = [];
    const variants: Array<Record<string, string>> = [
      {},
      { "User-Agent": PHONE },
      { "User-Agent": CURL },
      { "X-Forwarded-For": "203.0.113.7" },
      { "X-Forwarded-For": "203.0.113.8, 198.51.100.1", "X-Real-IP": "203.0.113.9", "True-Client-IP": "203.0.113.10", Forwarded: "for=203.0.113.11" },
      { Cookie: "anything=1", "Accept-Language": "en-US" },
    ];
    for (const headers of variants) {
      answers.push((await play("video_049", ip, headers)).body.counted);
    }
    expect(answers).toEqual([true, false, false, false, false, false]);
    expect(await dayPlays("video_049", "2026-08-01")).toBe(1);
  });

  it("an IPv6 address of the same /64 is the same network; another /64 or another IPv4 address is another", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-08-02T10:00:00Z"));
    const ip = uniqueIp();
    const [network] = ip.split("::");
    expect((await play("video_048", ip)).body.counted).toBe(true);
    for (const neighbour of [`${network}::1`, `${network}:ffff:ffff:ffff:ffff`, `${network}:0:0:0:beef`]) {
      expect((await play("video_048", neighbour, { "User-Agent": CURL })).body.counted, neighbour).toBe(false);
    }
    expect((await play("video_048", uniqueIp())).body.counted).toBe(true);
    expect((await play("video_048", "198.51.100.20")).body.counted).toBe(true);
    expect((await play("video_048", "::ffff:198.51.100.20")).body.counted).toBe(false);
    expect((await play("video_048", "198.51.100.21")).body.counted).toBe(true);
    expect(await dayPlays("video_048", "2026-08-02")).toBe(4);
  });

  it(`a network counts at most ${PLAY_LIMIT.plays} plays an hour across titles; refused plays write nothing`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-08-03T10:00:00Z"));
    const ip = uniqueIp();
    const titles = Array.from({ length: PLAY_LIMIT.plays + 2 }, (_, i) => title(i + 1));
    const counted = [];
    for (const id of titles) counted.push((await play(id, ip)).body.counted);
    expect(counted).toEqual([...Array<boolean>(PLAY_LIMIT.plays).fill(true), false, false]);
    const refused = titles.slice(PLAY_LIMIT.plays);
    for (const id of refused) expect(await dayPlays(id, "2026-08-03")).toBeNull();
    // Another network is not held back; a signed-in viewer on the limited network is.
    expect((await play(refused[0], uniqueIp())).body.counted).toBe(true);
    const { jar } = await signUp("plays-limit", { ip: uniqueIp() });
    expect((await play(refused[1], ip, {}, jar)).body.counted).toBe(false);
    // An hour after its first plays, the network counts again.
    vi.setSystemTime(new Date("2026-08-03T11:00:01Z"));
    expect((await play(refused[1], ip)).body.counted).toBe(true);
  });

  it("signed-in viewers count by account: two accounts on one network each count, one account on two networks once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-08-04T10:00:00Z"));
    const home = uniqueIp();
    const first = await signUp("plays-a", { ip: home });
    const second = await signUp("plays-b", { ip: home });
    expect((await play("video_047", home, {}, first.jar)).body.counted).toBe(true);
    expect((await play("video_047", home, {}, second.jar)).body.counted).toBe(true);
    expect((await play("video_047", uniqueIp(), {}, first.jar)).body.counted).toBe(false);
    expect(await dayPlays("video_047", "2026-08-04")).toBe(2);
  });

  it("concurrent beacons: one count per network, the limit held, and the 排行榜 is exactly the counted plays", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-08-05T10:00:00Z"));
    const agents = [CHROME, PHONE, CURL, "Mozilla/5.0 (Windows NT 10.0) Firefox/140.0"];
    const networks = Array.from({ length: 5 }, () => uniqueIp());
    const beacons = networks.flatMap((ip) => agents.map((agent) => ({ id: "video_046", ip, agent })));
    // One more network sends the beacons of more titles than its hourly limit, all at once.
    const busy = uniqueIp();
    const spread = Array.from({ length: PLAY_LIMIT.plays + 10 }, (_, i) => ({ id: title(i + 1), ip: busy, agent: CHROME }));
    const sent = [...beacons, ...spread];
    const answers = await Promise.all(sent.map((b) => play(b.id, b.ip, { "User-Agent": b.agent })));

    const countedById = new Map<string, number>();
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      if (answer.body.counted) countedById.set(sent[i].id, (countedById.get(sent[i].id) ?? 0) + 1);
    });
    expect(countedById.get("video_046")).toBe(networks.length);
    expect(answers.slice(beacons.length).filter((a) => a.body.counted)).toHaveLength(PLAY_LIMIT.plays);

    await flushPlays();
    const ranking = await (await call("GET", "/api/ranking?period=day", { env: NO_CACHE })).json<RankingData>();
    expect(new Map(ranking.items.map((item) => [item.id, item.views]))).toEqual(countedById);
    const sum = await env.DB.prepare("SELECT SUM(plays) AS plays FROM title_plays WHERE day = ?").bind("2026-08-05").first<number>("plays");
    expect(sum).toBe(networks.length + PLAY_LIMIT.plays);
  });
});

describe("排行榜", () => {
  async function seed(rows: Array<[string, string, number]>) {
    await env.DB.batch(
      rows.map(([id, day, plays]) => env.DB.prepare("INSERT OR REPLACE INTO title_plays (title_id, day, plays) VALUES (?, ?, ?)").bind(id, day, plays)),
    );
  }

  it("day, week and month sum the plays of their days, most played first", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-06-30T12:00:00Z"));
    await seed([
      ["video_020", "2026-06-30", 5],
      ["video_021", "2026-06-30", 9],
      ["video_020", "2026-06-26", 10], // in the week
      ["video_022", "2026-06-10", 50], // in the month only
      ["video_023", "2026-05-20", 99], // too old
      ["video_999", "2026-06-30", 70], // no such title any more
    ]);
    const ranking = async (query: string) => {
      const res = await call("GET", `/api/ranking${query}`, { env: NO_CACHE });
      expect(res.status).toBe(200);
      return await res.json<RankingData>();
    };
    const day = await ranking("");
    expect(day).toMatchObject({ period: "day", from: "2026-06-30", to: "2026-06-30" });
    const idsAndViews = (data: RankingData) => data.items.map(({ id, views }) => ({ id, views }));
    expect(idsAndViews(day)).toEqual([
      { id: "video_021", views: 9 },
      { id: "video_020", views: 5 },
    ]);
    expect(day.items[0]).toMatchObject({ title: expect.any(String) as string, cover: "/21.webp" });
    expect(idsAndViews(await ranking("?period=week"))).toEqual([
      { id: "video_020", views: 15 },
      { id: "video_021", views: 9 },
    ]);
    const month = await ranking("?period=month");
    expect(month.from).toBe("2026-06-01");
    expect(month.items.map((i) => i.id)).toEqual(["video_022", "video_020", "video_021"]);
    expect((await ranking("?period=bogus")).period).toBe("day");
  });

  it("/ranking renders the ranked cards with play counts and tabs that are links", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-07-15T12:00:00Z"));
    await seed([
      ["video_030", "2026-07-15", 42],
      ["video_031", "2026-07-15", 7],
    ]);
    const res = await call("GET", "/ranking", { env: NO_CACHE });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1 class="page-title">排行榜</h1>');
    const titles = [...html.matchAll(/<h2 class="video-card-title">(.*?)<\/h2>/g)].map((m) => m[1]);
    expect(titles.slice(0, 2)).toEqual(["纺织厂的姑娘们", "雪线营救"]);
    // React separates the number from the text with an empty comment.
    const counts = [...html.matchAll(/<span>(\d+)(?:<!-- -->)?次播放<\/span>/g)].map((m) => Number(m[1]));
    expect(counts.slice(0, 2)).toEqual([42, 7]);
    expect(html).toMatch(/<a[^>]*href="\/ranking"[^>]*aria-current="page"[^>]*>日榜<\/a>|<a[^>]*aria-current="page"[^>]*href="\/ranking"[^>]*>日榜<\/a>/);
    expect(html).toContain('href="/ranking?period=week"');
    expect(html).toContain('href="/ranking?period=month"');
    const month = await (await call("GET", "/ranking?period=month", { env: NO_CACHE })).text();
    expect(month).toMatch(/aria-current="page"[^>]*>月榜</);
    // Linked from the header and the home page.
    const home = await (await call("GET", "/", { env: NO_CACHE })).text();
    expect(home.match(/href="\/ranking"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it("an empty period says so", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:30:00Z"));
    const html = await (await call("GET", "/ranking", { env: NO_CACHE })).text();
    expect(html).toContain("今天还没有播放记录");
  });
});
