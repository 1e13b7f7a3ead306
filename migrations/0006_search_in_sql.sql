-- Search ranked in SQL (docs/decisions/0050-catalogue-in-d1.md, worker/catalogue/search.ts).
-- search_chars holds every folded character of a title's searchable text once, with the best
-- tier (shared/search/rank.ts) at which that character alone matches the title:
-- 0 the whole title, 1 the title's first character, 2 inside the title, 5 an alias or a name,
-- 6 a tag or category, 7 the description. A one-character query is one index range here, and
-- a longer one narrows the titles to those holding all its characters before the tiers are
-- computed. The import (shared/catalogue/rows.ts, import-plan.ts) writes the rows.
CREATE TABLE IF NOT EXISTS search_chars (
  char TEXT NOT NULL,
  title_id TEXT NOT NULL,
  tier INTEGER NOT NULL,
  PRIMARY KEY (char, title_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS search_chars_by_title ON search_chars (title_id);

-- The version of the search keys a title's rows were written with: an import rewrites the keys
-- of titles whose version is older (after this migration, every title) without touching their
-- update time.
ALTER TABLE titles ADD COLUMN search_version INTEGER NOT NULL DEFAULT 0;
