// 追剧周表 rules (shared/schedule.ts): China's weekday, today's tab first, how update days read,
// which series a weekday lists, and the catalogue fields' checks (shared/catalogue/schema.ts).
import { describe, expect, it } from "vitest";
import { entryFromForm, formOfEntry } from "../../shared/admin/title-form";
import { validateCatalogue } from "../../shared/catalogue/schema";
import type { Video } from "../../shared/catalogue/types";
import { chinaWeekday, isEnded, parseScheduleDay, scheduleHref, updateDaysText, updatesOn, vodWeekday, weekdayName, weekdaysFrom } from "../../shared/schedule";
import { videos } from "../../scripts/catalogue/titles";

const series: Pick<Video, "episodes" | "status" | "totalEpisodes"> = { episodes: [{ videoFile: "/7.mp4", duration: "45:00" }] };

describe("the weekday in China", () => {
  it("is UTC+8: Thursday 16:00 UTC is already Friday in Beijing", () => {
    expect(chinaWeekday(Date.UTC(2026, 10, 26, 15, 59))).toBe(4); // 23:59 Thursday in Beijing
    expect(chinaWeekday(Date.UTC(2026, 10, 26, 16, 0))).toBe(5); // 00:00 Friday
    expect(chinaWeekday(Date.UTC(2026, 10, 29, 16, 0))).toBe(1); // Sunday 16:00 UTC: Monday
    expect(chinaWeekday(Date.UTC(2026, 10, 29, 12, 0))).toBe(7); // Sunday
  });

  it("puts today's tab first, then the days after it", () => {
    expect(weekdaysFrom(5)).toEqual([5, 6, 7, 1, 2, 3, 4]);
    expect(weekdaysFrom(1)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(weekdaysFrom(7).map(weekdayName)).toEqual(["周日", "周一", "周二", "周三", "周四", "周五", "周六"]);
  });

  it("reads ?day= as 1–7 only, anything else as today", () => {
    expect(parseScheduleDay("5")).toBe(5);
    for (const bad of [null, "", "0", "8", "05", "5.0", "五", "1,2"]) expect(parseScheduleDay(bad)).toBeNull();
    expect(scheduleHref(null)).toBe("/schedule");
    expect(scheduleHref(3)).toBe("/schedule?day=3");
  });
});

describe("update days", () => {
  it("read 每周五更新, 每周一、四更新 (Monday first), 每日更新", () => {
    expect(updateDaysText([5])).toBe("每周五更新");
    expect(updateDaysText([4, 1])).toBe("每周一、四更新");
    expect(updateDaysText([7, 6])).toBe("每周六、日更新");
    expect(updateDaysText([1, 2, 3, 4, 5, 6, 7])).toBe("每日更新");
    expect(updateDaysText(undefined)).toBe("");
  });

  it("give MacCMS's vod_weekday as characters joined with commas", () => {
    expect(vodWeekday([4, 1])).toBe("一,四");
    expect(vodWeekday([7])).toBe("日");
    expect(vodWeekday(undefined)).toBe("");
  });
});

describe("which series a weekday lists", () => {
  it("lists a 连载 series on its update days only", () => {
    const friday = { ...series, serial: "ongoing" as const, updateDays: [5] };
    expect(updatesOn(friday, 5)).toBe(true);
    expect(updatesOn(friday, 4)).toBe(false);
  });

  it("leaves out an ended series whatever its days, and a series without days", () => {
    expect(updatesOn({ ...series, serial: "ended" as const, updateDays: [5] }, 5)).toBe(false);
    expect(updatesOn({ ...series, serial: "ongoing" as const }, 5)).toBe(false);
    // A film is complete.
    expect(updatesOn({ episodes: undefined, updateDays: [5] }, 5)).toBe(false);
  });

  it("takes the 连载 state over the status and the planned episodes; without it, derives it as before", () => {
    expect(isEnded({ ...series, serial: "ongoing", status: "全1集" })).toBe(false);
    expect(isEnded({ ...series, serial: "ended", status: "更新至1集", totalEpisodes: 20 })).toBe(true);
    expect(isEnded({ ...series, status: "更新至1集" })).toBe(false);
    expect(isEnded({ ...series, totalEpisodes: 20 })).toBe(false);
    expect(isEnded(series)).toBe(true);
    // Without a 连载 state, a series whose days are known still follows its status.
    expect(updatesOn({ ...series, status: "更新至1集", updateDays: [2] }, 2)).toBe(true);
  });

  it("has a series for every weekday in the catalogue file", () => {
    for (const day of [1, 2, 3, 4, 5, 6, 7] as const)
      expect(
        videos.some((v) => updatesOn(v, day)),
        weekdayName(day),
      ).toBe(true);
  });
});

describe("the catalogue's 连载 fields", () => {
  const base = videos.find((v) => v.id === "video_007");
  const film = videos.find((v) => !v.episodes);

  it("accept a state and update days on a series", () => {
    expect(validateCatalogue([{ ...base, serial: "ended", updateDays: [1, 7] }]).ok).toBe(true);
  });

  it("refuse a bad state, bad or repeated days, and either field on a film", () => {
    const result = validateCatalogue([
      { ...base, serial: "weekly" },
      { ...base, id: "video_901", videoFile: "901.mp4", coverImage: "901.webp", episodes: undefined, updateDays: [0, 8] },
      { ...film, updateDays: [5, 5] },
      { ...film, id: "video_902", videoFile: "902.mp4", coverImage: "902.webp", serial: "ongoing", updateDays: [5] },
    ]);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.map((p) => `${p.entry} ${p.field}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'video_007 serial: 只能是 "ongoing"（连载中）或 "ended"（已完结）',
        "video_901 updateDays.0: 只能是1（周一）到7（周日）",
        "video_901 updateDays.1: 只能是1（周一）到7（周日）",
        `${film?.id} updateDays: 星期不能重复`,
        "video_902 serial: 已填写，但此视频没有剧集",
        "video_902 updateDays: 已填写，但此视频没有剧集",
      ]),
    );
  });
});

describe("the 管理后台 form's 连载 fields", () => {
  const entry = videos.find((v) => v.id === "video_021") as Video;
  const form = formOfEntry(entry, "published", 0);

  it("shows the state and the days as characters, and reads them back", () => {
    expect(form.serial).toBe("ongoing");
    expect(form.updateDays).toBe("一，二");
    const back = entryFromForm((name) => form[name] ?? "");
    expect(back).toMatchObject({ serial: "ongoing", updateDays: [1, 2] });
  });

  it("reads 周五, 星期日, 天 and digits, and hands anything else to the schema to refuse", () => {
    const read = (updateDays: string) => entryFromForm((name) => (name === "updateDays" ? updateDays : (form[name] ?? ""))).updateDays;
    expect(read("周五")).toEqual([5]);
    expect(read("星期一、星期日")).toEqual([1, 7]);
    expect(read("天")).toEqual([7]);
    expect(read("1, 4")).toEqual([1, 4]);
    expect(read("")).toBeUndefined();
    const bad = entryFromForm((name) => (name === "updateDays" ? "周八" : (form[name] ?? "")));
    const result = validateCatalogue([bad]);
    expect(result.ok ? [] : result.problems.map((p) => p.field)).toEqual(["updateDays.0"]);
    // 按更新状态判断 (empty) leaves the state out.
    expect(entryFromForm((name) => (name === "serial" ? "" : (form[name] ?? "")))).not.toHaveProperty("serial");
  });
});
