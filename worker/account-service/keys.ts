/**
 * The access-token signing key. AUTH_JWT_SECRET when set (production: `wrangler secret put`);
 * otherwise a random key generated on first use and kept in D1 (table auth_keys), so no key
 * from the repository ever signs a token. Every isolate reads the same row: the first writer
 * wins (INSERT OR IGNORE), everyone then reads what was stored.
 */
import { bytesToBase64Url, isoTime, randomBytes } from "./encoding";
import { AuthServiceError } from "./errors";
import { underlyingBinding } from "../outside-calls";

const KEY_NAME = "jwt";
const KEY_BYTES = 48;

const stored = new WeakMap<D1Database, Promise<string>>();

async function provision(db: D1Database): Promise<string> {
  const candidate = bytesToBase64Url(randomBytes(KEY_BYTES));
  const inserted = await db
    .prepare("INSERT OR IGNORE INTO auth_keys (name, secret, created_at) VALUES (?1, ?2, ?3)")
    .bind(KEY_NAME, candidate, isoTime(Date.now()))
    .run();
  if (inserted.meta.changes === 1) {
    console.warn("account-service: AUTH_JWT_SECRET is not set; generated a random signing key and stored it in D1 (auth_keys)");
  }
  const row = await db.prepare("SELECT secret FROM auth_keys WHERE name = ?1").bind(KEY_NAME).first<{ secret: string }>();
  if (!row?.secret) throw new Error("auth_keys: the key row is missing after insert");
  return row.secret;
}

/** The key kept in D1 (created when missing); a failure is a 503 with a log line, never a fallback key. */
export async function storedSigningKey(db: D1Database): Promise<string> {
  // Per database, not per request: a request's D1 is a wrapper of the binding (worker/outside-calls.ts).
  const binding = underlyingBinding(db);
  let key = stored.get(binding);
  if (!key) {
    key = provision(db);
    stored.set(binding, key);
    key.catch(() => stored.delete(binding));
  }
  try {
    return await key;
  } catch (error) {
    console.error("account-service: no signing key (AUTH_JWT_SECRET unset and D1 auth_keys unavailable)", error);
    throw new AuthServiceError(503, "signing_key_unavailable", "The service has no signing key; set AUTH_JWT_SECRET or check D1");
  }
}
