/**
 * Play counts in D1 (migrations/0003_plays.sql, 0008_play_limits.sql): a play counts once per
 * viewer per title per UTC day, and a network counts at most PLAY_LIMIT plays an hour across
 * titles. play_visits remembers who was counted today, title_plays holds the plays per title and
 * day (the 排行榜 sums it), title_hits the running total per title.
 */
import { utcDay } from "../../shared/ranking";
import { bytesToBase64Url, randomBytes } from "../account-service/encoding";
import type { PlayKeys } from "./visitor";

/** Visits and salts older than this many days are deleted (yesterday's stay, so a play at midnight is not counted twice). */
export const VISIT_RETENTION_DAYS = 2;

/**
 * The most plays one network (an IPv4 address, an IPv6 /64) has counted per hour, across titles:
 * a household watching well above what people do (a play is 10 s of real playback), far below
 * what a script needs to move the 排行榜. Plays over it answer {"counted": false}, like a repeat.
 */
export const PLAY_LIMIT = { plays: 30, windowMs: 3_600_000 } as const;

export interface Play extends PlayKeys {
  titleId: string;
  /** UTC day of `nowMs`. */
  day: string;
  nowMs: number;
}

/** What became of a beacon: counted, or why not. */
export type PlayOutcome = "counted" | "repeat" | "limited" | "unknown_title";

/** Counted visits of the network since `?since`, counted up to `?limit` at most (SQL, parameters named). */
const RECENT_OF_NETWORK = "(SELECT COUNT(*) FROM (SELECT 1 FROM play_visits WHERE address = ?network AND at > ?since LIMIT ?limit))";

function numbered(sql: string, names: readonly string[]): string {
  return sql.replace(/\?([a-z]+)/g, (whole, name: string) => (names.includes(name) ? `?${names.indexOf(name) + 1}` : whole));
}

/**
 * Counts one play. A beacon that will not count (a repeat, over the limit, an unknown title)
 * costs one read and no write. One that may count is one batch (one transaction): the visit is
 * inserted when the viewer has none for the title that day and the network is under the limit —
 * checked again inside the insert, so concurrent beacons cannot both pass — and the counters are
 * raised only when this beacon's own visit row is there. Totals are therefore exactly the
 * counted visits, however many beacons race.
 */
export async function recordPlay(db: D1Database, play: Play): Promise<PlayOutcome> {
  const since = play.nowMs - PLAY_LIMIT.windowMs;
  const check = await db
    .prepare(
      numbered(
        "SELECT EXISTS (SELECT 1 FROM titles WHERE id = ?title) AS known, " +
          "EXISTS (SELECT 1 FROM play_visits WHERE day = ?day AND visitor = ?viewer AND title_id = ?title) AS repeat, " +
          `${RECENT_OF_NETWORK} AS recent`,
        ["title", "day", "viewer", "network", "since", "limit"],
      ),
    )
    .bind(play.titleId, play.day, play.viewer, play.network, since, PLAY_LIMIT.plays)
    .first<{ known: number; repeat: number; recent: number }>();
  if (!check?.known) return "unknown_title";
  if (check.repeat) return "repeat";
  if (check.recent >= PLAY_LIMIT.plays) return "limited";

  const beacon = bytesToBase64Url(randomBytes(12));
  const names = ["title", "day", "viewer", "network", "now", "since", "limit", "beacon"];
  const thisBeacon = "EXISTS (SELECT 1 FROM play_visits WHERE day = ?day AND visitor = ?viewer AND title_id = ?title AND beacon = ?beacon)";
  const statement = (sql: string) =>
    db.prepare(numbered(sql, names)).bind(play.titleId, play.day, play.viewer, play.network, play.nowMs, since, PLAY_LIMIT.plays, beacon);
  const oldest = utcDay(Date.parse(`${play.day}T00:00:00Z`) - VISIT_RETENTION_DAYS * 86_400_000);
  const [inserted] = await db.batch([
    statement(
      "INSERT INTO play_visits (day, visitor, title_id, address, at, beacon) " +
        `SELECT ?day, ?viewer, ?title, ?network, ?now, ?beacon WHERE ${RECENT_OF_NETWORK} < ?limit ` +
        "ON CONFLICT DO NOTHING RETURNING 1 AS counted",
    ),
    statement(
      `INSERT INTO title_plays (title_id, day, plays) SELECT ?title, ?day, 1 WHERE ${thisBeacon} ` +
        "ON CONFLICT (title_id, day) DO UPDATE SET plays = plays + 1",
    ),
    statement(`INSERT INTO title_hits (title_id, total) SELECT ?title, 1 WHERE ${thisBeacon} ON CONFLICT (title_id) DO UPDATE SET total = total + 1`),
    db.prepare("DELETE FROM play_visits WHERE day < ?").bind(oldest),
    db.prepare("DELETE FROM play_salts WHERE day < ?").bind(oldest),
  ]);
  if (inserted.results.length > 0) return "counted";
  // Another beacon of the same viewer, or the network's last plays under the limit, came first.
  return "repeat";
}

/** Total plays of each title among `ids` that was ever played: one query, the ids as one JSON parameter. */
export async function totalPlays(db: D1Database, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare("SELECT title_id, total FROM title_hits WHERE title_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ title_id: string; total: number }>();
  return new Map(results.map((row) => [row.title_id, row.total]));
}

/** The most played titles between two UTC days (inclusive), most plays first. */
export async function topTitles(db: D1Database, from: string, to: string, limit: number): Promise<Array<{ id: string; plays: number }>> {
  const { results } = await db
    .prepare(
      "SELECT title_id AS id, SUM(plays) AS plays FROM title_plays WHERE day BETWEEN ? AND ? GROUP BY title_id ORDER BY plays DESC, title_id ASC LIMIT ?",
    )
    .bind(from, to, limit)
    .all<{ id: string; plays: number }>();
  return results;
}
