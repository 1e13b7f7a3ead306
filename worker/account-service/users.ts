/** D1 access to `users` and the user object returned to clients (GoTrue's shape). */
import { isoTime } from "./encoding";

export const AUDIENCE = "authenticated";
export const ROLE = "authenticated";
export const PROVIDER = "email";

export interface UserRow {
  id: string;
  email: string;
  encrypted_password: string;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_user_meta_data: string;
  raw_app_meta_data: string;
  identity_id: string;
  created_at: string;
  updated_at: string;
  /** A new address waiting for its confirmation link. */
  email_change: string | null;
  /** Disabled until then (GoTrue's banned_until; the 管理后台 sets it far ahead); null = active. */
  banned_until: string | null;
}

export type Metadata = Record<string, unknown>;

export interface Identity {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: { email: string; email_verified: boolean; phone_verified: boolean; sub: string };
  provider: string;
  last_sign_in_at: string;
  created_at: string;
  updated_at: string;
  email: string;
}

/** The user object of the API. Optional timestamps are omitted when unset, as GoTrue does. */
export interface UserObject {
  id: string;
  aud: string;
  role: string;
  email: string;
  email_confirmed_at?: string;
  phone: string;
  confirmation_sent_at?: string;
  confirmed_at?: string;
  last_sign_in_at?: string;
  new_email?: string;
  banned_until?: string;
  app_metadata: Metadata;
  user_metadata: Metadata;
  identities: Identity[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
}

export function parseMetadata(text: string | null | undefined): Metadata {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Metadata) : {};
  } catch {
    return {};
  }
}

/** Top-level key-by-key merge; a `null` value deletes the key (GoTrue's UpdateUserMetaData). */
export function mergeMetadata(current: Metadata, patch: Metadata): Metadata {
  // A Map, not property assignment: a "__proto__" key stays an ordinary key.
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

export function defaultAppMetadata(): Metadata {
  return { provider: PROVIDER, providers: [PROVIDER] };
}

/** user_metadata at sign-up: the sign-up `data`, then the identity claims (these win). */
export function signupUserMetadata(data: Metadata, email: string, id: string, emailVerified: boolean): Metadata {
  return { ...data, email, email_verified: emailVerified, phone_verified: false, sub: id };
}

export function serializeUser(u: UserRow): UserObject {
  const confirmedAt = u.email_confirmed_at ?? undefined;
  const identitySeen = u.last_sign_in_at ?? u.created_at;
  const user: UserObject = {
    id: u.id,
    aud: AUDIENCE,
    role: ROLE,
    email: u.email,
    ...(confirmedAt ? { email_confirmed_at: confirmedAt } : {}),
    phone: "",
    ...(u.confirmation_sent_at ? { confirmation_sent_at: u.confirmation_sent_at } : {}),
    ...(confirmedAt ? { confirmed_at: confirmedAt } : {}),
    ...(u.last_sign_in_at ? { last_sign_in_at: u.last_sign_in_at } : {}),
    ...(u.email_change ? { new_email: u.email_change } : {}),
    ...(u.banned_until ? { banned_until: u.banned_until } : {}),
    app_metadata: parseMetadata(u.raw_app_meta_data),
    user_metadata: parseMetadata(u.raw_user_meta_data),
    identities: [
      {
        identity_id: u.identity_id,
        id: u.id,
        user_id: u.id,
        identity_data: { email: u.email, email_verified: !!confirmedAt, phone_verified: false, sub: u.id },
        provider: PROVIDER,
        last_sign_in_at: identitySeen,
        created_at: u.created_at,
        updated_at: identitySeen,
        email: u.email,
      },
    ],
    created_at: u.created_at,
    updated_at: u.updated_at,
    is_anonymous: false,
  };
  return user;
}

/**
 * The answer to a sign-up (confirmation required) for an e-mail address that already belongs
 * to a confirmed user: shaped like a freshly created unconfirmed user, but with a random id and
 * `identities: []`, so sign-up does not reveal who is registered.
 */
export function obfuscatedUser(email: string, data: Metadata, nowMs: number): UserObject {
  const id = crypto.randomUUID();
  const now = isoTime(nowMs);
  return {
    id,
    aud: AUDIENCE,
    role: ROLE,
    email,
    phone: "",
    confirmation_sent_at: now,
    app_metadata: defaultAppMetadata(),
    user_metadata: signupUserMetadata(data, email, id, false),
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export interface NewUserInput {
  email: string;
  passwordHash: string;
  data: Metadata;
  confirmed: boolean;
  nowMs: number;
}

export function newUserRow({ email, passwordHash, data, confirmed, nowMs }: NewUserInput): UserRow {
  const id = crypto.randomUUID();
  const now = isoTime(nowMs);
  return {
    id,
    email,
    encrypted_password: passwordHash,
    email_confirmed_at: confirmed ? now : null,
    confirmation_sent_at: confirmed ? null : now,
    last_sign_in_at: confirmed ? now : null,
    raw_user_meta_data: JSON.stringify(signupUserMetadata(data, email, id, confirmed)),
    raw_app_meta_data: JSON.stringify(defaultAppMetadata()),
    identity_id: crypto.randomUUID(),
    created_at: now,
    updated_at: now,
    email_change: null,
    banned_until: null,
  };
}

const USER_COLUMNS =
  "id, email, encrypted_password, email_confirmed_at, confirmation_sent_at, last_sign_in_at, " +
  "raw_user_meta_data, raw_app_meta_data, identity_id, created_at, updated_at, email_change, banned_until";

export function insertUserStatement(db: D1Database, u: UserRow): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO users (${USER_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`)
    .bind(
      u.id,
      u.email,
      u.encrypted_password,
      u.email_confirmed_at,
      u.confirmation_sent_at,
      u.last_sign_in_at,
      u.raw_user_meta_data,
      u.raw_app_meta_data,
      u.identity_id,
      u.created_at,
      u.updated_at,
      u.email_change,
      u.banned_until,
    );
}

/** Whether the account is disabled at `nowMs` (banned_until in the future, as GoTrue's IsBanned). */
export function isBanned(u: Pick<UserRow, "banned_until">, nowMs: number): boolean {
  return u.banned_until !== null && Date.parse(u.banned_until) > nowMs;
}

export function findUserByEmail(db: D1Database, email: string): Promise<UserRow | null> {
  return db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?1`).bind(email).first<UserRow>();
}

export function selectUserByIdStatement(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?1`).bind(id);
}

export function touchSignInStatement(db: D1Database, id: string, nowIso: string): D1PreparedStatement {
  return db.prepare("UPDATE users SET last_sign_in_at = ?2, updated_at = ?2 WHERE id = ?1").bind(id, nowIso);
}

export function updateConfirmationSentStatement(db: D1Database, id: string, nowIso: string): D1PreparedStatement {
  return db.prepare("UPDATE users SET confirmation_sent_at = ?2, updated_at = ?2 WHERE id = ?1").bind(id, nowIso);
}

export function updateProfileStatement(db: D1Database, id: string, userMetadata: Metadata, passwordHash: string | null, nowIso: string): D1PreparedStatement {
  return db
    .prepare("UPDATE users SET raw_user_meta_data = ?2, encrypted_password = COALESCE(?3, encrypted_password), " + "updated_at = ?4 WHERE id = ?1")
    .bind(id, JSON.stringify(userMetadata), passwordHash, nowIso);
}

/** Confirms the address (first sign-in after the confirmation link). */
export function confirmEmailStatement(db: D1Database, id: string, nowIso: string): D1PreparedStatement {
  return db
    .prepare("UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?2), last_sign_in_at = ?2, updated_at = ?2 WHERE id = ?1")
    .bind(id, nowIso);
}

export function setEmailChangeStatement(db: D1Database, id: string, newEmail: string | null, nowIso: string): D1PreparedStatement {
  return db.prepare("UPDATE users SET email_change = ?2, updated_at = ?3 WHERE id = ?1").bind(id, newEmail, nowIso);
}

/** Moves the account to its confirmed new address (fails on UNIQUE when someone took it meanwhile). */
export function applyEmailChangeStatement(db: D1Database, id: string, newEmail: string, nowIso: string): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE users SET email = ?2, email_change = NULL, email_confirmed_at = ?3, updated_at = ?3, " +
        "raw_user_meta_data = json_set(raw_user_meta_data, '$.email', ?2) WHERE id = ?1",
    )
    .bind(id, newEmail, nowIso);
}

/** True for a UNIQUE-constraint violation reported by D1/SQLite. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed/i.test(err.message);
}
