-- Play counting (the 最热 sort, the view counts on cards and the 排行榜 page).
-- A play is counted once per visitor per title per UTC day: play_visits remembers who was
-- counted today, title_plays holds the count per title and day (day, week and month rankings
-- sum it), title_hits the running total per title (the 最热 sort reads it without summing).

CREATE TABLE IF NOT EXISTS title_plays (
  title_id TEXT NOT NULL,
  day TEXT NOT NULL, -- UTC date, YYYY-MM-DD
  plays INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (title_id, day)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS title_plays_by_day ON title_plays (day, plays DESC);

CREATE TABLE IF NOT EXISTS play_visits (
  day TEXT NOT NULL, -- UTC date, YYYY-MM-DD
  visitor TEXT NOT NULL, -- keyed hash of the visitor (never the raw address or cookie)
  title_id TEXT NOT NULL,
  PRIMARY KEY (day, visitor, title_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS title_hits (
  title_id TEXT PRIMARY KEY,
  total INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS title_hits_by_total ON title_hits (total DESC);
