/**
 * Per-IP fixed-window rate limits stored in D1 (table rate_limits).
 *
 * Supabase's defaults are /token 150 per 5 min (burst 30) and /signup, PUT /user 30 per
 * 5 min per IP. A fixed window approximates them: /token 30 per minute, /signup 30 per
 * 5 minutes, PUT /user 30 per 5 minutes (separate counters).
 */
import { rateLimited } from "./errors";

export interface RateLimitRule {
  bucket: string;
  limit: number;
  windowMs: number;
}

export const RATE_LIMITS = {
  token: { bucket: "token", limit: 30, windowMs: 60_000 },
  signup: { bucket: "signup", limit: 30, windowMs: 300_000 },
  updateUser: { bucket: "user_update", limit: 30, windowMs: 300_000 },
} as const satisfies Record<string, RateLimitRule>;

/** Counters older than this are deleted now and then. */
const STALE_AFTER_MS = 3_600_000;

/**
 * The visitor IP: `CF-Connecting-IP`, else the first `X-Forwarded-For` entry. The worker sets
 * these on its in-process requests; requests without either share the "unknown" counter.
 */
export function clientIp(headers: Headers): string {
  const cf = headers.get("CF-Connecting-IP")?.trim();
  if (cf) return cf.slice(0, 64);
  const forwarded = headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.slice(0, 64);
  return "unknown";
}

/** Counts one request; throws 429 over_request_rate_limit once the window's limit is exceeded. */
export async function enforceRateLimit(db: D1Database, rule: RateLimitRule, ip: string, nowMs: number): Promise<void> {
  const windowStart = Math.floor(nowMs / rule.windowMs) * rule.windowMs;
  const key = `${rule.bucket}:${ip}`;
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
    await db.prepare("DELETE FROM rate_limits WHERE window_start < ?1").bind(nowMs - STALE_AFTER_MS).run();
  }
  if (row && row.count > rule.limit) {
    throw rateLimited((windowStart + rule.windowMs - nowMs) / 1000);
  }
}
