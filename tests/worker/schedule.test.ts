// 追剧周表 (docs/decisions/0090-serial-schedule.md) in the worker: the provide API's 连载 fields
// (vod_serial, vod_isend, vod_weekday, vod_remarks), /schedule's weekdays (today's tab first,
// ?day=N, no JavaScript needed: the tabs are links) and the home page's 今日更新 row — all from
// the catalogue file's serial / updateDays as imported into D1.
import { describe, expect, it } from "vitest";
import type { HomeData, ScheduleData } from "../../shared/loaders";
import { chinaWeekday, updatesOn, weekdayName, type Weekday } from "../../shared/schedule";
import { videos } from "../../scripts/catalogue/titles";
import type { DetailRow, JsonAnswer } from "../../worker/feeds/maccms";
import { callRead } from "./helpers/visitor";

const NO_CACHE = { PAGE_CACHE: "off" };

async function pageData<T>(path: string): Promise<T> {
  const { res, text } = await callRead("GET", `/api/page${path}`, { env: NO_CACHE });
  expect(res.status, path).toBe(200);
  return JSON.parse(text) as T;
}

async function detail(id: number): Promise<DetailRow> {
  const { res, text } = await callRead("GET", `/api.php/provide/vod/?ac=detail&ids=${id}`, { env: NO_CACHE });
  expect(res.status).toBe(200);
  return (JSON.parse(text) as JsonAnswer).list[0] as DetailRow;
}

/** The ids the catalogue lists on `day`, in any order. */
const expectedOn = (day: Weekday) => videos.filter((v) => updatesOn(v, day)).map((v) => v.id);

describe("the provide API's 连载 fields", () => {
  it("a 连载 series: episodes so far, not ended, its update days in vod_weekday and vod_remarks", async () => {
    // video_007 回声档案: 12 of 24 episodes, serial ongoing, updateDays [5].
    expect(await detail(7)).toMatchObject({ vod_serial: "12", vod_isend: 0, vod_weekday: "五", vod_remarks: "更新至12集 每周五更新" });
    // video_021: two days, no status: 更新至5集 from its episodes.
    expect(await detail(21)).toMatchObject({ vod_serial: "5", vod_isend: 0, vod_weekday: "一,二", vod_remarks: "更新至5集 每周一、二更新" });
  });

  it("a finished series and a film carry no update days", async () => {
    expect(await detail(3)).toMatchObject({ vod_serial: "6", vod_isend: 1, vod_weekday: "", vod_remarks: "全6集" });
    expect(await detail(1)).toMatchObject({ vod_serial: "0", vod_isend: 1, vod_weekday: "", vod_remarks: "HD" });
  });
});

describe("/schedule", () => {
  it("defaults to today's weekday in China and puts today's tab first", async () => {
    const today = chinaWeekday(Date.now());
    const data = await pageData<ScheduleData>("/schedule");
    expect(data.today).toBe(today);
    expect(data.day).toBe(today);
    expect(data.items.map((c) => c.id).sort()).toEqual(expectedOn(today).sort());

    const { res, text } = await callRead("GET", "/schedule", { env: NO_CACHE });
    expect(res.status).toBe(200);
    const tabs = [...text.matchAll(/<a [^>]*class="view-button"[^>]*>([^<]*)<\/a>/g)].map((m) => m[0]);
    expect(tabs).toHaveLength(7);
    expect(tabs[0]).toContain(`今天 ${weekdayName(today)}`);
    expect(tabs[0]).toContain('aria-current="page"');
    expect(tabs[0]).toContain('href="/schedule"');
  });

  it("?day=N lists that weekday's 连载 series only, as plain links to the other days", async () => {
    for (const day of [1, 2, 3, 4, 5, 6, 7] as const) {
      const data = await pageData<ScheduleData>(`/schedule?day=${day}`);
      expect(data.day).toBe(day);
      expect(data.items.map((c) => c.id).sort(), weekdayName(day)).toEqual(expectedOn(day).sort());
    }
    // 周五: 回声档案 (video_007) — and not the finished 全6集 series, nor a film.
    const friday = await pageData<ScheduleData>("/schedule?day=5");
    expect(friday.items.map((c) => c.id)).toContain("video_007");
    expect(friday.items.map((c) => c.id)).not.toContain("video_003");
    // Another day than today: its tab is current, and today's tab links to /schedule.
    const other = ((chinaWeekday(Date.now()) % 7) + 1) as Weekday;
    const { text } = await callRead("GET", `/schedule?day=${other}`, { env: NO_CACHE });
    expect(text).toContain(`<a class="view-button" aria-current="page" href="/schedule?day=${other}"`);
    expect(text).toContain(`<link rel="canonical" href="https://yingshi.test/schedule?day=${other}"/>`);
    for (const id of expectedOn(other)) expect(text).toContain(`href="/video/${id}"`);
  });

  it("reads a day it does not know as today (no error)", async () => {
    const today = chinaWeekday(Date.now());
    for (const bad of ["0", "8", "x", "5.5"]) expect((await pageData<ScheduleData>(`/schedule?day=${bad}`)).day).toBe(today);
  });
});

describe("the home page's 今日更新", () => {
  it("lists today's 连载 series with a link to the 追剧周表", async () => {
    const today = chinaWeekday(Date.now());
    const data = await pageData<HomeData>("/");
    expect(data.today).toBe(today);
    expect(data.todayUpdates.map((c) => c.id).sort()).toEqual(expectedOn(today).sort().slice(0, 6));
    const { text } = await callRead("GET", "/", { env: NO_CACHE });
    expect(text).toContain(`今日更新 · ${weekdayName(today)}`);
    expect(text).toMatch(/href="\/schedule"/);
  });
});
