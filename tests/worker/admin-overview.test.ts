// 概览 (worker/admin/overview.ts): figures from real data — a counted play, a new account, a 弹幕
// posted (the room's D1 counter) and an object put in R2 each show up; the 30-day series has a
// day per bar (reports and playback failures: tests/worker/admin-reports.test.ts). Moderators
// see it too; the page draws its chart as inline SVG.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { utcDay } from "../../shared/ranking";
import { forgetMediaFigures } from "../../worker/admin/overview";
import { call, callRead, signUp, uniqueIp } from "./helpers/visitor";
import { enrolledHolder, type RoleHolder } from "./helpers/admin";
import { flushPlays } from "./helpers/plays";

interface Windows {
  today: number;
  week: number;
  month: number;
}
interface Overview {
  plays: { series: { day: string; count: number }[]; windows: Windows };
  topTitles: { id: string; title: string; plays: number }[];
  newAccounts: Windows | null;
  danmaku: Windows;
  media: { objects: number; bytes: number; partial: boolean } | null;
  today: string;
}

let admin: RoleHolder;
let moderator: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "overview-admin");
  moderator = await enrolledHolder("moderator", "overview-mod");
});

async function overview(jar = admin.jar): Promise<Overview> {
  const res = await call("GET", "/api/admin/overview", { jar });
  expect(res.status).toBe(200);
  return res.json<Overview>();
}

describe("概览", () => {
  it("each figure moves with the real data behind it", async () => {
    forgetMediaFigures();
    await flushPlays();
    const before = await overview();
    expect(before.plays.series).toHaveLength(30);
    expect(before.plays.series.at(-1)?.day).toBe(utcDay(Date.now()));
    expect(before.today).toBe(utcDay(Date.now()));

    const play = await call("POST", "/api/plays/video_007", { ip: uniqueIp(), headers: { "User-Agent": "Mozilla/5.0 Chrome/140.0" } });
    expect(await play.json()).toEqual({ counted: true });
    // Plays reach D1 when their shard flushes (worker/plays/shard.ts); the 概览 reads D1.
    await flushPlays();
    const poster = await signUp("overview-poster");
    const posted = await call("POST", "/api/danmaku/v3/", {
      jar: poster.jar,
      json: { id: "video_047", time: 1, text: "概览计数" },
      headers: { Origin: "https://yingshi.test" },
    });
    expect(posted.status, await posted.clone().text()).toBe(200);
    await env.MEDIA.put(`overview-test-${crypto.randomUUID()}.bin`, new Uint8Array(1234));
    forgetMediaFigures();

    const after = await overview();
    expect(after.plays.windows.today).toBe(before.plays.windows.today + 1);
    expect(after.plays.windows.month).toBe(before.plays.windows.month + 1);
    expect(after.topTitles.find((t) => t.id === "video_007")).toMatchObject({ plays: expect.any(Number) as number });
    expect(after.topTitles.find((t) => t.id === "video_007")?.title).not.toBe("video_007");
    expect(after.newAccounts?.today).toBe((before.newAccounts?.today ?? 0) + 1);
    expect(after.danmaku.today).toBe(before.danmaku.today + 1);
    expect(after.media?.objects).toBe((before.media?.objects ?? 0) + 1);
    expect(after.media?.bytes).toBe((before.media?.bytes ?? 0) + 1234);
  });

  it("a moderator sees it too; the page draws the chart as SVG and shows the reports", async () => {
    expect((await overview(moderator.jar)).plays.series).toHaveLength(30);
    const { res, text } = await callRead("GET", "/admin", { jar: moderator.jar });
    expect(res.status).toBe(200);
    expect(text).toMatch(/<svg[^>]*role="img"/);
    expect(text).toContain("播放量");
    expect(text).toContain("举报");
    expect(text).not.toMatch(/<script[^>]+src="https?:/);
  });
});
