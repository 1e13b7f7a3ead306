/**
 * Play counts: a beacon is decided and buffered by its viewer's shard (worker/plays/shard.ts), the
 * shards send the counts to D1 in flushes (worker/plays/flush.ts). In D1, title_plays holds the
 * plays per title and day (the 排行榜 sums it), title_hits the running total per title
 * (migrations/0003_plays.sql). See docs/decisions/0060-plays-aggregation.md.
 */
import { playShard, shardOf, type ShardPlay } from "./shard";

export { PLAY_LIMIT } from "./shard";

export type Play = ShardPlay;

/** What became of a beacon: counted, or why not. */
export type PlayOutcome = "counted" | "repeat" | "limited" | "unknown_title";

/** How long an isolate trusts that a title exists (a title removed from the catalogue counts for at most this long). */
const KNOWN_TITLE_MS = 60_000;
const knownTitles = new Map<string, number>();

/** Whether the title is in the catalogue: one D1 read per title and isolate a minute, not one per beacon. */
async function isKnownTitle(db: D1Database, titleId: string, nowMs: number): Promise<boolean> {
  const until = knownTitles.get(titleId);
  if (until !== undefined && until > nowMs) return true;
  const known = (await db.prepare("SELECT 1 AS known FROM titles WHERE id = ?").bind(titleId).first<number>("known")) === 1;
  if (knownTitles.size > 10_000) knownTitles.clear();
  if (known) knownTitles.set(titleId, nowMs + KNOWN_TITLE_MS);
  else knownTitles.delete(titleId);
  return known;
}

/**
 * Counts one play. An unknown title costs one D1 read; a known one goes to its viewer's shard,
 * which answers from its own storage (no D1 write: the count reaches D1 with the shard's next
 * flush, within FLUSH_INTERVAL_MS).
 */
export async function recordPlay(env: Env, play: Play): Promise<PlayOutcome> {
  if (!(await isKnownTitle(env.DB, play.titleId, Date.now()))) return "unknown_title";
  return playShard(env, shardOf(play.viewer)).count(play);
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
