/**
 * Known devices (OWASP authentication cheat sheet, "device cookies"): a browser that signed in
 * to an account with the right password keeps a random token (an HttpOnly cookie set by the
 * worker, worker/auth/api.ts); D1 keeps only its SHA-256 with the account's e-mail
 * (sign_in_devices). Per-account throttling (throttle.ts) then keeps two records per account:
 *
 * - wrong passwords from anywhere else count against the account itself, and lock it for
 *   everyone but its known devices;
 * - wrong passwords from a known device count against that device (and account) only.
 *
 * So a stranger's wrong passwords cannot keep the owner out of a device they signed in on
 * before, and a stolen device cookie still gets five guesses per lock like anyone else.
 * docs/decisions/0013-lockout-and-known-devices.md.
 */
import { bytesToBase64Url, randomBytes, utf8 } from "./encoding";

/** The browser's cookie holding its device token. */
export const DEVICE_COOKIE = "yingshi-device";
/** The header the worker forwards the token in to the embedded service (like the visitor's address). */
export const DEVICE_HEADER = "X-Sign-In-Device";
/** A device is known for this long after its last sign-in (also the cookie's lifetime). */
export const DEVICE_TTL_MS = 180 * 86_400_000;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new device token: 32 random bytes, base64url. */
export function newDeviceToken(): string {
  return bytesToBase64Url(randomBytes(32));
}

/** The token if it has a token's form, else null (a cookie or header the client made up). */
export function deviceToken(value: string | null | undefined): string | null {
  return value && TOKEN.test(value) ? value : null;
}

async function tokenHash(token: string): Promise<string> {
  return bytesToBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8.encode(token))));
}

/** Whether `token`'s device signed in to `email` within DEVICE_TTL_MS. */
export async function isKnownDevice(db: D1Database, token: string | null, email: string, nowMs: number): Promise<boolean> {
  if (!token) return false;
  const row = await db
    .prepare("SELECT 1 AS known FROM sign_in_devices WHERE token_hash = ?1 AND email = ?2 AND used_at > ?3")
    .bind(await tokenHash(token), email, nowMs - DEVICE_TTL_MS)
    .first<{ known: number }>();
  return row !== null;
}

/** Remembers that `token`'s device signed in to `email` now (and now and then forgets devices unused for DEVICE_TTL_MS). */
export async function rememberDevice(db: D1Database, token: string, email: string, nowMs: number): Promise<void> {
  await db
    .prepare("INSERT INTO sign_in_devices (token_hash, email, used_at) VALUES (?1, ?2, ?3) ON CONFLICT (token_hash, email) DO UPDATE SET used_at = ?3")
    .bind(await tokenHash(token), email, nowMs)
    .run();
  if (Math.random() < 0.01) {
    await db
      .prepare("DELETE FROM sign_in_devices WHERE used_at <= ?1")
      .bind(nowMs - DEVICE_TTL_MS)
      .run();
  }
}

/** Whose failures a password attempt counts against: the account's own record, or a known device's. */
export interface ThrottleLane {
  /** Key of the record in sign_in_failures. */
  key: string;
  knownDevice: boolean;
}

/** The record an attempt for `email` (already lower-cased; `prefix` keeps the worker's keys apart) counts against. */
export async function throttleLane(db: D1Database, email: string, token: string | null, nowMs: number, prefix = ""): Promise<ThrottleLane> {
  if (token && (await isKnownDevice(db, token, email, nowMs))) {
    return { key: `${prefix}device:${(await tokenHash(token)).slice(0, 22)}:${email}`, knownDevice: true };
  }
  return { key: `${prefix}${email}`, knownDevice: false };
}
