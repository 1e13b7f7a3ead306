-- 管理后台 (worker/admin/, docs/decisions/0070-admin-roles.md, 0071-admin-two-step.md): the second step
-- of the role holders (TOTP secret, hashed recovery codes, the sessions that passed it, wrong codes)
-- and the audit log of every admin write. Roles themselves live on the account (app_metadata.role).
-- Times are epoch milliseconds.

-- One TOTP secret per account. confirmed_at is NULL while enrolment waits for its first code;
-- last_step is the last accepted 30-second step (a code is good once).
CREATE TABLE IF NOT EXISTS admin_totp (
  user_id TEXT PRIMARY KEY NOT NULL,
  secret TEXT NOT NULL, -- base32, never sent again after enrolment
  created_at INTEGER NOT NULL,
  confirmed_at INTEGER,
  last_step INTEGER NOT NULL DEFAULT 0
);

-- Ten one-time recovery codes per enrolment: only their SHA-256 (base64url) is kept.
CREATE TABLE IF NOT EXISTS admin_recovery_codes (
  user_id TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (user_id, code_hash)
) WITHOUT ROWID;

-- The account sessions (the access token's session_id) that passed the second step, and when.
CREATE TABLE IF NOT EXISTS admin_verified_sessions (
  session_id TEXT PRIMARY KEY NOT NULL,
  user_id TEXT NOT NULL,
  verified_at INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS admin_verified_sessions_by_user ON admin_verified_sessions (user_id);

-- Wrong codes per account (5 per 10 minutes), for the limit.
CREATE TABLE IF NOT EXISTS admin_code_failures (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  failed_at INTEGER NOT NULL
);

CREATE INDEX IF NOT EXISTS admin_code_failures_by_user ON admin_code_failures (user_id, failed_at);

-- 操作日志: every admin write. No route updates or deletes a row.
CREATE TABLE IF NOT EXISTS admin_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor_id TEXT NOT NULL, -- account id, or "cli" for the command line
  actor_email TEXT NOT NULL,
  action TEXT NOT NULL, -- e.g. "role.grant", "role.revoke", "two_step.enrol", "two_step.recovery_used"
  target TEXT NOT NULL, -- what it acted on (an account's e-mail, …)
  before_value TEXT, -- JSON, or NULL
  after_value TEXT -- JSON, or NULL
);

CREATE INDEX IF NOT EXISTS admin_audit_by_time ON admin_audit (at);
CREATE INDEX IF NOT EXISTS admin_audit_by_actor ON admin_audit (actor_email, at);
CREATE INDEX IF NOT EXISTS admin_audit_by_action ON admin_audit (action, at);

-- Role holders of the embedded account service, found without reading every account.
CREATE INDEX IF NOT EXISTS users_admin_role ON users (json_extract(raw_app_meta_data, '$.role')) WHERE json_extract(raw_app_meta_data, '$.role') IS NOT NULL;
