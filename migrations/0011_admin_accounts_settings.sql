-- 管理后台, second part (worker/admin/, docs/admin.md, docs/decisions/0073-admin-settings-and-cache.md):
-- disabled accounts of the embedded account service, the site settings edited on the web, the
-- count of 弹幕 posted per day, and the 操作日志 found by target.

-- Supabase's auth.users.banned_until (GoTrue): while it is in the future the account cannot sign
-- in, refresh or use an access token. ISO 8601 UTC like the other times of `users`; NULL = active.
ALTER TABLE users ADD COLUMN banned_until TEXT;

-- 站点设置: one row. `settings` is a JSON object of the variables it overrides (SITE_NAME, …;
-- a key that is absent falls back to the wrangler variable); `version` goes up by one with every
-- save and is part of every edge-cache key (docs/decisions/0073-admin-settings-and-cache.md).
CREATE TABLE IF NOT EXISTS site_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  settings TEXT NOT NULL DEFAULT '{}',
  version INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL DEFAULT 0 -- epoch milliseconds
);

INSERT OR IGNORE INTO site_settings (id, settings, version, updated_at) VALUES (1, '{}', 0, 0);

-- 弹幕 posted per UTC day across all rooms, raised by the room with every stored comment (the
-- comments themselves live in each room's Durable Object storage, which cannot be counted together).
CREATE TABLE IF NOT EXISTS danmaku_daily (
  day TEXT PRIMARY KEY NOT NULL, -- YYYY-MM-DD, UTC
  posts INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- The known devices of one account (用户管理 shows how many).
CREATE INDEX IF NOT EXISTS sign_in_devices_by_email ON sign_in_devices (email, used_at);

-- New accounts per day (概览) without reading every account.
CREATE INDEX IF NOT EXISTS users_by_created ON users (created_at);

-- 操作日志 filtered by what was acted on.
CREATE INDEX IF NOT EXISTS admin_audit_by_target ON admin_audit (target, at);
