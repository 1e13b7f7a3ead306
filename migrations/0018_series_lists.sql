-- 追剧 features (issue 32).
--
-- 追剧周表 (docs/decisions/0090-serial-schedule.md): the titles that have update days, for the
-- schedule's and the home page's 今日更新 query (worker/catalogue/schedule.ts).
CREATE INDEX IF NOT EXISTS catalogue_titles_update_days ON catalogue_titles (json_extract(entry, '$.updateDays'))
  WHERE json_extract(entry, '$.updateDays') IS NOT NULL;
