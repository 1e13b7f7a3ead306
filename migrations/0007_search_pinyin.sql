-- Pinyin queries narrowed in SQL (worker/catalogue/search.ts, shared/search/pinyin-keys.ts):
-- for every position of a title's text and of its names (aliases, directors, actors), the first
-- two letters of the syllables written together from there and the first letters of that
-- character and the next. A query term starting with two letters or digits is looked up by
-- exactly those two (one index probe), one starting with one letter by the keys starting with
-- it; only the titles found (and those holding the term's characters) are then matched by
-- pinyin in the worker, instead of the whole catalogue. The import writes the rows
-- (shared/catalogue/rows.ts, import-plan.ts; search_version 2 rewrites older titles' keys).
-- tier: the best tier the key gives the title (shared/search/rank.ts): 3 at the title's first
-- position (a match from its start), 4 elsewhere in the title, 5 in a name. The keys decide a
-- term of one or two letters exactly, so such a query is ranked in SQL alone.
CREATE TABLE IF NOT EXISTS search_pinyin (
  key TEXT NOT NULL,
  title_id TEXT NOT NULL,
  tier INTEGER NOT NULL,
  PRIMARY KEY (key, title_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS search_pinyin_by_title ON search_pinyin (title_id);
