/** GET /user and PUT /user (metadata, password, e-mail change with a confirmation link). */
import type { Hono } from "hono";
import { emailChangeMail, emailChangeNoticeMail, verifyLink } from "../../mail/templates";
import { sendQuietly } from "../../mail/index";
import { authenticate, type Authenticated } from "../authenticate";
import { isoTime } from "../encoding";
import { BASE_PATH, json, sendLinkMail, type Service } from "../context";
import { AuthServiceError, phoneDisabled, samePassword } from "../errors";
import { issueOneTimeToken } from "../one-time-tokens";
import { hashPassword, verifyPassword } from "../password";
import { RATE_LIMITS, enforceRateLimit } from "../rate-limit";
import { checkPasswordStrength, objectField, readJsonObject, stringField, validateEmail } from "../request";
import { deleteOtherSessionsStatements } from "../tokens";
import { findUserByEmail, mergeMetadata, parseMetadata, serializeUser, setEmailChangeStatement, updateProfileStatement } from "../users";
import type { Metadata, UserRow } from "../users";

const emailExists = () => new AuthServiceError(422, "email_exists", "A user with this email address has already been registered");

/** Starts an e-mail change: a link to the new address, a notice to the current one. */
async function requestEmailChange(svc: Service, user: UserRow, newEmail: string, nowMs: number): Promise<UserRow> {
  if (await findUserByEmail(svc.db, newEmail)) throw emailExists();
  const now = isoTime(nowMs);
  const { token, statements } = await issueOneTimeToken(svc.db, user.id, "email_change", newEmail, nowMs);
  await svc.db.batch([...statements, setEmailChangeStatement(svc.db, user.id, newEmail, now)]);
  await sendLinkMail(svc, (origin) => emailChangeMail(svc.siteName, newEmail, verifyLink(origin, token, "email_change")));
  if (svc.mailer) await sendQuietly(svc.mailer, emailChangeNoticeMail(svc.siteName, user.email, newEmail));
  return { ...user, email_change: newEmail, updated_at: now };
}

async function updateUser(svc: Service, { user, session }: Authenticated, request: Request, nowMs: number): Promise<Response> {
  const body = await readJsonObject(request);
  const data = objectField(body, "data");
  const password = stringField(body, "password");
  const email = stringField(body, "email");
  if (stringField(body, "phone")) throw phoneDisabled("Phone numbers");

  let current = user;
  if (email && validateEmail(email) !== user.email) current = await requestEmailChange(svc, user, validateEmail(email), nowMs);

  let passwordHash: string | null = null;
  if (password !== undefined) {
    checkPasswordStrength(password);
    if (await verifyPassword(password, user.encrypted_password)) throw samePassword();
    passwordHash = await hashPassword(password);
  }
  if (data === undefined && passwordHash === null) return json(serializeUser(current));

  const now = isoTime(nowMs);
  const metadata: Metadata = data ? mergeMetadata(parseMetadata(user.raw_user_meta_data), data) : parseMetadata(user.raw_user_meta_data);
  await svc.db.batch([
    updateProfileStatement(svc.db, user.id, metadata, passwordHash, now),
    // A new password ends the user's other sessions (as GoTrue does).
    ...(passwordHash ? deleteOtherSessionsStatements(svc.db, user.id, session.id) : []),
  ]);
  return json(
    serializeUser({ ...current, raw_user_meta_data: JSON.stringify(metadata), encrypted_password: passwordHash ?? user.encrypted_password, updated_at: now }),
  );
}

export function userRoutes(app: Hono, svc: Service): void {
  app.get(`${BASE_PATH}/user`, async (c) => {
    const { user } = await authenticate(svc, c, svc.clock());
    return json(serializeUser(user));
  });

  app.put(`${BASE_PATH}/user`, async (c) => {
    const nowMs = svc.clock();
    const auth = await authenticate(svc, c, nowMs);
    await enforceRateLimit(svc.db, RATE_LIMITS.updateUser, auth.user.id, nowMs);
    return updateUser(svc, auth, c.req.raw, nowMs);
  });
}
