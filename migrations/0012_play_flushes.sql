-- The play counter's aggregation (worker/plays/shard.ts, worker/plays/flush.ts,
-- docs/decisions/0060-plays-aggregation.md): plays are buffered in Durable Object shards and
-- reach D1 as flushes, one batch each. A flush may be sent again after a restart; this ledger
-- keeps every flush id (for two days) with the attempt that applied it, so a repeat adds nothing.

CREATE TABLE IF NOT EXISTS play_flushes (
  id TEXT PRIMARY KEY, -- shard name + ":" + random id, chosen before the first attempt
  attempt TEXT NOT NULL, -- random id of the attempt whose batch inserted the row
  at INTEGER NOT NULL -- epoch milliseconds
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS play_flushes_by_at ON play_flushes (at);
