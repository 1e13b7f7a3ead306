/**
 * 评分 in D1 (migrations/0024_ratings.sql, docs/decisions/0115-viewer-ratings.md): an account's
 * score of a title in `title_ratings`, and the title's aggregate in `title_rating_totals`, changed
 * in the same batch (one transaction) as the score so that pages never add ratings up on read.
 * The batch also raises the `ratings` content version when the title's effective score changed: the
 * edge-cached pages and answers that sort or show by it are keyed on it (worker/content-version.ts).
 */
import { RATING_MIN_COUNT, starRowOf, summaryOf, type RatingSummary } from "../../shared/ratings";
import { forgetContentTag } from "../content-version";

interface TotalsRow {
  count: number;
  sum: number;
  s1: number;
  s2: number;
  s3: number;
  s4: number;
  s5: number;
}

const TOTALS_COLUMNS = "count, sum, s1, s2, s3, s4, s5";

/** Takes a stored score `expr` (an INTEGER column) out of its star row: s1 counts 1–2 … s5 counts 9–10. */
const starColumnsLess = (expr: string) => [1, 2, 3, 4, 5].map((row) => `s${row} = s${row} - ((${expr} + 1) / 2 = ${row})`).join(", ");

/** The viewers' rating summary of a title. */
export async function ratingSummary(db: D1Database, titleId: string): Promise<RatingSummary> {
  return summaryOf(await db.prepare(`SELECT ${TOTALS_COLUMNS} FROM title_rating_totals WHERE title_id = ?`).bind(titleId).first<TotalsRow>());
}

/** The score `userId` gave `titleId`, null when none. */
export async function ratingOf(db: D1Database, userId: string, titleId: string): Promise<number | null> {
  return (
    (await db.prepare("SELECT score FROM title_ratings WHERE user_id = ? AND title_id = ?").bind(userId, titleId).first<{ score: number }>())?.score ?? null
  );
}

/**
 * Sets (`score` 1–10) or removes (`null`) the score `userId` gives `titleId`, and the title's
 * totals with it; returns the totals after the write. One batch: the old score is taken out of the
 * totals, the new one stored and added, the viewers' average set where there are enough ratings.
 */
export async function writeRating(db: D1Database, userId: string, titleId: string, score: number | null, nowMs: number): Promise<RatingSummary> {
  const statements: D1PreparedStatement[] = [
    db.prepare("UPDATE title_rating_totals SET prev_score = score WHERE title_id = ?").bind(titleId),
    // The score this account gave before (if any) leaves the totals.
    db
      .prepare(
        `UPDATE title_rating_totals SET count = count - 1, sum = sum - old.score, ${starColumnsLess("old.score")}
         FROM (SELECT score FROM title_ratings WHERE user_id = ?1 AND title_id = ?2) AS old WHERE title_rating_totals.title_id = ?2`,
      )
      .bind(userId, titleId),
  ];
  if (score === null) {
    statements.push(db.prepare("DELETE FROM title_ratings WHERE user_id = ? AND title_id = ?").bind(userId, titleId));
  } else {
    statements.push(
      db
        .prepare(
          "INSERT INTO title_ratings (user_id, title_id, score, rated_at) VALUES (?1, ?2, ?3, ?4) " +
            "ON CONFLICT (user_id, title_id) DO UPDATE SET score = excluded.score, rated_at = excluded.rated_at",
        )
        .bind(userId, titleId, score, nowMs),
      db
        .prepare(
          `INSERT INTO title_rating_totals (title_id, ${TOTALS_COLUMNS}) VALUES (?1, 1, ?2, ${[1, 2, 3, 4, 5].map((row) => `?3 = ${row}`).join(", ")})
           ON CONFLICT (title_id) DO UPDATE SET count = count + 1, sum = sum + ?2, ${[1, 2, 3, 4, 5].map((row) => `s${row} = s${row} + (?3 = ${row})`).join(", ")}`,
        )
        // The star row is bound as computed here: a bound number may arrive as REAL, and (8.0 + 1) / 2 is no whole row.
        .bind(titleId, score, starRowOf(score)),
    );
  }
  statements.push(
    db
      .prepare(
        `UPDATE title_rating_totals SET score = CASE WHEN count >= ?2 THEN round(CAST(sum AS REAL) / count, 1) END WHERE title_id = ?1 RETURNING ${TOTALS_COLUMNS}`,
      )
      .bind(titleId, RATING_MIN_COUNT),
    // Only when the score every sort and card reads changed: a burst of ratings on a hit title
    // must not re-key the whole edge cache at every write.
    db
      .prepare(
        "UPDATE content_versions SET version = version + 1 WHERE kind = 'ratings' AND EXISTS (SELECT 1 FROM title_rating_totals WHERE title_id = ? AND score IS NOT prev_score)",
      )
      .bind(titleId),
  );
  const results = await db.batch<TotalsRow>(statements);
  forgetContentTag();
  return summaryOf(results[statements.length - 2]?.results[0]);
}

/** Rating writes one account may make per window (a viewer changes a score a few times at most). */
export const RATING_WRITES = { limit: 30, windowMs: 5 * 60_000 } as const;

/** The statement that counts one write of `userId` in its window (the rate_limits table of migrations/0001_accounts.sql) and returns the count. */
export function countWrite(db: D1Database, userId: string, nowMs: number): D1PreparedStatement {
  const windowStart = Math.floor(nowMs / RATING_WRITES.windowMs) * RATING_WRITES.windowMs;
  return db
    .prepare(
      "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1) ON CONFLICT (key) DO UPDATE SET " +
        "count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END, " +
        "window_start = excluded.window_start RETURNING count",
    )
    .bind(`rating:${userId.slice(0, 128)}`, windowStart);
}

/** The viewers' average and count of each of `ids` that has enough ratings for it to count (the provide API's vod_score). */
export async function viewerScoresOf(db: D1Database, ids: readonly string[]): Promise<Map<string, { score: number; count: number }>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare("SELECT title_id, score, count FROM title_rating_totals WHERE score IS NOT NULL AND title_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ title_id: string; score: number; count: number }>();
  return new Map(results.map((r) => [r.title_id, { score: r.score, count: r.count }]));
}
