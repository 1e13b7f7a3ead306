/**
 * The player's automatic error beacon (POST /api/reports/failure; docs/decisions/0077-reports.md):
 * a fatal playback error counts once per visitor (the network's keyed hash of the day,
 * worker/plays/visitor.ts) per title, episode and UTC day, and one network counts at most
 * FAILURES_PER_NETWORK_DAY title-episodes a day. D1 keeps the count per title, episode and day
 * (`playback_failures`), never a row per beacon; who was counted (`playback_failure_visitors`) is
 * kept two days. An isolate remembers what it counted, so a repeat costs no D1 write.
 */

/** Title-episodes one network's failures count for in a day. */
export const FAILURES_PER_NETWORK_DAY = 20;
/** Days the visitor rows are kept (the salts that key them go after two days too). */
const KEEP_DAYS = 2;

const seen = new Set<string>();

export interface Failure {
  day: string;
  network: string;
  titleId: string;
  episode: number;
}

/** Whether the failure was counted (false: a repeat of this visitor, or over the network's daily limit). */
export async function recordFailure(db: D1Database, failure: Failure, nowMs: number): Promise<boolean> {
  const key = `${failure.day}|${failure.network}|${failure.titleId}|${failure.episode}`;
  if (seen.has(key)) return false;
  const { day, network, titleId, episode } = failure;
  const oldest = new Date(nowMs - KEEP_DAYS * 86_400_000).toISOString().slice(0, 10);
  const [visitor] = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO playback_failure_visitors (day, network, title_id, episode)
         SELECT ?1, ?2, ?3, ?4 WHERE (SELECT COUNT(*) FROM playback_failure_visitors WHERE day = ?1 AND network = ?2) < ?5`,
      )
      .bind(day, network, titleId, episode, FAILURES_PER_NETWORK_DAY),
    // Raised only when the row above was inserted (changes() of the batch's previous statement).
    db
      .prepare(
        `INSERT INTO playback_failures (day, title_id, episode, failures) SELECT ?1, ?2, ?3, 1 WHERE changes() = 1
         ON CONFLICT (day, title_id, episode) DO UPDATE SET failures = failures + 1`,
      )
      .bind(day, titleId, episode),
    db.prepare("DELETE FROM playback_failure_visitors WHERE day < ?").bind(oldest),
  ]);
  if (seen.size > 10_000) seen.clear();
  seen.add(key);
  return visitor.meta.changes === 1;
}

/** Forget what this isolate counted (tests). */
export function forgetCountedFailures(): void {
  seen.clear();
}
