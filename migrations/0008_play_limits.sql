-- The play counter's per-address limit and exact totals (worker/plays/store.ts,
-- docs/decisions/0051-play-counter.md): each counted visit also keeps the keyed hash of the
-- visitor's network (IPv4 address or IPv6 /64; the same daily salt as the visitor key), when it
-- was counted, and the random id of the beacon that counted it — the counters are raised in the
-- same batch only when that beacon's row is there, so a play is counted exactly once.

ALTER TABLE play_visits ADD COLUMN address TEXT;
ALTER TABLE play_visits ADD COLUMN at INTEGER; -- epoch milliseconds
ALTER TABLE play_visits ADD COLUMN beacon TEXT;

CREATE INDEX IF NOT EXISTS play_visits_by_address ON play_visits (address, at);
