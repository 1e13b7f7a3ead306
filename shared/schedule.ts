/**
 * 追剧周表 rules (docs/decisions/0090-serial-schedule.md): which weekday it is in China, how a
 * series' update days read (每周五更新), whether a series is still 连载, and which series a
 * weekday lists. Weekdays are ISO numbers: 1 (周一) to 7 (周日), China Standard Time (UTC+8).
 */
import type { Video } from "./catalogue/types";

export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const WEEKDAYS: readonly Weekday[] = [1, 2, 3, 4, 5, 6, 7];

/** 一 … 日: the weekday's character. */
const DAY_CHARS: Record<Weekday, string> = { 1: "一", 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "日" };

/** 周一 … 周日 */
export function weekdayName(day: Weekday): string {
  return `周${DAY_CHARS[day]}`;
}

export function isWeekday(n: unknown): n is Weekday {
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 7;
}

const CHINA_OFFSET_MS = 8 * 3_600_000;

/** The weekday in China Standard Time at `nowMs`. */
export function chinaWeekday(nowMs: number): Weekday {
  const day = new Date(nowMs + CHINA_OFFSET_MS).getUTCDay(); // 0 = Sunday
  return (day === 0 ? 7 : day) as Weekday;
}

/** The seven weekdays, `today` first, then the days after it (周五, 周六, 周日, 周一 …). */
export function weekdaysFrom(today: Weekday): Weekday[] {
  return WEEKDAYS.map((_, i) => (((today - 1 + i) % 7) + 1) as Weekday);
}

/** The days sorted Monday first, each once. */
function sortedDays(days: readonly number[]): Weekday[] {
  return [...new Set(days.filter(isWeekday))].sort((a, b) => a - b);
}

/** 每周五更新, 每周一、四更新, 每日更新; "" without days. */
export function updateDaysText(days: readonly number[] | undefined): string {
  const sorted = sortedDays(days ?? []);
  if (sorted.length === 0) return "";
  if (sorted.length === 7) return "每日更新";
  return `每周${sorted.map((d) => DAY_CHARS[d]).join("、")}更新`;
}

/** MacCMS's vod_weekday: the days' characters joined with commas ("一,四"); "" without days. */
export function vodWeekday(days: readonly number[] | undefined): string {
  return sortedDays(days ?? [])
    .map((d) => DAY_CHARS[d])
    .join(",");
}

/**
 * Whether a title is complete: a film, a series marked 已完结 (`serial: "ended"`), or — without a
 * 连载 state — a series with all its planned episodes whose status does not say 更新至.
 */
export function isEnded(video: Pick<Video, "episodes" | "serial" | "status" | "totalEpisodes">): boolean {
  if (!video.episodes) return true;
  if (video.serial !== undefined) return video.serial === "ended";
  if (/^更新至/.test(video.status ?? "")) return false;
  return video.totalEpisodes === undefined || video.episodes.length >= video.totalEpisodes;
}

/** Whether `day`'s 追剧周表 lists the title: a series still 连载 whose update days include the day. */
export function updatesOn(video: Pick<Video, "episodes" | "serial" | "status" | "totalEpisodes" | "updateDays">, day: Weekday): boolean {
  return !isEnded(video) && (video.updateDays ?? []).includes(day);
}

/** The /schedule URL of a weekday (`null`: today, the page's default). */
export function scheduleHref(day: Weekday | null): string {
  return day === null ? "/schedule" : `/schedule?day=${day}`;
}

/** The weekday of /schedule's `?day=` (1–7), or null for absent or anything else (today). */
export function parseScheduleDay(param: string | null): Weekday | null {
  if (param === null || !/^[1-7]$/.test(param)) return null;
  return Number(param) as Weekday;
}
