/**
 * The embedded account service: a Hono app speaking the subset of the Supabase Auth (GoTrue)
 * HTTP API described in shared/reference/account-service.md, mounted at /auth/v1/*.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { isoTime } from "./encoding";
import {
  API_VERSION,
  API_VERSION_HEADER,
  AuthServiceError,
  badJwt,
  errorResponse,
  invalidCredentials,
  noAuthorization,
  sessionNotFound,
  unexpectedFailure,
  validationFailed,
} from "./errors";
import { JwtError, verifyJwt } from "./jwt";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "./password";
import { RATE_LIMITS, clientIp, enforceRateLimit } from "./rate-limit";
import { checkPasswordStrength, objectField, readJsonObject, stringField, validateEmail } from "./request";
import {
  REFRESH_TOKEN_PATTERN,
  deleteOtherSessionsStatements,
  logout,
  newSession,
  pruneEndedSessionsStatements,
  rotateRefreshToken,
  selectSessionStatement,
  sessionEnded,
  sessionResponse,
} from "./tokens";
import type { LogoutScope, SessionRow, TokenContext } from "./tokens";
import {
  findUserByEmail,
  insertUserStatement,
  isUniqueViolation,
  mergeMetadata,
  newUserRow,
  obfuscatedUser,
  parseMetadata,
  selectUserByIdStatement,
  serializeUser,
  touchSignInStatement,
  updateConfirmationSentStatement,
  updateProfileStatement,
} from "./users";
import type { Metadata, UserRow } from "./users";

export interface AccountServiceOptions {
  /** D1 database with the tables of migrations/0001_accounts.sql. */
  db: D1Database;
  /** HS256 secret for access tokens. */
  jwtSecret: string;
  /** Origin the client uses, e.g. "http://localhost"; the `iss` claim is `${issuerBase}/auth/v1`. */
  issuerBase: string;
  /** true: sign-up confirms the e-mail at once and returns a session. */
  autoConfirm: boolean;
  /** Current time in milliseconds (tests move it); defaults to Date.now. */
  now?: () => number;
}

export const BASE_PATH = "/auth/v1";

const SUCCESS_HEADERS = {
  "Cache-Control": "no-store",
  [API_VERSION_HEADER]: API_VERSION,
};

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...SUCCESS_HEADERS },
  });
}

const emailNotConfirmed = () => new AuthServiceError(400, "email_not_confirmed", "Email not confirmed");
const userAlreadyExists = () => new AuthServiceError(422, "user_already_exists", "User already registered");
const samePassword = () =>
  new AuthServiceError(422, "same_password", "New password should be different from the old password.");
const phoneDisabled = (what: string) => new AuthServiceError(400, "phone_provider_disabled", `${what} are disabled`);
const methodNotAllowed = () => new AuthServiceError(405, "method_not_allowed", "Method not allowed");

export function createAccountService(opts: AccountServiceOptions): Hono {
  if (!opts.jwtSecret) throw new Error("account-service: jwtSecret must not be empty");
  const { db } = opts;
  const clock = opts.now ?? Date.now;
  const issuer = `${opts.issuerBase.replace(/\/+$/, "")}${BASE_PATH}`;
  const tokenContext = (nowMs: number): TokenContext => ({ db, jwtSecret: opts.jwtSecret, issuer, nowMs });

  /** Bearer access token → its user and live session (401 / 403 otherwise). */
  async function authenticate(c: Context, nowMs: number): Promise<{ user: UserRow; session: SessionRow }> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
    if (!match) throw noAuthorization();
    let claims: Record<string, unknown>;
    try {
      claims = await verifyJwt(match[1], opts.jwtSecret, nowMs);
    } catch (err) {
      if (err instanceof JwtError) throw badJwt(err.message);
      throw err;
    }
    const { sub, session_id: sessionId } = claims;
    if (typeof sub !== "string" || sub === "") {
      throw new AuthServiceError(403, "bad_jwt", "invalid claim: missing sub claim");
    }
    if (typeof sessionId !== "string" || sessionId === "") throw sessionNotFound();
    const [sessionResult, userResult] = await db.batch([
      selectSessionStatement(db, sessionId),
      selectUserByIdStatement(db, sub),
    ]);
    const session = (sessionResult.results[0] as SessionRow | undefined) ?? null;
    const user = (userResult.results[0] as UserRow | undefined) ?? null;
    if (!session || !user || session.user_id !== user.id || sessionEnded(session, nowMs)) throw sessionNotFound();
    return { user, session };
  }

  const app = new Hono();

  app.onError((err) => {
    if (err instanceof AuthServiceError) return errorResponse(err);
    console.error("account-service: unexpected failure", err);
    return errorResponse(unexpectedFailure());
  });
  app.notFound(() => errorResponse(new AuthServiceError(404, "not_found", "Not found")));

  // ---- POST /signup --------------------------------------------------------------------------
  app.post(`${BASE_PATH}/signup`, async (c) => {
    const nowMs = clock();
    await enforceRateLimit(db, RATE_LIMITS.signup, clientIp(c.req.raw.headers), nowMs);
    const body = await readJsonObject(c.req.raw);
    const password = stringField(body, "password");
    const rawEmail = stringField(body, "email");
    const phone = stringField(body, "phone");
    const data: Metadata = objectField(body, "data") ?? {};

    if (!password) throw validationFailed("Signup requires a valid password");
    checkPasswordStrength(password);
    if (rawEmail && phone) {
      throw validationFailed("Only an email address or phone number should be provided on signup.");
    }
    if (!rawEmail && phone) throw phoneDisabled("Phone signups");
    const email = validateEmail(rawEmail);

    const existingUserAnswer = async (existing: UserRow): Promise<Response> => {
      if (opts.autoConfirm) throw userAlreadyExists();
      // Same work as a real sign-up, so the answer time does not tell registered addresses apart.
      await verifyPassword(password, DUMMY_PASSWORD_HASH);
      if (existing.email_confirmed_at) return json(obfuscatedUser(email, data, nowMs));
      // Unconfirmed: "resend" the confirmation; the stored password and metadata stay unchanged.
      const now = isoTime(nowMs);
      await updateConfirmationSentStatement(db, existing.id, now).run();
      return json(serializeUser({ ...existing, confirmation_sent_at: now, updated_at: now }));
    };

    const existing = await findUserByEmail(db, email);
    if (existing) return existingUserAnswer(existing);

    const user = newUserRow({
      email,
      passwordHash: await hashPassword(password),
      data,
      confirmed: opts.autoConfirm,
      nowMs,
    });
    const created = opts.autoConfirm ? newSession(db, user.id, nowMs) : null;
    try {
      await db.batch([insertUserStatement(db, user), ...(created?.statements ?? [])]);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await findUserByEmail(db, email);
      if (!raced) throw err;
      return existingUserAnswer(raced);
    }
    if (!created) return json(serializeUser(user));
    return json(await sessionResponse(tokenContext(nowMs), user, created.session, created.refreshToken));
  });

  // ---- POST /token?grant_type=password|refresh_token -----------------------------------------
  app.post(`${BASE_PATH}/token`, async (c) => {
    const nowMs = clock();
    await enforceRateLimit(db, RATE_LIMITS.token, clientIp(c.req.raw.headers), nowMs);
    const grantType = c.req.query("grant_type");

    if (grantType === "password") {
      const body = await readJsonObject(c.req.raw);
      const rawEmail = stringField(body, "email");
      const phone = stringField(body, "phone");
      const password = stringField(body, "password") ?? "";
      if (rawEmail && phone) {
        throw validationFailed("Only an email address or phone number should be provided on login.");
      }
      if (!rawEmail) {
        if (phone) throw phoneDisabled("Phone logins");
        throw validationFailed("missing email or phone");
      }
      const user = await findUserByEmail(db, rawEmail.toLowerCase());
      // Unknown users are checked against a dummy hash: same answer, similar time.
      const matches = await verifyPassword(password, user?.encrypted_password ?? DUMMY_PASSWORD_HASH);
      if (!user || !matches) throw invalidCredentials();
      if (!user.email_confirmed_at) throw emailNotConfirmed();

      const now = isoTime(nowMs);
      const created = newSession(db, user.id, nowMs);
      await db.batch([
        ...pruneEndedSessionsStatements(db, user.id, nowMs),
        ...created.statements,
        touchSignInStatement(db, user.id, now),
      ]);
      const signedIn: UserRow = { ...user, last_sign_in_at: now, updated_at: now };
      return json(await sessionResponse(tokenContext(nowMs), signedIn, created.session, created.refreshToken));
    }

    if (grantType === "refresh_token") {
      const body = await readJsonObject(c.req.raw);
      const token = stringField(body, "refresh_token");
      if (!token) throw validationFailed("refresh_token required");
      if (!REFRESH_TOKEN_PATTERN.test(token)) throw validationFailed("Invalid Refresh Token: Malformed");
      const ctx = tokenContext(nowMs);
      const result = await rotateRefreshToken(ctx, token);
      return json(await sessionResponse(ctx, result.user, result.session, result.refreshToken));
    }

    throw invalidCredentials("unsupported_grant_type");
  });

  // ---- POST /logout?scope=global|local|others ------------------------------------------------
  app.post(`${BASE_PATH}/logout`, async (c) => {
    const nowMs = clock();
    const { user, session } = await authenticate(c, nowMs);
    const scope = c.req.query("scope") || "global";
    if (scope !== "global" && scope !== "local" && scope !== "others") {
      throw validationFailed(`Unsupported logout scope ${JSON.stringify(scope)}`);
    }
    await logout(db, scope as LogoutScope, user.id, session.id);
    return new Response(null, { status: 204, headers: SUCCESS_HEADERS });
  });

  // ---- GET /user -------------------------------------------------------------------------------
  app.get(`${BASE_PATH}/user`, async (c) => {
    const { user } = await authenticate(c, clock());
    return json(serializeUser(user));
  });

  // ---- PUT /user -------------------------------------------------------------------------------
  app.put(`${BASE_PATH}/user`, async (c) => {
    const nowMs = clock();
    const { user, session } = await authenticate(c, nowMs);
    await enforceRateLimit(db, RATE_LIMITS.updateUser, clientIp(c.req.raw.headers), nowMs);
    const body = await readJsonObject(c.req.raw);
    const data = objectField(body, "data");
    const password = stringField(body, "password");
    const email = stringField(body, "email");
    const phone = stringField(body, "phone");

    if (email) {
      // Only a no-op "change" to the current address is accepted: e-mail changes need a
      // confirmation mail flow the embedded service does not have.
      if (validateEmail(email) !== user.email) {
        throw validationFailed("Changing the email address is not supported");
      }
    }
    if (phone) throw phoneDisabled("Phone numbers");

    let passwordHash: string | null = null;
    if (password !== undefined) {
      checkPasswordStrength(password);
      if (await verifyPassword(password, user.encrypted_password)) throw samePassword();
      passwordHash = await hashPassword(password);
    }
    if (data === undefined && passwordHash === null) return json(serializeUser(user));

    const now = isoTime(nowMs);
    const metadata = data ? mergeMetadata(parseMetadata(user.raw_user_meta_data), data) : parseMetadata(user.raw_user_meta_data);
    await db.batch([
      updateProfileStatement(db, user.id, metadata, passwordHash, now),
      // A new password ends the user's other sessions (as GoTrue does).
      ...(passwordHash ? deleteOtherSessionsStatements(db, user.id, session.id) : []),
    ]);
    return json(
      serializeUser({
        ...user,
        raw_user_meta_data: JSON.stringify(metadata),
        encrypted_password: passwordHash ?? user.encrypted_password,
        updated_at: now,
      }),
    );
  });

  for (const path of ["signup", "token", "logout", "user"]) {
    app.all(`${BASE_PATH}/${path}`, () => {
      throw methodNotAllowed();
    });
  }

  return app;
}
