/** POST /signup (Supabase Auth's contract: tests/worker/account-service.sign-up.test.ts). */
import type { Hono } from "hono";
import { clientAddress } from "../../client-address";
import { confirmSignUpMail, existingAccountMail, verifyLink } from "../../mail/templates";
import { isoTime } from "../encoding";
import { BASE_PATH, json, sendLinkMail, sessionOrigin, type Service } from "../context";
import { phoneDisabled, userAlreadyExists, validationFailed } from "../errors";
import { issueOneTimeToken } from "../one-time-tokens";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../password";
import { RATE_LIMITS, enforceRateLimit } from "../rate-limit";
import { checkPasswordStrength, objectField, readJsonObject, stringField, validateEmail } from "../request";
import { newSession, sessionResponse } from "../tokens";
import { findUserByEmail, insertUserStatement, isUniqueViolation, newUserRow, obfuscatedUser, serializeUser, updateConfirmationSentStatement } from "../users";
import type { Metadata, UserRow } from "../users";

/** A confirmation link for `user` (a new one replaces the last), sent by mail. */
export async function sendConfirmation(svc: Service, user: Pick<UserRow, "id" | "email">, nowMs: number): Promise<void> {
  const { token, statements } = await issueOneTimeToken(svc.db, user.id, "signup", user.email, nowMs);
  await svc.db.batch([...statements, updateConfirmationSentStatement(svc.db, user.id, isoTime(nowMs))]);
  await sendLinkMail(svc, (origin) => confirmSignUpMail(svc.siteName, user.email, verifyLink(origin, token, "signup")));
}

/**
 * An address that is already registered. Auto-confirm: 422 user_already_exists (as GoTrue).
 * Confirmations on: the same answer as for a new address (a user without session); the owner of
 * a confirmed account gets a notice, an unconfirmed one a fresh link. The stored account is unchanged.
 */
async function existingAddress(svc: Service, existing: UserRow, password: string, data: Metadata, nowMs: number): Promise<Response> {
  if (svc.autoConfirm) throw userAlreadyExists();
  // Same work as a real sign-up, so the answer time does not tell registered addresses apart.
  await verifyPassword(password, DUMMY_PASSWORD_HASH);
  if (existing.email_confirmed_at) {
    await sendLinkMail(svc, (origin) => existingAccountMail(svc.siteName, existing.email, `${origin}/auth?mode=signin`));
    return json(obfuscatedUser(existing.email, data, nowMs));
  }
  await sendConfirmation(svc, existing, nowMs);
  const now = isoTime(nowMs);
  return json(serializeUser({ ...existing, confirmation_sent_at: now, updated_at: now }));
}

export function signupRoute(app: Hono, svc: Service): void {
  app.post(`${BASE_PATH}/signup`, async (c) => {
    const nowMs = svc.clock();
    await enforceRateLimit(svc.db, RATE_LIMITS.password, clientAddress(c.req.raw.headers), nowMs);
    const body = await readJsonObject(c.req.raw);
    const password = stringField(body, "password");
    const rawEmail = stringField(body, "email");
    const phone = stringField(body, "phone");
    const data: Metadata = objectField(body, "data") ?? {};

    if (!password) throw validationFailed("Signup requires a valid password");
    checkPasswordStrength(password);
    if (rawEmail && phone) throw validationFailed("Only an email address or phone number should be provided on signup.");
    if (!rawEmail && phone) throw phoneDisabled("Phone signups");
    const email = validateEmail(rawEmail);

    const existing = await findUserByEmail(svc.db, email);
    if (existing) return existingAddress(svc, existing, password, data, nowMs);

    const user = newUserRow({ email, passwordHash: await hashPassword(password), data, confirmed: svc.autoConfirm, nowMs });
    const created = svc.autoConfirm ? newSession(svc.db, user.id, nowMs, sessionOrigin(c)) : null;
    try {
      await svc.db.batch([insertUserStatement(svc.db, user), ...(created?.statements ?? [])]);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await findUserByEmail(svc.db, email);
      if (!raced) throw err;
      return existingAddress(svc, raced, password, data, nowMs);
    }
    if (!created) {
      await sendConfirmation(svc, user, nowMs);
      return json(serializeUser(user));
    }
    return json(await sessionResponse(await svc.tokenContext(nowMs), user, created.session, created.refreshToken));
  });
}
