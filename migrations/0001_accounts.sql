-- Embedded account service (worker/account-service): users, sessions, refresh tokens and
-- per-IP rate-limit counters. Used only when no real Supabase project is configured.
--
-- Timestamps are RFC 3339 / ISO 8601 UTC strings with milliseconds
-- ("2025-01-01T00:00:00.000Z"): they sort lexicographically in time order and are returned
-- to clients unchanged. rate_limits.window_start is a Unix time in milliseconds.

CREATE TABLE users (
  id                   TEXT    PRIMARY KEY NOT NULL,           -- UUID
  email                TEXT    NOT NULL UNIQUE,                -- always stored lower-case
  encrypted_password   TEXT    NOT NULL,                       -- pbkdf2-sha256$<iter>$<salt b64>$<hash b64>
  email_confirmed_at   TEXT,
  confirmation_sent_at TEXT,
  last_sign_in_at      TEXT,
  raw_user_meta_data   TEXT    NOT NULL DEFAULT '{}',          -- JSON object (user_metadata)
  raw_app_meta_data    TEXT    NOT NULL DEFAULT '{}',          -- JSON object (app_metadata)
  identity_id          TEXT    NOT NULL UNIQUE,                -- id of the user's single "email" identity
  created_at           TEXT    NOT NULL,
  updated_at           TEXT    NOT NULL
);

CREATE TABLE sessions (
  id         TEXT PRIMARY KEY NOT NULL,                        -- UUID, the JWT session_id claim
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,                                    -- sign-in time (amr timestamp)
  updated_at TEXT NOT NULL,                                    -- last refresh
  not_after  TEXT                                              -- set when the session was revoked (refresh-token reuse)
);

CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE refresh_tokens (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  token      TEXT    NOT NULL UNIQUE,                          -- opaque, 24 random bytes base64url
  session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id    TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  parent     TEXT,                                             -- token this one was rotated from
  revoked    INTEGER NOT NULL DEFAULT 0,                       -- 0 | 1
  created_at TEXT    NOT NULL,
  updated_at TEXT    NOT NULL                                  -- revocation time once revoked = 1
);

CREATE INDEX refresh_tokens_session_id_revoked_idx ON refresh_tokens (session_id, revoked, id);
CREATE INDEX refresh_tokens_user_id_idx ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_parent_idx ON refresh_tokens (parent);

CREATE TABLE rate_limits (
  key          TEXT    PRIMARY KEY NOT NULL,                   -- "<bucket>:<client ip>"
  window_start INTEGER NOT NULL,                               -- ms, start of the current fixed window
  count        INTEGER NOT NULL
);

CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start);
