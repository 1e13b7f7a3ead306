/**
 * Who a play counts for, without storing who they are: HMAC-SHA256 over the visitor's address
 * and user agent, keyed with a random salt of the UTC day (table play_salts). The salt is
 * deleted two days later (worker/plays/store.ts), after which a stored hash cannot be tied to
 * an address any more, nor the same visitor recognised across days. See docs/decisions/0051-play-counter.md.
 */
import { bytesToBase64Url, randomBytes, utf8 } from "../account-service/encoding";
import { clientAddress } from "../client-address";

const keys = new Map<string, Promise<CryptoKey>>();

async function loadKey(db: D1Database, day: string): Promise<CryptoKey> {
  await db
    .prepare("INSERT OR IGNORE INTO play_salts (day, salt) VALUES (?, ?)")
    .bind(day, bytesToBase64Url(randomBytes(32)))
    .run();
  const row = await db.prepare("SELECT salt FROM play_salts WHERE day = ?").bind(day).first<{ salt: string }>();
  if (!row) throw new Error(`play salt of ${day} is missing`);
  return crypto.subtle.importKey("raw", utf8.encode(row.salt), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The day's key, read once per isolate (every isolate reads the same salt from D1). */
function dayKey(db: D1Database, day: string): Promise<CryptoKey> {
  let key = keys.get(day);
  if (!key) {
    key = loadKey(db, day);
    key.catch(() => keys.delete(day));
    if (keys.size > 3) keys.clear();
    keys.set(day, key);
  }
  return key;
}

/** The visitor's hash for `day`: 128 bits of HMAC(salt, address + "\n" + user agent), base64url. */
export async function visitorHash(db: D1Database, day: string, headers: Headers): Promise<string> {
  const key = await dayKey(db, day);
  const input = `${clientAddress(headers)}\n${(headers.get("User-Agent") ?? "").slice(0, 512)}`;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8.encode(input)));
  return bytesToBase64Url(mac.slice(0, 16));
}
