-- Accounts that hold (worker/account-service): a signing key kept in D1 when AUTH_JWT_SECRET is
-- not set, per-account sign-in throttling, one-time e-mail links (stored hashed), what the
-- session list shows, pending e-mail changes, and the local development mailbox.

-- HS256 signing key generated on first use (name 'jwt'); never used when AUTH_JWT_SECRET is set.
CREATE TABLE auth_keys (
  name       TEXT PRIMARY KEY NOT NULL,
  secret     TEXT NOT NULL,                                     -- 48 random bytes, base64url
  created_at TEXT NOT NULL
);

-- Wrong passwords per e-mail address (known or not): 5 in 15 minutes lock the address for
-- 1, 2, 4 … minutes. Times in milliseconds since the epoch.
CREATE TABLE sign_in_failures (
  email        TEXT    PRIMARY KEY NOT NULL,                    -- lower-cased
  failures     INTEGER NOT NULL,                                -- wrong passwords since first_at
  first_at     INTEGER NOT NULL,                                -- start of the 15-minute window
  locks        INTEGER NOT NULL DEFAULT 0,                      -- locks so far (the next lasts 2^locks minutes)
  locked_until INTEGER NOT NULL DEFAULT 0
);

-- One-time links of the account e-mails: only the SHA-256 of the token is kept.
CREATE TABLE one_time_tokens (
  token_hash TEXT PRIMARY KEY NOT NULL,                         -- hex SHA-256 of the token in the link
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,                                     -- 'signup' | 'recovery' | 'email_change'
  relates_to TEXT NOT NULL,                                     -- the address the link was sent to
  created_at INTEGER NOT NULL                                   -- ms, valid for one hour
);

CREATE INDEX one_time_tokens_user_kind_idx ON one_time_tokens (user_id, kind);

-- What the profile's session list shows.
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN country TEXT;
ALTER TABLE sessions ADD COLUMN ip TEXT;

-- An e-mail change waiting for the confirmation link sent to the new address.
ALTER TABLE users ADD COLUMN email_change TEXT;

-- Development mailbox (/dev/mail): only written when the site is served from localhost.
CREATE TABLE dev_mail (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  to_address TEXT NOT NULL,
  subject    TEXT NOT NULL,
  text_body  TEXT NOT NULL,
  html_body  TEXT NOT NULL,
  created_at TEXT NOT NULL
);
