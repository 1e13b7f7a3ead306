-- 评论区 (worker/comments/, docs/decisions/0110-comments.md): comments on a title (optionally
-- naming the episode they were written on) with one level of replies, likes (one per account),
-- the nicknames they are shown with, 回复我的's read mark, and a count and version per title (the
-- version is part of the video pages' edge cache key: worker/page-cache.ts). Times are epoch ms.

CREATE TABLE IF NOT EXISTS comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title_id TEXT NOT NULL,
  episode INTEGER, -- the episode it was written on; NULL: not named
  parent_id INTEGER, -- the top-level comment a reply is under; NULL for a top-level comment
  reply_to_id INTEGER, -- the comment or reply it answers (回复 @nickname); NULL for a top-level comment
  reply_to_user TEXT, -- the answered author's account id (回复我的)
  user_id TEXT NOT NULL, -- the author's account id (never shown to viewers)
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  likes INTEGER NOT NULL DEFAULT 0,
  replies INTEGER NOT NULL DEFAULT 0, -- live replies under a top-level comment
  state TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'deleted', 'removed')), -- deleted by its author, removed by moderation
  removed_by TEXT, -- the moderator's e-mail (state 'removed')
  removed_at INTEGER
);

-- The list: 最新 (by id) and 最热 (computed over a title's top-level comments) of a title.
CREATE INDEX IF NOT EXISTS comments_by_title ON comments (title_id, parent_id, id);
-- The replies of a comment, oldest first.
CREATE INDEX IF NOT EXISTS comments_by_parent ON comments (parent_id, id) WHERE parent_id IS NOT NULL;
-- The rate limit (an account's comments across titles) and the admin's filter by account.
CREATE INDEX IF NOT EXISTS comments_by_user ON comments (user_id, created_at);
-- 回复我的.
CREATE INDEX IF NOT EXISTS comments_by_reply_to_user ON comments (reply_to_user, id) WHERE reply_to_user IS NOT NULL;

CREATE TABLE IF NOT EXISTS comment_likes (
  comment_id INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (comment_id, user_id)
) WITHOUT ROWID;

-- The nickname an account is shown with (chosen on the profile; a default made from a hash of
-- the account id until then — never the e-mail).
CREATE TABLE IF NOT EXISTS comment_profiles (
  user_id TEXT PRIMARY KEY NOT NULL,
  nickname TEXT NOT NULL,
  chosen INTEGER NOT NULL DEFAULT 0, -- 1: chosen on the profile
  inbox_seen INTEGER NOT NULL DEFAULT 0 -- 回复我的: the highest reply id the account has seen
);

-- Per title: live comments and replies (the page's count) and a version raised by every post
-- and delete (the edge cache key of the title's pages).
CREATE TABLE IF NOT EXISTS comment_titles (
  title_id TEXT PRIMARY KEY NOT NULL,
  comments INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 0
);
