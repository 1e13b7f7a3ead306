/**
 * Per-account sign-in throttling (OWASP authentication cheat sheet, "account lockout"): after
 * 5 wrong passwords for one e-mail address within 15 minutes, every password attempt for that
 * address is refused for 1 minute, then 2, 4, … (each wrong password after a lock doubles the
 * next one), from any visitor address and whatever the password — except from a device that
 * signed in to the account before, which has a record of its own (known-devices.ts: a
 * stranger's wrong passwords cannot keep the owner out). Unknown addresses are counted the same
 * way, so the answer never tells whether an account exists. A successful sign-in clears the
 * record it counted against; a password reset clears the account's.
 */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const FIRST_LOCK_MS = 60_000;
/** The longest lock: 2^10 minutes (about 17 hours). */
const MAX_LOCK_DOUBLINGS = 10;

export interface FailureRecord {
  failures: number;
  first_at: number;
  locks: number;
  locked_until: number;
}

/** Milliseconds until the address may try again, or 0. */
export function lockRemaining(record: FailureRecord | null, nowMs: number): number {
  return record && record.locked_until > nowMs ? record.locked_until - nowMs : 0;
}

/** The record after one more wrong password at `nowMs` (pure). */
export function afterFailure(record: FailureRecord | null, nowMs: number): FailureRecord {
  const quietSince = record ? Math.max(record.first_at, record.locked_until) : 0;
  if (!record || nowMs - quietSince > FAILURE_WINDOW_MS) {
    return { failures: 1, first_at: nowMs, locks: 0, locked_until: 0 };
  }
  const failures = record.failures + 1;
  if (failures < MAX_FAILURES) return { ...record, failures };
  const lockMs = FIRST_LOCK_MS * 2 ** Math.min(record.locks, MAX_LOCK_DOUBLINGS);
  // One more wrong password after this lock locks again, for twice as long.
  return { failures: MAX_FAILURES - 1, first_at: nowMs, locks: record.locks + 1, locked_until: nowMs + lockMs };
}

export function readFailures(db: D1Database, email: string): Promise<FailureRecord | null> {
  return db.prepare("SELECT failures, first_at, locks, locked_until FROM sign_in_failures WHERE email = ?1").bind(email).first<FailureRecord>();
}

export async function recordFailure(db: D1Database, email: string, record: FailureRecord | null, nowMs: number): Promise<FailureRecord> {
  const next = afterFailure(record, nowMs);
  await db
    .prepare(
      "INSERT INTO sign_in_failures (email, failures, first_at, locks, locked_until) VALUES (?1, ?2, ?3, ?4, ?5) " +
        "ON CONFLICT (email) DO UPDATE SET failures = ?2, first_at = ?3, locks = ?4, locked_until = ?5",
    )
    .bind(email, next.failures, next.first_at, next.locks, next.locked_until)
    .run();
  return next;
}

export function clearFailuresStatement(db: D1Database, email: string): D1PreparedStatement {
  return db.prepare("DELETE FROM sign_in_failures WHERE email = ?1").bind(email);
}
