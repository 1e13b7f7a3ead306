/**
 * Sessions, refresh-token rotation and access tokens.
 *
 * Rotation rules (GoTrue's, with a 10 s reuse interval):
 * - using an active (unrevoked) refresh token revokes it and issues a child (parent = it);
 * - using the parent of the session's active token returns that active token (the client
 *   lost the answer of its last refresh);
 * - using any other revoked token within 10 s of its revocation returns the active token
 *   (concurrent refreshes);
 * - any other reuse revokes every refresh token of the session, ends the session (not_after)
 *   and answers refresh_token_already_used.
 */
import { bytesToBase64Url, isoTime, randomBytes } from "./encoding";
import { refreshTokenAlreadyUsed, refreshTokenNotFound, sessionExpired, userBanned } from "./errors";
import { signJwt } from "./jwt";
import { AUDIENCE, ROLE, isBanned, selectUserByIdStatement, serializeUser, parseMetadata } from "./users";
import type { UserObject, UserRow } from "./users";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_REUSE_INTERVAL_MS = 10_000;
const REFRESH_TOKEN_BYTES = 24;
/** Anything else is rejected as malformed before it reaches the database. */
export const REFRESH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: string;
  /** Last refresh ("last seen"). */
  updated_at: string;
  not_after: string | null;
  user_agent: string | null;
  country: string | null;
  ip: string | null;
}

/** How long sessions live: without a refresh, and at all (OWASP session management). */
export interface SessionPolicy {
  inactivityMs: number;
  lifetimeMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { inactivityMs: 30 * 86_400_000, lifetimeMs: 90 * 86_400_000 };

/** Where a session was started, for the profile's session list. */
export interface SessionOrigin {
  userAgent: string | null;
  country: string | null;
  ip: string | null;
}

export interface RefreshTokenRow {
  id: number;
  token: string;
  session_id: string;
  user_id: string;
  parent: string | null;
  revoked: number;
  created_at: string;
  updated_at: string;
}

export interface SessionResponse {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserObject;
}

export interface TokenContext {
  db: D1Database;
  /** HS256 signing key. */
  key: string;
  /** `iss` claim, e.g. "http://localhost/auth/v1". */
  issuer: string;
  nowMs: number;
  policy: SessionPolicy;
}

/** An opaque, unguessable refresh token: 24 random bytes, base64url (32 characters). */
export function generateRefreshToken(): string {
  return bytesToBase64Url(randomBytes(REFRESH_TOKEN_BYTES));
}

/** Revoked, idle longer than the inactivity timeout, or older than the absolute lifetime. */
export function sessionEnded(session: SessionRow, nowMs: number, policy: SessionPolicy): boolean {
  if (session.not_after !== null && Date.parse(session.not_after) <= nowMs) return true;
  if (nowMs - Date.parse(session.updated_at) > policy.inactivityMs) return true;
  return nowMs - Date.parse(session.created_at) > policy.lifetimeMs;
}

const SESSION_COLUMNS = "id, user_id, created_at, updated_at, not_after, user_agent, country, ip";
const TOKEN_COLUMNS = "id, token, session_id, user_id, parent, revoked, created_at, updated_at";

export function selectSessionStatement(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?1`).bind(id);
}

/** Statements that create a session with its first refresh token (run them in one batch). */
export function newSession(
  db: D1Database,
  userId: string,
  nowMs: number,
  origin: SessionOrigin,
): { session: SessionRow; refreshToken: string; statements: D1PreparedStatement[] } {
  const now = isoTime(nowMs);
  const session: SessionRow = {
    id: crypto.randomUUID(),
    user_id: userId,
    created_at: now,
    updated_at: now,
    not_after: null,
    user_agent: origin.userAgent?.slice(0, 512) ?? null,
    country: origin.country,
    ip: origin.ip,
  };
  const refreshToken = generateRefreshToken();
  return {
    session,
    refreshToken,
    statements: [
      db
        .prepare(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?1, ?2, ?3, ?3, NULL, ?4, ?5, ?6)`)
        .bind(session.id, userId, now, session.user_agent, session.country, session.ip),
      db
        .prepare("INSERT INTO refresh_tokens (token, session_id, user_id, parent, revoked, created_at, updated_at) " + "VALUES (?1, ?2, ?3, NULL, 0, ?4, ?4)")
        .bind(refreshToken, session.id, userId, now),
    ],
  };
}

/** Signs the access token and builds the `/token` answer. */
export async function sessionResponse(ctx: TokenContext, user: UserRow, session: SessionRow, refreshToken: string): Promise<SessionResponse> {
  const iat = Math.floor(ctx.nowMs / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const accessToken = await signJwt(
    {
      aud: AUDIENCE,
      exp,
      iat,
      iss: ctx.issuer,
      sub: user.id,
      email: user.email,
      phone: "",
      app_metadata: parseMetadata(user.raw_app_meta_data),
      user_metadata: parseMetadata(user.raw_user_meta_data),
      role: ROLE,
      aal: "aal1",
      amr: [{ method: "password", timestamp: Math.floor(Date.parse(session.created_at) / 1000) }],
      session_id: session.id,
      is_anonymous: false,
    },
    ctx.key,
  );
  return {
    access_token: accessToken,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: exp,
    refresh_token: refreshToken,
    user: serializeUser(user),
  };
}

export interface RefreshResult {
  user: UserRow;
  session: SessionRow;
  refreshToken: string;
}

function findToken(db: D1Database, token: string): Promise<RefreshTokenRow | null> {
  return db.prepare(`SELECT ${TOKEN_COLUMNS} FROM refresh_tokens WHERE token = ?1`).bind(token).first<RefreshTokenRow>();
}

/** The stored row of a refresh token (already checked against REFRESH_TOKEN_PATTERN), or null. */
export function findRefreshToken(db: D1Database, token: string): Promise<RefreshTokenRow | null> {
  return findToken(db, token);
}

/** Applies the rotation rules to a refresh token found with findRefreshToken. */
export async function rotateRefreshToken(ctx: TokenContext, found: RefreshTokenRow): Promise<RefreshResult> {
  const { db, nowMs } = ctx;
  const now = isoTime(nowMs);
  const token = found.token;
  let row: RefreshTokenRow | null = found;

  const [sessionResult, userResult] = await db.batch([selectSessionStatement(db, row.session_id), selectUserByIdStatement(db, row.user_id)]);
  const session = (sessionResult.results[0] as SessionRow | undefined) ?? null;
  const user = (userResult.results[0] as UserRow | undefined) ?? null;
  if (!session || !user || session.user_id !== user.id) throw refreshTokenNotFound();
  if (session.not_after !== null && Date.parse(session.not_after) <= nowMs) throw refreshTokenAlreadyUsed();
  if (sessionEnded(session, nowMs, ctx.policy)) throw sessionExpired();
  if (isBanned(user, nowMs)) throw userBanned(400);

  if (!row.revoked) {
    const child = generateRefreshToken();
    // One batch = one transaction: the child is inserted only if the parent was still active,
    // so two concurrent refreshes with the same token cannot both create a child.
    const [inserted] = await db.batch([
      db
        .prepare(
          "INSERT INTO refresh_tokens (token, session_id, user_id, parent, revoked, created_at, updated_at) " +
            "SELECT ?1, ?2, ?3, ?4, 0, ?5, ?5 WHERE EXISTS (SELECT 1 FROM refresh_tokens WHERE id = ?6 AND revoked = 0)",
        )
        .bind(child, session.id, user.id, row.token, now, row.id),
      db.prepare("UPDATE refresh_tokens SET revoked = 1, updated_at = ?2 WHERE id = ?1 AND revoked = 0").bind(row.id, now),
      db.prepare("UPDATE sessions SET updated_at = ?2 WHERE id = ?1").bind(session.id, now),
    ]);
    if (inserted.meta.changes === 1) return { user, session, refreshToken: child };
    // A concurrent request rotated it first: apply the rules for a revoked token.
    row = await findToken(db, token);
    if (!row) throw refreshTokenNotFound();
  }

  const active = await db
    .prepare(`SELECT ${TOKEN_COLUMNS} FROM refresh_tokens WHERE session_id = ?1 AND revoked = 0 ORDER BY id DESC LIMIT 1`)
    .bind(session.id)
    .first<RefreshTokenRow>();
  if (active) {
    if (active.parent === row.token) return { user, session, refreshToken: active.token };
    const revokedAt = Date.parse(row.updated_at);
    if (nowMs - revokedAt <= REFRESH_TOKEN_REUSE_INTERVAL_MS) return { user, session, refreshToken: active.token };
  }

  // Reuse outside the window: assume theft and end the whole session.
  console.warn(`account-service: refresh token reuse detected, revoking session ${session.id}`);
  await db.batch([
    db.prepare("UPDATE refresh_tokens SET revoked = 1, updated_at = ?2 WHERE session_id = ?1 AND revoked = 0").bind(session.id, now),
    db.prepare("UPDATE sessions SET not_after = ?2, updated_at = ?2 WHERE id = ?1").bind(session.id, now),
  ]);
  throw refreshTokenAlreadyUsed();
}

export type LogoutScope = "global" | "local" | "others";

/** Deletes sessions (and their refresh tokens) for a logout of the given scope. */
export async function logout(db: D1Database, scope: LogoutScope, userId: string, sessionId: string): Promise<void> {
  const statements: D1PreparedStatement[] =
    scope === "global"
      ? [db.prepare("DELETE FROM refresh_tokens WHERE user_id = ?1").bind(userId), db.prepare("DELETE FROM sessions WHERE user_id = ?1").bind(userId)]
      : scope === "local"
        ? [db.prepare("DELETE FROM refresh_tokens WHERE session_id = ?1").bind(sessionId), db.prepare("DELETE FROM sessions WHERE id = ?1").bind(sessionId)]
        : deleteOtherSessionsStatements(db, userId, sessionId);
  await db.batch(statements);
}

/** Statements that end every session of the user except `keepSessionId`. */
export function deleteOtherSessionsStatements(db: D1Database, userId: string, keepSessionId: string): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM refresh_tokens WHERE user_id = ?1 AND session_id <> ?2").bind(userId, keepSessionId),
    db.prepare("DELETE FROM sessions WHERE user_id = ?1 AND id <> ?2").bind(userId, keepSessionId),
  ];
}

/** Ended sessions of a user (revoked over a day ago, idle or past their lifetime): housekeeping at sign-in. */
export function pruneEndedSessionsStatements(db: D1Database, userId: string, nowMs: number, policy: SessionPolicy): D1PreparedStatement[] {
  const ended = "SELECT id FROM sessions WHERE user_id = ?1 AND ((not_after IS NOT NULL AND not_after < ?2) OR updated_at < ?3 OR created_at < ?4)";
  const args = [userId, isoTime(nowMs - 86_400_000), isoTime(nowMs - policy.inactivityMs), isoTime(nowMs - policy.lifetimeMs)];
  return [
    db.prepare(`DELETE FROM refresh_tokens WHERE session_id IN (${ended})`).bind(...args),
    db.prepare(`DELETE FROM sessions WHERE id IN (${ended})`).bind(...args),
  ];
}

/** The user's live sessions, most recently seen first. */
export async function listSessions(db: D1Database, userId: string, nowMs: number, policy: SessionPolicy): Promise<SessionRow[]> {
  const { results } = await db
    .prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = ?1 ORDER BY updated_at DESC LIMIT 100`)
    .bind(userId)
    .all<SessionRow>();
  return results.filter((s) => !sessionEnded(s, nowMs, policy));
}

/** Ends one session of the user (false when it is not theirs or already gone). */
export async function endSession(db: D1Database, userId: string, sessionId: string): Promise<boolean> {
  const [, deleted] = await db.batch([
    db.prepare("DELETE FROM refresh_tokens WHERE session_id = ?1 AND user_id = ?2").bind(sessionId, userId),
    db.prepare("DELETE FROM sessions WHERE id = ?1 AND user_id = ?2").bind(sessionId, userId),
  ]);
  return deleted.meta.changes > 0;
}
