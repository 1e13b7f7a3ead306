/**
 * One-time links of the account e-mails: a random token goes into the link, only its SHA-256
 * is stored; a token is used at most once, within an hour, and a new link of the same kind
 * replaces the previous one.
 */
import { bytesToBase64Url, randomBytes, utf8 } from "./encoding";

export type OneTimeKind = "signup" | "recovery" | "email_change";

export const ONE_TIME_TOKEN_TTL_MS = 3_600_000;
/** What a token in a link looks like (32 random bytes, base64url); anything else is not looked up. */
export const ONE_TIME_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Statements that store a new token (replacing the user's previous one of this kind), and the token. */
export async function issueOneTimeToken(
  db: D1Database,
  userId: string,
  kind: OneTimeKind,
  relatesTo: string,
  nowMs: number,
): Promise<{ token: string; statements: D1PreparedStatement[] }> {
  const token = bytesToBase64Url(randomBytes(32));
  return {
    token,
    statements: [
      db.prepare("DELETE FROM one_time_tokens WHERE user_id = ?1 AND kind = ?2").bind(userId, kind),
      db
        .prepare("INSERT INTO one_time_tokens (token_hash, user_id, kind, relates_to, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(await sha256Hex(token), userId, kind, relatesTo, nowMs),
    ],
  };
}

export interface ConsumedToken {
  user_id: string;
  relates_to: string;
}

/** Uses a token: its user and address when it exists, is of `kind` and is under an hour old (then it is gone). */
export async function consumeOneTimeToken(db: D1Database, token: string, kind: OneTimeKind, nowMs: number): Promise<ConsumedToken | null> {
  if (!ONE_TIME_TOKEN_PATTERN.test(token)) return null;
  // DELETE … RETURNING: two concurrent uses cannot both get the row.
  const row = await db
    .prepare("DELETE FROM one_time_tokens WHERE token_hash = ?1 AND kind = ?2 RETURNING user_id, relates_to, created_at")
    .bind(await sha256Hex(token), kind)
    .first<ConsumedToken & { created_at: number }>();
  if (!row || nowMs - row.created_at > ONE_TIME_TOKEN_TTL_MS) return null;
  return { user_id: row.user_id, relates_to: row.relates_to };
}
