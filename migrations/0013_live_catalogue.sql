-- The live catalogue (docs/decisions/0074-live-catalogue.md): titles are published, scheduled,
-- drafts or taken down from the 管理后台, edited there with a version for optimistic
-- concurrency, and what is not published is absent from every viewer and app.
--
-- The rows live in `catalogue_titles`. `titles` becomes a VIEW of the titles a viewer may see,
-- so every read of the site (pages, listings, search, home, ranking, /api/titles, sitemap, RSS,
-- the provide API, 弹幕 rooms, plays, the stream's gate) goes through the one visibility rule
-- below. Writes (the import, the 管理后台) name `catalogue_titles`: writing to `titles` fails.
-- Other tables (title_categories, episodes, search_chars, search_pinyin, title_media) reach a
-- title only through a join with `titles`.
ALTER TABLE titles RENAME TO catalogue_titles;

-- draft (草稿), published (已发布, 定时发布 while publish_at is still ahead), unpublished (已下架).
ALTER TABLE catalogue_titles ADD COLUMN state TEXT NOT NULL DEFAULT 'published';
-- ms since epoch: when a published title goes live (0: as soon as it is published).
ALTER TABLE catalogue_titles ADD COLUMN publish_at INTEGER NOT NULL DEFAULT 0;
-- Raised by every write of the title (import or 管理后台): the edit form sends the version it
-- read, and a save of an older version is refused (two admins editing the same title).
ALTER TABLE catalogue_titles ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- ms since epoch of the last 管理后台 write not yet seen in the catalogue file (NULL: the row is
-- what the file says). An import never overwrites such a title with a different, older file entry:
-- it reports a conflict (scripts/catalogue/import.ts). `npm run catalogue -- export` writes the
-- live catalogue to the file.
ALTER TABLE catalogue_titles ADD COLUMN edited_at INTEGER;
-- Who made that write (e-mail), for the conflict report.
ALTER TABLE catalogue_titles ADD COLUMN edited_by TEXT;

-- The one visibility rule: published, and its time has come (a scheduled title goes live by
-- itself at publish_at: each query evaluates the rule, no cron, no deploy).
CREATE VIEW IF NOT EXISTS titles AS
  SELECT * FROM catalogue_titles WHERE state = 'published' AND publish_at <= unixepoch() * 1000;

CREATE INDEX IF NOT EXISTS catalogue_titles_state ON catalogue_titles (state, publish_at);
CREATE INDEX IF NOT EXISTS catalogue_titles_edited ON catalogue_titles (edited_at) WHERE edited_at IS NOT NULL;

-- Every media number of a title (its videoFile and its episodes'): the stream and /N.mp4 answer
-- 404 for the media of a title that is not visible (worker/media/visibility.ts).
CREATE TABLE IF NOT EXISTS title_media (
  number INTEGER PRIMARY KEY,
  title_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS title_media_by_title ON title_media (title_id);
INSERT OR IGNORE INTO title_media (number, title_id)
  SELECT CAST(trim(replace(json_extract(entry, '$.videoFile'), '.mp4', ''), '/') AS INTEGER), id FROM catalogue_titles;
INSERT OR IGNORE INTO title_media (number, title_id)
  SELECT CAST(trim(replace(video_file, '.mp4', ''), '/') AS INTEGER), title_id FROM episodes;

-- Named counters of run-time content (worker/content-version.ts): raised by every write of that
-- kind, part of the edge cache keys of the answers derived from it (decision 0075).
CREATE TABLE IF NOT EXISTS content_versions (
  kind TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO content_versions (kind, version) VALUES ('catalogue', 1);

-- Titles deleted in the 管理后台 and still in the catalogue file: an import does not bring them
-- back (it reports them). The row goes once an import no longer finds the id in the file.
CREATE TABLE IF NOT EXISTS catalogue_deletions (
  id TEXT PRIMARY KEY,
  deleted_at INTEGER NOT NULL,
  deleted_by TEXT NOT NULL
) WITHOUT ROWID;
