/**
 * The rules of the second step of the 管理后台 (docs/decisions/0071-admin-two-step.md): TOTP
 * (RFC 6238, 6 digits, 30 s) or a one-time recovery code; 5 wrong codes per 10 minutes per
 * account; asked again 12 hours after it was passed. Pure: the worker keeps the state in D1.
 */

/** Wrong codes an account may enter within CODE_FAILURE_WINDOW_MS before every code is refused. */
export const CODE_FAILURE_LIMIT = 5;
export const CODE_FAILURE_WINDOW_MS = 10 * 60_000;
/** How long a session stays past the second step. */
export const SECOND_STEP_TTL_MS = 12 * 3_600_000;
/** Recovery codes per enrolment, each good once. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (no 0/O, 1/I/L: read from paper). */
export const RECOVERY_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const RECOVERY_LENGTH = 10;

export const SECOND_STEP_MESSAGES = {
  wrongCode: "验证码错误，请重试",
  badFormat: "请输入 6 位验证码或恢复码",
  tooMany: "验证码错误次数过多，请10分钟后再试",
  alreadyEnrolled: "已启用两步验证",
  notEnrolled: "尚未启用两步验证，请先完成绑定",
} as const;

/** What the visitor typed, once spaces and dashes are gone: a 6-digit TOTP code or a recovery code. */
export type EnteredCode = { kind: "totp"; code: string } | { kind: "recovery"; code: string };

export function parseEnteredCode(input: unknown): EnteredCode | null {
  if (typeof input !== "string") return null;
  const compact = input.replace(/[\s-]/g, "").toUpperCase();
  if (/^\d{6}$/.test(compact)) return { kind: "totp", code: compact };
  if (compact.length === RECOVERY_LENGTH && [...compact].every((ch) => RECOVERY_ALPHABET.includes(ch))) return { kind: "recovery", code: compact };
  return null;
}

/** A recovery code from random bytes (one character per byte, unbiased by rejection), grouped as XXXXX-XXXXX. */
export function recoveryCodeFrom(random: (count: number) => Uint8Array): string {
  const limit = 256 - (256 % RECOVERY_ALPHABET.length);
  let code = "";
  while (code.length < RECOVERY_LENGTH) {
    for (const byte of random(RECOVERY_LENGTH)) {
      if (byte < limit && code.length < RECOVERY_LENGTH) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
    }
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Whether a session verified at `verifiedAt` is still past the second step at `now`. */
export function secondStepFresh(verifiedAt: number | null, now: number): boolean {
  return verifiedAt !== null && now >= verifiedAt && now - verifiedAt < SECOND_STEP_TTL_MS;
}

/** Whether `failures` wrong codes within the window already lock the account. */
export function codesLocked(failuresInWindow: number): boolean {
  return failuresInWindow >= CODE_FAILURE_LIMIT;
}
