/**
 * The D1 side of the play counter's aggregation (docs/decisions/0060-plays-aggregation.md): a
 * shard (worker/plays/shard.ts) sends its buffered plays as flushes, each one D1 batch (one
 * transaction) however many plays it carries. A flush may be sent more than once (the shard
 * restarted after D1 committed but before it forgot the flush): the ledger play_flushes
 * (migrations/0012_play_flushes.sql) remembers every flush id for FLUSH_RETENTION_DAYS, and the
 * counters are raised only by the attempt whose row the batch inserted — a repeat adds nothing.
 */
import { utcDay } from "../../shared/ranking";
import { bytesToBase64Url, randomBytes } from "../account-service/encoding";

/** Flush ids, visits in the shards and the play salts older than this many days are deleted. */
export const FLUSH_RETENTION_DAYS = 2;

/** Most (title, day) rows one flush carries: a D1 batch stays small whatever the catalogue's size. */
export const FLUSH_ROWS = 40;

export interface FlushRow {
  title: string;
  day: string;
  plays: number;
}

/** The UTC day FLUSH_RETENTION_DAYS before `day`: older rows are deleted. */
export const oldestKeptDay = (day: string): string => utcDay(Date.parse(`${day}T00:00:00Z`) - FLUSH_RETENTION_DAYS * 86_400_000);

/**
 * Adds one flush's plays to title_plays and title_hits, exactly once per flush id. Returns
 * whether this call applied it (false: an earlier attempt already had).
 */
export async function applyFlush(db: D1Database, flushId: string, rows: readonly FlushRow[], nowMs: number): Promise<boolean> {
  const attempt = bytesToBase64Url(randomBytes(12));
  const mine = "EXISTS (SELECT 1 FROM play_flushes WHERE id = ? AND attempt = ?)";
  const oldest = oldestKeptDay(utcDay(nowMs));
  const [ledger] = await db.batch([
    db.prepare("INSERT INTO play_flushes (id, attempt, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS applied").bind(flushId, attempt, nowMs),
    ...rows.flatMap((row) => [
      db
        .prepare(
          `INSERT INTO title_plays (title_id, day, plays) SELECT ?, ?, ? WHERE ${mine} ON CONFLICT (title_id, day) DO UPDATE SET plays = plays + excluded.plays`,
        )
        .bind(row.title, row.day, row.plays, flushId, attempt),
      db
        .prepare(`INSERT INTO title_hits (title_id, total) SELECT ?, ? WHERE ${mine} ON CONFLICT (title_id) DO UPDATE SET total = total + excluded.total`)
        .bind(row.title, row.plays, flushId, attempt),
    ]),
    db.prepare("DELETE FROM play_flushes WHERE at < ?").bind(Date.parse(`${oldest}T00:00:00Z`)),
    db.prepare("DELETE FROM play_salts WHERE day < ?").bind(oldest),
    // Visits of the counter before issue 35 (one D1 write per play): no longer written.
    db.prepare("DELETE FROM play_visits WHERE day < ?").bind(oldest),
  ]);
  return ledger.results.length > 0;
}
