-- Devices that signed in to an account (OWASP's "device cookies"; worker/account-service/known-devices.ts,
-- docs/decisions/0013-lockout-and-known-devices.md): a browser that signed in with the right password
-- keeps a random token in an HttpOnly cookie; only its SHA-256 is stored, with the account's e-mail.
-- Such a device signs in even while wrong passwords from elsewhere hold the account locked.

CREATE TABLE IF NOT EXISTS sign_in_devices (
  token_hash TEXT NOT NULL, -- SHA-256 of the cookie's token, base64url
  email TEXT NOT NULL, -- lower-cased
  used_at INTEGER NOT NULL, -- epoch milliseconds of the last sign-in from the device
  PRIMARY KEY (token_hash, email)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS sign_in_devices_by_use ON sign_in_devices (used_at);
