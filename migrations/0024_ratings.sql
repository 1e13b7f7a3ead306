-- 评分: viewers' own ratings of a title (docs/decisions/0115-viewer-ratings.md).
--
-- One row per account and title: a whole score from 1 to 10 (five stars with halves). Written only
-- through worker/ratings/ (the user id comes from the session).
CREATE TABLE IF NOT EXISTS title_ratings (
  user_id TEXT NOT NULL,
  title_id TEXT NOT NULL,
  score INTEGER NOT NULL CHECK (score BETWEEN 1 AND 10),
  rated_at INTEGER NOT NULL, -- ms since epoch of the last change
  PRIMARY KEY (user_id, title_id)
) WITHOUT ROWID;

-- The aggregate of a title's ratings, kept in the same batch as every write to title_ratings so
-- that no page adds ratings up on read: count, sum and the distribution by stars (s1: scores 1–2
-- … s5: scores 9–10). `score` is the viewers' average (one decimal) once count reaches the
-- minimum (shared/ratings.ts RATING_MIN_COUNT), else NULL: the catalogue's rating stays. Every
-- sort and card reads COALESCE(score, rating) (worker/catalogue/cards.ts EFFECTIVE_RATING).
CREATE TABLE IF NOT EXISTS title_rating_totals (
  title_id TEXT PRIMARY KEY,
  count INTEGER NOT NULL DEFAULT 0,
  sum INTEGER NOT NULL DEFAULT 0,
  s1 INTEGER NOT NULL DEFAULT 0,
  s2 INTEGER NOT NULL DEFAULT 0,
  s3 INTEGER NOT NULL DEFAULT 0,
  s4 INTEGER NOT NULL DEFAULT 0,
  s5 INTEGER NOT NULL DEFAULT 0,
  score REAL,
  -- `score` before the write in progress: the content version is raised only when it changes.
  prev_score REAL
) WITHOUT ROWID;

-- Raised by a rating write that changes a title's `score` (worker/content-version.ts): the
-- edge-cached pages and answers that sort or show by it are keyed on it. A write that leaves the
-- score as it was (most writes of a title with many ratings) keeps every cached page: the video
-- page's own panel reads the fresh count in the browser.
INSERT OR IGNORE INTO content_versions (kind, version) VALUES ('ratings', 1);
