/**
 * Play counts in D1 (migrations/0003_plays.sql): a play counts once per visitor per title per
 * UTC day. play_visits remembers who was counted today, title_plays holds the plays per title
 * and day (the 排行榜 sums it), title_hits the running total per title.
 */
import { utcDay } from "../../shared/ranking";

/** Visits and salts older than this many days are deleted (yesterday's stay, so a play at midnight is not counted twice). */
export const VISIT_RETENTION_DAYS = 2;

/**
 * Counts one play of `titleId` by `visitor` on `day`. Returns whether it counted (false when the
 * visitor's play of that title was already counted that day).
 */
export async function recordPlay(db: D1Database, titleId: string, visitor: string, day: string): Promise<boolean> {
  const inserted = await db
    .prepare("INSERT INTO play_visits (day, visitor, title_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS counted")
    .bind(day, visitor, titleId)
    .first<{ counted: number }>();
  if (!inserted) return false;
  const oldest = utcDay(Date.parse(`${day}T00:00:00Z`) - VISIT_RETENTION_DAYS * 86_400_000);
  await db.batch([
    db
      .prepare("INSERT INTO title_plays (title_id, day, plays) VALUES (?, ?, 1) ON CONFLICT (title_id, day) DO UPDATE SET plays = plays + 1")
      .bind(titleId, day),
    db.prepare("INSERT INTO title_hits (title_id, total) VALUES (?, 1) ON CONFLICT (title_id) DO UPDATE SET total = total + 1").bind(titleId),
    db.prepare("DELETE FROM play_visits WHERE day < ?").bind(oldest),
    db.prepare("DELETE FROM play_salts WHERE day < ?").bind(oldest),
  ]);
  return true;
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
