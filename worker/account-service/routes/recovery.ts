/**
 * E-mail links: POST /recover (password reset), POST /resend (sign-up confirmation or e-mail
 * change link again) and POST /verify {token_hash, type} (uses a link: a session, as GoTrue).
 * /recover and /resend answer the same for known and unknown addresses.
 */
import type { Context, Hono } from "hono";
import { clientAddress } from "../../client-address";
import { recoveryMail, resetLink } from "../../mail/templates";
import { isoTime } from "../encoding";
import { BASE_PATH, json, sendLinkMail, sessionOrigin, type Service } from "../context";
import { AuthServiceError, emailRateLimited, otpExpired, userBanned, validationFailed } from "../errors";
import { consumeOneTimeToken, issueOneTimeToken, type OneTimeKind } from "../one-time-tokens";
import { RATE_LIMITS, enforceRateLimit } from "../rate-limit";
import { readJsonObject, stringField, validateEmail } from "../request";
import { clearFailuresStatement } from "../throttle";
import { newSession, sessionResponse } from "../tokens";
import { applyEmailChangeStatement, confirmEmailStatement, findUserByEmail, isBanned, isUniqueViolation, selectUserByIdStatement } from "../users";
import type { UserRow } from "../users";
import { sendConfirmation } from "./signup";

/** One mail per address per minute (Supabase's default), checked for known and unknown addresses alike. */
async function perRecipientLimit(svc: Service, email: string, nowMs: number): Promise<void> {
  try {
    await enforceRateLimit(svc.db, { bucket: "mail_to", limit: 1, windowMs: 60_000 }, email, nowMs);
  } catch (error) {
    if (error instanceof AuthServiceError && error.status === 429) throw emailRateLimited(60);
    throw error;
  }
}

async function emailRequest(svc: Service, c: Context, nowMs: number): Promise<{ email: string; type: string | undefined }> {
  await enforceRateLimit(svc.db, RATE_LIMITS.email, clientAddress(c.req.raw.headers), nowMs);
  const body = await readJsonObject(c.req.raw);
  const email = validateEmail(stringField(body, "email"));
  await perRecipientLimit(svc, email, nowMs);
  return { email, type: stringField(body, "type") };
}

async function recover(svc: Service, c: Context): Promise<Response> {
  const nowMs = svc.clock();
  const { email } = await emailRequest(svc, c, nowMs);
  const user = await findUserByEmail(svc.db, email);
  if (user) {
    const { token, statements } = await issueOneTimeToken(svc.db, user.id, "recovery", user.email, nowMs);
    await svc.db.batch(statements);
    await sendLinkMail(svc, (origin) => recoveryMail(svc.siteName, user.email, resetLink(origin, token)));
  }
  return json({});
}

async function resend(svc: Service, c: Context): Promise<Response> {
  const nowMs = svc.clock();
  const { email, type } = await emailRequest(svc, c, nowMs);
  if (type !== "signup") throw validationFailed("Unsupported resend type");
  const user = await findUserByEmail(svc.db, email);
  if (user && !user.email_confirmed_at) await sendConfirmation(svc, user, nowMs);
  return json({});
}

const VERIFY_TYPES: Record<string, OneTimeKind> = { signup: "signup", email: "signup", recovery: "recovery", email_change: "email_change" };

/** Applies a used link to its user: confirms the address, or moves the account to its new one. */
function applyLink(svc: Service, kind: OneTimeKind, user: UserRow, relatesTo: string, nowMs: number): D1PreparedStatement[] {
  const now = isoTime(nowMs);
  if (kind === "email_change") {
    if (user.email_change !== relatesTo) throw otpExpired();
    return [applyEmailChangeStatement(svc.db, user.id, relatesTo, now)];
  }
  if (relatesTo !== user.email) throw otpExpired();
  // Following a recovery link proves the mailbox too; it also lifts the sign-in throttle.
  return [confirmEmailStatement(svc.db, user.id, now), ...(kind === "recovery" ? [clearFailuresStatement(svc.db, user.email)] : [])];
}

async function verify(svc: Service, c: Context): Promise<Response> {
  const nowMs = svc.clock();
  await enforceRateLimit(svc.db, RATE_LIMITS.email, clientAddress(c.req.raw.headers), nowMs);
  const body = await readJsonObject(c.req.raw);
  const kind = VERIFY_TYPES[stringField(body, "type") ?? ""];
  const tokenHash = stringField(body, "token_hash");
  if (!kind || !tokenHash) throw validationFailed("Verify requires a token_hash and a type");
  const used = await consumeOneTimeToken(svc.db, tokenHash, kind, nowMs);
  if (!used) throw otpExpired();
  const found = (await selectUserByIdStatement(svc.db, used.user_id).first<UserRow>()) ?? null;
  if (!found) throw otpExpired();
  if (isBanned(found, nowMs)) throw userBanned(403);
  const created = newSession(svc.db, found.id, nowMs, sessionOrigin(c));
  try {
    await svc.db.batch([...applyLink(svc, kind, found, used.relates_to, nowMs), ...created.statements]);
  } catch (error) {
    if (isUniqueViolation(error)) throw otpExpired(); // the new address was taken meanwhile
    throw error;
  }
  const user = (await selectUserByIdStatement(svc.db, found.id).first<UserRow>()) ?? found;
  return json(await sessionResponse(await svc.tokenContext(nowMs), user, created.session, created.refreshToken));
}

export function recoveryRoutes(app: Hono, svc: Service): void {
  app.post(`${BASE_PATH}/recover`, (c) => recover(svc, c));
  app.post(`${BASE_PATH}/resend`, (c) => resend(svc, c));
  app.post(`${BASE_PATH}/verify`, (c) => verify(svc, c));
}
