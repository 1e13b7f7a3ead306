-- 弹幕管理 (worker/admin/danmaku.ts, docs/decisions/0076-danmaku-moderation.md): an index of the
-- posted 弹幕 of every room, the muted users, and the blocked words edited on the web. The
-- comments themselves stay in each room's Durable Object storage (worker/danmaku/room.ts), which
-- cannot be read together: the room writes a row here with every comment it stores and removes
-- the rows it prunes; a delete in the 管理后台 removes both. Times are epoch milliseconds.

CREATE TABLE IF NOT EXISTS danmaku_posts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, -- posting order across rooms: the list's order and cursor
  room TEXT NOT NULL, -- room key: {videoId} or {videoId}~{episode}
  comment_id INTEGER NOT NULL, -- the comment's id in its room
  video_id TEXT NOT NULL,
  episode INTEGER NOT NULL,
  user_id TEXT NOT NULL, -- the account id (never shown to viewers)
  text TEXT NOT NULL,
  time REAL NOT NULL, -- seconds into the video
  created INTEGER NOT NULL,
  UNIQUE (room, comment_id)
);

CREATE INDEX IF NOT EXISTS danmaku_posts_by_user ON danmaku_posts (user_id, seq);
CREATE INDEX IF NOT EXISTS danmaku_posts_by_video ON danmaku_posts (video_id, episode, seq);
CREATE INDEX IF NOT EXISTS danmaku_posts_by_created ON danmaku_posts (created);

-- Muted users: their posts are refused while `until` is ahead (NULL: for good). Unmuting
-- deletes the row; an expired row is ignored (and replaced by the next mute).
CREATE TABLE IF NOT EXISTS danmaku_mutes (
  user_id TEXT PRIMARY KEY NOT NULL,
  email TEXT, -- for the list (NULL when the account service could not tell)
  until INTEGER,
  muted_at INTEGER NOT NULL,
  muted_by TEXT NOT NULL -- the moderator's e-mail
);

-- The blocked words edited in 弹幕管理: one row. `words` is a JSON array that replaces the
-- default list (shared/danmaku/blocked-words.ts plus DANMAKU_BLOCKED_WORDS); NULL: the default.
CREATE TABLE IF NOT EXISTS danmaku_words (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  words TEXT,
  version INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL DEFAULT 0
);

INSERT OR IGNORE INTO danmaku_words (id, words, version, updated_at) VALUES (1, NULL, 0, 0);
