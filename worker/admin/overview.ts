/**
 * 概览 (admins and moderators: aggregate figures only, no account or e-mail): plays per day
 * (title_plays), the most-played titles, new accounts (the embedded service's `users`; a real
 * Supabase project's admin API has no cheap count by date), 弹幕 posted (danmaku_daily, raised by
 * the rooms: worker/danmaku/post-count.ts) and the media in R2 (listed, remembered for a while).
 * 举报 (`reports`, worker/admin/reports.ts): the open ones by kind; 播放失败: the player's
 * automatic error beacons (`playback_failures`, worker/reports/failures.ts) and the viewers' 报错
 * (reports of kind 'playback') per day.
 * 线路故障: the lines players had to leave (line_failures, worker/lines/api.ts), per day and the
 * lines that failed most.
 */
import { firstDay, lastDays, windowsOf, type DayCount, type Windows } from "../../shared/admin/overview";
import { utcDay } from "../../shared/ranking";
import { isoTime } from "../account-service/encoding";
import { configOf } from "../config";
import { topTitles } from "../plays/store";
import { lineName } from "../../shared/playback/lines";

export interface TopTitle {
  id: string;
  title: string;
  plays: number;
}

/** One line of one title's episode that players had to leave, with how often (the last CHART_DAYS days). */
export interface FailingLine {
  id: string;
  title: string;
  episode: number;
  /** 线路1 (the site's own stream), 线路2 … */
  line: string;
  failures: number;
}

export interface MediaFigures {
  objects: number;
  bytes: number;
  /** The listing stopped before the end (more objects than MAX_LIST_PAGES pages): the figures are a lower bound. */
  partial: boolean;
  /** When they were counted (epoch ms). */
  countedAt: number;
}

export interface ReportFigures {
  /** Open reports now, and of each kind. */
  open: number;
  openByKind: { danmaku: number; playback: number };
}

export interface FailureFigures {
  /** The player's error beacons (each visitor once per title, episode and day). */
  beacons: Windows;
  /** 报错 sent by viewers. */
  reports: Windows;
  total: Windows;
}

export interface Overview {
  plays: { series: DayCount[]; windows: Windows };
  topTitles: TopTitle[];
  /** Null where the accounts live in a real Supabase project. */
  newAccounts: Windows | null;
  danmaku: Windows;
  /** 线路故障: failures per day, and the lines that failed most. */
  lineFailures: { windows: Windows; top: FailingLine[] };
  media: MediaFigures | null;
  reports: ReportFigures;
  playbackFailures: FailureFigures;
  /** The UTC day the figures end on. */
  today: string;
}

/** R2 lists 1000 objects a call: up to 100,000 objects are counted. */
const MAX_LIST_PAGES = 100;
/** The media figures are counted again after this long (per isolate). */
export const MEDIA_MEMO_MS = 10 * 60_000;
let mediaMemo: MediaFigures | null = null;

async function countMedia(bucket: R2Bucket, nowMs: number): Promise<MediaFigures> {
  if (mediaMemo && nowMs - mediaMemo.countedAt < MEDIA_MEMO_MS) return mediaMemo;
  let objects = 0;
  let bytes = 0;
  let cursor: string | undefined;
  let partial = false;
  for (let page = 0; ; page++) {
    if (page === MAX_LIST_PAGES) {
      partial = true;
      break;
    }
    const listed = await bucket.list({ cursor, limit: 1000 });
    for (const object of listed.objects) {
      objects++;
      bytes += object.size;
    }
    if (!listed.truncated) break;
    cursor = listed.cursor;
  }
  mediaMemo = { objects, bytes, partial, countedAt: nowMs };
  return mediaMemo;
}

/** Forget the counted media (tests; an upload does not need it: ten minutes is the promise). */
export function forgetMediaFigures(): void {
  mediaMemo = null;
}

async function dailySeries(db: D1Database, sql: string, nowMs: number): Promise<DayCount[]> {
  const { results } = await db.prepare(sql).bind(firstDay(nowMs)).all<{ day: string; count: number }>();
  return lastDays(results, nowMs);
}

function failureFigures(beacons: Windows, reports: Windows): FailureFigures {
  const total = { today: beacons.today + reports.today, week: beacons.week + reports.week, month: beacons.month + reports.month };
  return { beacons, reports, total };
}

export async function overviewOf(env: Env, nowMs = Date.now()): Promise<Overview> {
  const db = env.DB;
  const today = utcDay(nowMs);
  const embeddedAccounts = !configOf(env).SUPABASE_URL;
  const [plays, danmaku, beacons, failureReports, open, failures, failing, top, accounts, media] = await Promise.all([
    dailySeries(db, "SELECT day, SUM(plays) AS count FROM title_plays WHERE day >= ? GROUP BY day", nowMs),
    dailySeries(db, "SELECT day, posts AS count FROM danmaku_daily WHERE day >= ?", nowMs),
    dailySeries(db, "SELECT day, SUM(failures) AS count FROM playback_failures WHERE day >= ? GROUP BY day", nowMs),
    dailySeries(
      db,
      "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, COUNT(*) AS count FROM reports WHERE kind = 'playback' AND created_at >= unixepoch(?) * 1000 GROUP BY day",
      nowMs,
    ),
    db
      .prepare("SELECT COUNT(*) AS open, SUM(kind = 'danmaku') AS danmaku, SUM(kind = 'playback') AS playback FROM reports WHERE status = 'open'")
      .first<{ open: number; danmaku: number | null; playback: number | null }>(),
    dailySeries(db, "SELECT day, SUM(failures) AS count FROM line_failures WHERE day >= ? GROUP BY day", nowMs),
    db
      .prepare(
        "SELECT f.title_id AS id, coalesce(t.title, f.title_id) AS title, f.episode, f.line, SUM(f.failures) AS failures FROM line_failures f " +
          "LEFT JOIN catalogue_titles t ON t.id = f.title_id WHERE f.day >= ? GROUP BY f.title_id, f.episode, f.line ORDER BY failures DESC, id LIMIT 10",
      )
      .bind(firstDay(nowMs))
      .all<{ id: string; title: string; episode: number; line: number; failures: number }>(),
    topTitles(db, firstDay(nowMs), today, 10),
    embeddedAccounts
      ? db
          .prepare("SELECT SUM(created_at >= ?1) AS today, SUM(created_at >= ?2) AS week, COUNT(*) AS month FROM users WHERE created_at >= ?3")
          .bind(
            isoTime(Date.parse(`${today}T00:00:00Z`)),
            isoTime(Date.parse(`${utcDay(nowMs - 6 * 86_400_000)}T00:00:00Z`)),
            isoTime(Date.parse(`${firstDay(nowMs)}T00:00:00Z`)),
          )
          .first<{ today: number | null; week: number | null; month: number }>()
      : Promise.resolve(null),
    countMedia(env.MEDIA, nowMs).catch((error: unknown) => {
      console.error("overview: listing R2 failed", error);
      return null;
    }),
  ]);
  const names = new Map<string, string>();
  if (top.length > 0) {
    const { results } = await db
      .prepare("SELECT id, title FROM titles WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(top.map((t) => t.id)))
      .all<{ id: string; title: string }>();
    for (const row of results) names.set(row.id, row.title);
  }
  return {
    plays: { series: plays, windows: windowsOf(plays) },
    topTitles: top.map((t) => ({ id: t.id, title: names.get(t.id) ?? t.id, plays: t.plays })),
    newAccounts: accounts ? { today: accounts.today ?? 0, week: accounts.week ?? 0, month: accounts.month } : null,
    danmaku: windowsOf(danmaku),
    lineFailures: {
      windows: windowsOf(failures),
      top: failing.results.map((r) => ({ id: r.id, title: r.title, episode: r.episode, line: lineName(r.line), failures: r.failures })),
    },
    media,
    reports: { open: open?.open ?? 0, openByKind: { danmaku: open?.danmaku ?? 0, playback: open?.playback ?? 0 } },
    playbackFailures: failureFigures(windowsOf(beacons), windowsOf(failureReports)),
    today,
  };
}
