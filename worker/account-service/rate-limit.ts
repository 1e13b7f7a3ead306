/**
 * Fixed-window request limits stored in D1 (table rate_limits), each with its own scope:
 *
 * - password sign-ins and sign-ups share one budget per visitor address: 30 per 5 minutes
 *   (Supabase's default for sign-ins and sign-ups);
 * - token refreshes are limited per session, never per address: many people behind one
 *   carrier-grade NAT address refresh independently; unknown refresh tokens are limited per
 *   address (nobody's session is behind them);
 * - profile updates are limited per user; e-mails per visitor address and per recipient.
 */
import { rateLimited } from "./errors";

export interface RateLimitRule {
  bucket: string;
  limit: number;
  windowMs: number;
}

const FIVE_MINUTES = 300_000;

export const RATE_LIMITS = {
  /** Password grants and sign-ups, per visitor address. */
  password: { bucket: "password", limit: 30, windowMs: FIVE_MINUTES },
  /**
   * Refresh-token grants, per session: only a bound on what one session can cost, far above real
   * use (a device refreshes about once an hour; opening many tabs at once makes a short burst).
   */
  refresh: { bucket: "refresh", limit: 1800, windowMs: FIVE_MINUTES },
  /** Refresh tokens that match no session, per visitor address. */
  unknownRefresh: { bucket: "refresh_unknown", limit: 150, windowMs: FIVE_MINUTES },
  /** PUT /user, per user. */
  updateUser: { bucket: "user_update", limit: 30, windowMs: FIVE_MINUTES },
  /** Recovery and resend requests, per visitor address. */
  email: { bucket: "email", limit: 30, windowMs: FIVE_MINUTES },
} as const satisfies Record<string, RateLimitRule>;

/** Counters older than this are deleted now and then. */
const STALE_AFTER_MS = 3_600_000;

/** Counts one request against `rule` for `subject` (an address, a session or a user id); 429 once over the limit. */
export async function enforceRateLimit(db: D1Database, rule: RateLimitRule, subject: string, nowMs: number): Promise<void> {
  const windowStart = Math.floor(nowMs / rule.windowMs) * rule.windowMs;
  const key = `${rule.bucket}:${subject.slice(0, 128)}`;
  const row = await db
    .prepare(
      "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1) " +
        "ON CONFLICT (key) DO UPDATE SET " +
        "count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END, " +
        "window_start = excluded.window_start " +
        "RETURNING count",
    )
    .bind(key, windowStart)
    .first<{ count: number }>();
  if (Math.random() < 0.01) {
    await db
      .prepare("DELETE FROM rate_limits WHERE window_start < ?1")
      .bind(nowMs - STALE_AFTER_MS)
      .run();
  }
  if (row && row.count > rule.limit) {
    throw rateLimited((windowStart + rule.windowMs - nowMs) / 1000);
  }
}
