-- The play counter's visitor key (worker/plays/visitor.ts): one random salt per UTC day. A visitor
-- is HMAC(salt of the day, address + user agent); the salt is deleted with the day's play_visits
-- after two days, so a stored visitor hash can then no longer be tied to any address.

CREATE TABLE IF NOT EXISTS play_salts (
  day TEXT PRIMARY KEY, -- UTC date, YYYY-MM-DD
  salt TEXT NOT NULL -- 32 random bytes, base64url
) WITHOUT ROWID;
