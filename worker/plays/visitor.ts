/**
 * Who a play counts for, without storing who they are. Keys are HMAC-SHA256 with a random salt of
 * the UTC day (table play_salts), truncated to 128 bits:
 *
 * - the network: the visitor's address as Cloudflare reports it (CF-Connecting-IP), an IPv4
 *   address or an IPv6 /64 (shared/address-prefix.ts). Never a header the client chooses: a
 *   script that changes its User-Agent, X-Forwarded-For or cookies is the same network;
 * - the viewer: a signed-in viewer's account id (a household's accounts count apart, a phone
 *   moving between networks counts once), else the network.
 *
 * The salt is deleted two days later (with a flush: worker/plays/flush.ts), after which a stored key cannot be
 * tied to an address or account any more, nor one visitor recognised across days.
 * See docs/decisions/0051-play-counter.md.
 */
import { addressPrefix } from "../../shared/address-prefix";
import { bytesToBase64Url, randomBytes, utf8 } from "../account-service/encoding";
import { clientAddress } from "../client-address";

const keys = new Map<string, Promise<CryptoKey>>();

const readSalt = (db: D1Database, day: string) => db.prepare("SELECT salt FROM play_salts WHERE day = ?").bind(day).first<{ salt: string }>();

async function loadKey(db: D1Database, day: string): Promise<CryptoKey> {
  // Read first: only the first play of the day (per isolate) writes.
  let row = await readSalt(db, day);
  if (!row) {
    await db
      .prepare("INSERT OR IGNORE INTO play_salts (day, salt) VALUES (?, ?)")
      .bind(day, bytesToBase64Url(randomBytes(32)))
      .run();
    row = await readSalt(db, day);
  }
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

async function keyed(key: CryptoKey, input: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8.encode(input)));
  return bytesToBase64Url(mac.slice(0, 16));
}

export interface PlayKeys {
  /** Whom the once-per-title-per-day rule counts: the account, else the network. */
  viewer: string;
  /** The network the per-address limit counts. */
  network: string;
}

/** The keys of a play on `day` from the request's address and, when signed in, `userId`. */
export async function playKeys(db: D1Database, day: string, headers: Headers, userId: string | null): Promise<PlayKeys> {
  const key = await dayKey(db, day);
  const network = await keyed(key, `network\n${addressPrefix(clientAddress(headers))}`);
  return { network, viewer: userId ? await keyed(key, `account\n${userId}`) : network };
}
