/** POST /token?grant_type=password|refresh_token. */
import type { Context, Hono } from "hono";
import { clientAddress } from "../../client-address";
import { isoTime } from "../encoding";
import { BASE_PATH, json, sessionOrigin, type Service } from "../context";
import { emailNotConfirmed, invalidCredentials, phoneDisabled, refreshTokenNotFound, tooManyAttempts, userBanned, validationFailed } from "../errors";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "../password";
import { RATE_LIMITS, enforceRateLimit } from "../rate-limit";
import { readJsonObject, stringField } from "../request";
import { DEVICE_HEADER, deviceToken, throttleLane } from "../known-devices";
import { clearFailuresStatement, lockRemaining, readFailures, recordFailure } from "../throttle";
import { REFRESH_TOKEN_PATTERN, findRefreshToken, newSession, pruneEndedSessionsStatements, rotateRefreshToken, sessionResponse } from "../tokens";
import { findUserByEmail, isBanned, touchSignInStatement } from "../users";
import type { UserRow } from "../users";

async function passwordGrant(svc: Service, c: Context, nowMs: number): Promise<Response> {
  await enforceRateLimit(svc.db, RATE_LIMITS.password, clientAddress(c.req.raw.headers), nowMs);
  const body = await readJsonObject(c.req.raw);
  const rawEmail = stringField(body, "email");
  const phone = stringField(body, "phone");
  const password = stringField(body, "password") ?? "";
  if (rawEmail && phone) throw validationFailed("Only an email address or phone number should be provided on login.");
  if (!rawEmail) throw phone ? phoneDisabled("Phone logins") : validationFailed("missing email or phone");

  const email = rawEmail.toLowerCase().slice(0, 255);
  // A device that signed in to this account before has its own record: the account's lock (wrong
  // passwords from elsewhere) does not keep it out (known-devices.ts).
  const lane = await throttleLane(svc.db, email, deviceToken(c.req.header(DEVICE_HEADER)), nowMs);
  const failures = await readFailures(svc.db, lane.key);
  const locked = lockRemaining(failures, nowMs);
  if (locked > 0) throw tooManyAttempts(locked / 1000);

  const user = await findUserByEmail(svc.db, email);
  // Unknown users are checked against a dummy hash: same answer, similar time.
  const matches = await verifyPassword(password, user?.encrypted_password ?? DUMMY_PASSWORD_HASH);
  if (!user || !matches) {
    await recordFailure(svc.db, lane.key, failures, nowMs);
    throw invalidCredentials();
  }
  if (!user.email_confirmed_at) throw emailNotConfirmed();
  // Only after the right password: a disabled account is not revealed to someone guessing.
  if (isBanned(user, nowMs)) throw userBanned(400);

  const now = isoTime(nowMs);
  const created = newSession(svc.db, user.id, nowMs, sessionOrigin(c));
  await svc.db.batch([
    ...pruneEndedSessionsStatements(svc.db, user.id, nowMs, svc.policy),
    ...created.statements,
    touchSignInStatement(svc.db, user.id, now),
    ...(failures ? [clearFailuresStatement(svc.db, lane.key)] : []),
  ]);
  const signedIn: UserRow = { ...user, last_sign_in_at: now, updated_at: now };
  return json(await sessionResponse(await svc.tokenContext(nowMs), signedIn, created.session, created.refreshToken));
}

async function refreshGrant(svc: Service, c: Context, nowMs: number): Promise<Response> {
  const body = await readJsonObject(c.req.raw);
  const token = stringField(body, "refresh_token");
  if (!token) throw validationFailed("refresh_token required");
  if (!REFRESH_TOKEN_PATTERN.test(token)) throw validationFailed("Invalid Refresh Token: Malformed");
  const found = await findRefreshToken(svc.db, token);
  if (!found) {
    // Guessing tokens is limited per address; real sessions never count here.
    await enforceRateLimit(svc.db, RATE_LIMITS.unknownRefresh, clientAddress(c.req.raw.headers), nowMs);
    throw refreshTokenNotFound();
  }
  await enforceRateLimit(svc.db, RATE_LIMITS.refresh, found.session_id, nowMs);
  const ctx = await svc.tokenContext(nowMs);
  const result = await rotateRefreshToken(ctx, found);
  return json(await sessionResponse(ctx, result.user, result.session, result.refreshToken));
}

export function tokenRoute(app: Hono, svc: Service): void {
  app.post(`${BASE_PATH}/token`, async (c) => {
    const nowMs = svc.clock();
    const grantType = c.req.query("grant_type");
    if (grantType === "password") return passwordGrant(svc, c, nowMs);
    if (grantType === "refresh_token") return refreshGrant(svc, c, nowMs);
    throw invalidCredentials("unsupported_grant_type");
  });
}
