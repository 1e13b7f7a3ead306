-- 追剧 features (issue 32).
--
-- 追剧周表 (docs/decisions/0090-serial-schedule.md): the titles that have update days, for the
-- schedule's and the home page's 今日更新 query (worker/catalogue/schedule.ts).
CREATE INDEX IF NOT EXISTS catalogue_titles_update_days ON catalogue_titles (json_extract(entry, '$.updateDays'))
  WHERE json_extract(entry, '$.updateDays') IS NOT NULL;

-- 追剧 and 稍后再看 of an account (docs/decisions/0091-follow-and-watch-later.md): one row per
-- account, list and title. `seen_episodes` (追剧 only): the episodes the series had when the
-- viewer last opened it — more is the 新 badge. Written only through worker/lists/api.ts.
CREATE TABLE IF NOT EXISTS account_lists (
  user_id TEXT NOT NULL,
  list TEXT NOT NULL CHECK (list IN ('follows', 'watchLater')),
  title_id TEXT NOT NULL,
  added_at INTEGER NOT NULL,
  seen_episodes INTEGER,
  PRIMARY KEY (user_id, list, title_id)
) WITHOUT ROWID;
