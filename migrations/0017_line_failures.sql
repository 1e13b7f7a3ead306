-- 线路 failures (docs/decisions/0087-line-failures.md): the player reports each line it had to
-- leave (a fatal error, or a stall the next line might fix: shared/playback/lines.ts), once per
-- line per playback; 概览 shows the counts (MacCMS keeps 播放失败统计 too). One row per UTC day,
-- title, episode and line (0: the site's own stream, 1…: the entry's other lines in order).
CREATE TABLE IF NOT EXISTS line_failures (
  day TEXT NOT NULL,
  title_id TEXT NOT NULL,
  episode INTEGER NOT NULL,
  line INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  PRIMARY KEY (day, title_id, episode, line)
) WITHOUT ROWID;
