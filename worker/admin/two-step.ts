/**
 * The second step's state in D1 (migrations/0010_admin.sql; rules in shared/admin/second-step.ts,
 * docs/decisions/0071-admin-two-step.md): enrolment (a pending secret until its first code, then
 * ten hashed recovery codes), the account sessions that passed it, and the wrong codes that lock
 * an account for a while. The clock is the caller's `nowMs`.
 */
import { CODE_FAILURE_WINDOW_MS, codesLocked, parseEnteredCode, RECOVERY_CODE_COUNT, recoveryCodeFrom, secondStepFresh } from "../../shared/admin/second-step";
import { bytesToBase64Url, randomBytes, utf8 } from "../account-service/encoding";
import { auditStatement, prepared, type AuditEntry } from "./audit";
import { acceptedStep, newTotpSecret } from "./totp";

export type SecondStep = { kind: "enrol" } | { kind: "verify" } | { kind: "passed"; verifiedAt: number };

interface TotpRow {
  secret: string;
  confirmed_at: number | null;
  last_step: number;
}

/** Where the session `sessionId` of account `userId` stands. */
export async function secondStepOf(db: D1Database, userId: string, sessionId: string, nowMs: number): Promise<SecondStep> {
  const [totp, verified] = await db.batch([
    db.prepare("SELECT confirmed_at FROM admin_totp WHERE user_id = ?").bind(userId),
    db.prepare("SELECT verified_at FROM admin_verified_sessions WHERE session_id = ? AND user_id = ?").bind(sessionId, userId),
  ]);
  const confirmedAt = (totp.results[0] as { confirmed_at: number | null } | undefined)?.confirmed_at ?? null;
  if (confirmedAt === null) return { kind: "enrol" };
  const verifiedAt = (verified.results[0] as { verified_at: number } | undefined)?.verified_at ?? null;
  return verifiedAt !== null && secondStepFresh(verifiedAt, nowMs) ? { kind: "passed", verifiedAt } : { kind: "verify" };
}

/** The secret waiting for its first code (made on the first call), or null once enrolment is done. */
export async function pendingSecret(db: D1Database, userId: string, nowMs: number): Promise<string | null> {
  await db
    .prepare("INSERT INTO admin_totp (user_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING")
    .bind(userId, newTotpSecret(), nowMs)
    .run();
  const row = await db.prepare("SELECT secret, confirmed_at, last_step FROM admin_totp WHERE user_id = ?").bind(userId).first<TotpRow>();
  return row && row.confirmed_at === null ? row.secret : null;
}

export type CodeRefusal = "format" | "wrong" | "locked" | "not_enrolled" | "enrolled";
export type CodeOutcome<T> = { ok: true; value: T } | { ok: false; reason: CodeRefusal };

async function recoveryHash(userId: string, code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8.encode(`${userId}:${code.replace(/-/g, "")}`));
  return bytesToBase64Url(new Uint8Array(digest));
}

async function failuresInWindow(db: D1Database, userId: string, nowMs: number): Promise<number> {
  const row = await db
    .prepare("SELECT COUNT(*) AS n FROM admin_code_failures WHERE user_id = ? AND failed_at > ?")
    .bind(userId, nowMs - CODE_FAILURE_WINDOW_MS)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function recordFailure(db: D1Database, userId: string, nowMs: number): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM admin_code_failures WHERE user_id = ? AND failed_at <= ?").bind(userId, nowMs - CODE_FAILURE_WINDOW_MS),
    db.prepare("INSERT INTO admin_code_failures (user_id, failed_at) VALUES (?, ?)").bind(userId, nowMs),
  ]);
}

function passStatements(db: D1Database, userId: string, sessionId: string, nowMs: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        "INSERT INTO admin_verified_sessions (session_id, user_id, verified_at) VALUES (?, ?, ?) " +
          "ON CONFLICT (session_id) DO UPDATE SET user_id = excluded.user_id, verified_at = excluded.verified_at",
      )
      .bind(sessionId, userId, nowMs),
    db.prepare("DELETE FROM admin_code_failures WHERE user_id = ?").bind(userId),
  ];
}

export interface Enrolled {
  /** Shown once, then only their hashes are kept. */
  recoveryCodes: string[];
}

/** The first code of a pending secret: enrolment done, this session passed, ten recovery codes made. */
export async function confirmEnrolment(
  db: D1Database,
  userId: string,
  sessionId: string,
  input: unknown,
  nowMs: number,
  audit: AuditEntry,
): Promise<CodeOutcome<Enrolled>> {
  const row = await db.prepare("SELECT secret, confirmed_at, last_step FROM admin_totp WHERE user_id = ?").bind(userId).first<TotpRow>();
  if (!row) return { ok: false, reason: "not_enrolled" };
  if (row.confirmed_at !== null) return { ok: false, reason: "enrolled" };
  if (codesLocked(await failuresInWindow(db, userId, nowMs))) return { ok: false, reason: "locked" };
  const entered = parseEnteredCode(input);
  if (!entered || entered.kind !== "totp") return { ok: false, reason: "format" };
  const step = acceptedStep(row.secret, entered.code, nowMs);
  if (step === null) {
    await recordFailure(db, userId, nowMs);
    return { ok: false, reason: "wrong" };
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCodeFrom(randomBytes));
  const hashes = await Promise.all(recoveryCodes.map((code) => recoveryHash(userId, code)));
  const [confirmed] = await db.batch([
    db.prepare("UPDATE admin_totp SET confirmed_at = ?, last_step = ? WHERE user_id = ? AND confirmed_at IS NULL").bind(nowMs, step, userId),
    db.prepare("DELETE FROM admin_recovery_codes WHERE user_id = ?").bind(userId),
    ...hashes.map((hash) => db.prepare("INSERT INTO admin_recovery_codes (user_id, code_hash) VALUES (?, ?)").bind(userId, hash)),
    ...passStatements(db, userId, sessionId, nowMs),
    prepared(db, auditStatement(audit, nowMs)),
  ]);
  if (confirmed.meta.changes !== 1) return { ok: false, reason: "enrolled" };
  return { ok: true, value: { recoveryCodes } };
}

export interface Verified {
  /** A recovery code was used: how many are left. */
  recoveryLeft: number | null;
}

/** A 6-digit code (each 30-second step accepted once) or an unused recovery code: this session passes. */
export async function verifySecondStep(db: D1Database, userId: string, sessionId: string, input: unknown, nowMs: number): Promise<CodeOutcome<Verified>> {
  const row = await db.prepare("SELECT secret, confirmed_at, last_step FROM admin_totp WHERE user_id = ?").bind(userId).first<TotpRow>();
  if (!row || row.confirmed_at === null) return { ok: false, reason: "not_enrolled" };
  if (codesLocked(await failuresInWindow(db, userId, nowMs))) return { ok: false, reason: "locked" };
  const entered = parseEnteredCode(input);
  if (!entered) return { ok: false, reason: "format" };
  if (entered.kind === "totp") {
    const step = acceptedStep(row.secret, entered.code, nowMs);
    if (step !== null && step > row.last_step) {
      const [used] = await db.batch([
        db.prepare("UPDATE admin_totp SET last_step = ? WHERE user_id = ? AND last_step < ?").bind(step, userId, step),
        ...passStatements(db, userId, sessionId, nowMs),
      ]);
      if (used.meta.changes === 1) return { ok: true, value: { recoveryLeft: null } };
    }
  } else {
    const hash = await recoveryHash(userId, entered.code);
    const [used] = await db.batch([
      db.prepare("UPDATE admin_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL").bind(nowMs, userId, hash),
    ]);
    if (used.meta.changes === 1) {
      await db.batch(passStatements(db, userId, sessionId, nowMs));
      const left = await db.prepare("SELECT COUNT(*) AS n FROM admin_recovery_codes WHERE user_id = ? AND used_at IS NULL").bind(userId).first<{ n: number }>();
      return { ok: true, value: { recoveryLeft: left?.n ?? 0 } };
    }
  }
  await recordFailure(db, userId, nowMs);
  return { ok: false, reason: "wrong" };
}
