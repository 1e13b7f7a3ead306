-- 举报 (worker/reports/, docs/admin.md, docs/decisions/0077-reports.md): what viewers report —
-- a 弹幕 (kind 'danmaku'), a playback problem (报错, kind 'playback'), later a comment (kind
-- 'comment') — one row each, in one table generic over the kind, handled in the 管理后台's queue.

CREATE TABLE IF NOT EXISTS reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL, -- 'danmaku' | 'playback' | 'comment' (shared/reports/model.ts REPORT_KINDS)
  title_id TEXT NOT NULL, -- the title it is about (the queue groups by it)
  episode INTEGER NOT NULL DEFAULT 1,
  target_id TEXT, -- what is reported within the title: a 弹幕's id in its room; null for 报错
  target_text TEXT, -- the reported text as it was when reported (a 弹幕's text), for the queue
  target_time REAL, -- where in the video (s): a 弹幕's time
  reason TEXT NOT NULL, -- a reason of the kind (shared/reports/model.ts)
  note TEXT, -- the reporter's optional note, at most 200 characters
  reporter_id TEXT, -- the signed-in reporter's account id; null when signed out
  reporter_key TEXT NOT NULL, -- the reporter's network, HMAC with the day's salt (worker/plays/visitor.ts): the rate limit
  created_at INTEGER NOT NULL, -- epoch milliseconds
  status TEXT NOT NULL DEFAULT 'open', -- 'open' | 'resolved' | 'dismissed'
  resolved_by TEXT, -- the e-mail of the moderator or admin who resolved or dismissed it
  resolved_at INTEGER -- epoch milliseconds
);

-- The queue: open (or resolved, dismissed) reports of a kind, by title.
CREATE INDEX IF NOT EXISTS reports_by_status ON reports (status, kind, title_id, created_at);
-- The rate limits: reports of a network, of an account, in the last hour.
CREATE INDEX IF NOT EXISTS reports_by_reporter_key ON reports (reporter_key, created_at);
CREATE INDEX IF NOT EXISTS reports_by_reporter_id ON reports (reporter_id, created_at) WHERE reporter_id IS NOT NULL;
-- 概览: reports per day.
CREATE INDEX IF NOT EXISTS reports_by_created ON reports (created_at);

-- The player's automatic error beacon: failures counted per title, episode and UTC day (never a
-- row per beacon), each visitor (network) once per title and episode a day, and at most
-- FAILURES_PER_NETWORK_DAY titles-episodes per network a day (worker/reports/failures.ts).
CREATE TABLE IF NOT EXISTS playback_failures (
  day TEXT NOT NULL, -- UTC date, YYYY-MM-DD
  title_id TEXT NOT NULL,
  episode INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  PRIMARY KEY (day, title_id, episode)
) WITHOUT ROWID;

-- Who was counted (the day's network key), kept two days, then deleted.
CREATE TABLE IF NOT EXISTS playback_failure_visitors (
  day TEXT NOT NULL,
  network TEXT NOT NULL,
  title_id TEXT NOT NULL,
  episode INTEGER NOT NULL,
  PRIMARY KEY (day, network, title_id, episode)
) WITHOUT ROWID;
