-- The catalogue in D1 (docs/decisions/0050-catalogue-in-d1.md). catalogue/titles.json stays the
-- operators' source of truth; `npm run catalogue -- import` (scripts/catalogue/import.ts) loads it
-- here. The worker reads it through worker/catalogue/ and never holds the whole list.

CREATE TABLE IF NOT EXISTS titles (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL, -- order in the file: ties of every sort and of search relevance keep it
  title TEXT NOT NULL,
  title_order INTEGER NOT NULL, -- rank of the title in pinyin collation (shared/collation.ts), equal titles equal
  year INTEGER NOT NULL,
  rating REAL NOT NULL,
  duration TEXT NOT NULL, -- "HH:MM:SS" or "MM:SS", the 按时长 sort compares the strings (spec §9)
  area TEXT,
  language TEXT,
  letter TEXT NOT NULL, -- first pinyin letter of the title, A–Z, or # for anything else
  episode_count INTEGER NOT NULL,
  added_at INTEGER NOT NULL, -- ms since epoch: first import of the entry
  updated_at INTEGER NOT NULL, -- ms since epoch: last import that changed the entry's content
  content_hash TEXT NOT NULL,
  card TEXT NOT NULL, -- JSON: what a card shows (shared/catalogue/card.ts)
  entry TEXT NOT NULL, -- JSON: the whole entry as validated, media paths normalised
  -- search keys, folded as shared/search/normalise.ts does (traditional→simplified included)
  search_title TEXT NOT NULL,
  search_pinyin TEXT NOT NULL, -- one syllable per folded character of the title, separated by spaces
  search_pinyin_flat TEXT NOT NULL, -- the same syllables written together (candidate filter)
  search_names TEXT NOT NULL, -- JSON [[folded, pinyin], …]: aliases, directors, actors
  search_names_flat TEXT NOT NULL, -- folded names and their pinyin written together (candidate filter)
  search_labels TEXT NOT NULL, -- folded tags and categories, one a line
  search_description TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS titles_latest ON titles (year DESC, id DESC);
CREATE INDEX IF NOT EXISTS titles_rating ON titles (rating DESC, position);
CREATE INDEX IF NOT EXISTS titles_title_order ON titles (title_order, position);
CREATE INDEX IF NOT EXISTS titles_duration ON titles (duration DESC, position);
CREATE INDEX IF NOT EXISTS titles_position ON titles (position);
CREATE INDEX IF NOT EXISTS titles_area ON titles (area);
CREATE INDEX IF NOT EXISTS titles_letter ON titles (letter);
CREATE INDEX IF NOT EXISTS titles_updated ON titles (updated_at DESC);

-- Every category of a title: main categories (电影 …), sub-types and genres (类型).
CREATE TABLE IF NOT EXISTS title_categories (
  category TEXT NOT NULL,
  title_id TEXT NOT NULL,
  PRIMARY KEY (category, title_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS title_categories_by_title ON title_categories (title_id);

-- Distinct category names and how many titles carry each (refreshed by every import that changes something).
CREATE TABLE IF NOT EXISTS categories (
  name TEXT PRIMARY KEY,
  titles INTEGER NOT NULL
) WITHOUT ROWID;

-- Episode N of a title (episode 1's file is the title's own).
CREATE TABLE IF NOT EXISTS episodes (
  title_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  name TEXT,
  video_file TEXT NOT NULL,
  duration TEXT NOT NULL,
  PRIMARY KEY (title_id, number)
) WITHOUT ROWID;
