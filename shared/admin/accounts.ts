/**
 * 用户管理: finding accounts and changing their state — the statements and requests only, for the
 * embedded account service's tables in D1 and a real Supabase project's admin API (GoTrue:
 * `GET/PUT/DELETE /auth/v1/admin/users…` with the service-role key; `ban_duration` sets
 * `banned_until`, docs/admin.md). Pure: worker/admin/accounts.ts runs them.
 */
import { normaliseEmail, adminHeaders, type AdminApiRequest, type SqlStatement, type SqlValue } from "./account-roles";
import { isDisabledUser } from "./account-state";
import { roleOf, type AdminRole } from "./roles";

/** Accounts per page of the list. */
export const ACCOUNTS_PER_PAGE = 50;
/** The most pages the list goes to (50 × 400 = 20,000 accounts; the search narrows further). */
export const MAX_ACCOUNT_PAGE = 400;
/** How long "disable" lasts: for good, as GoTrue's longest usual ban (100 years). */
export const DISABLE_DURATION = "876000h";
export const DISABLE_MS = 876_000 * 3_600_000;
/** Known devices count this long after their last sign-in (worker/account-service/known-devices.ts DEVICE_TTL_MS). */
export const KNOWN_DEVICE_MS = 180 * 86_400_000;

export type AccountState = "active" | "disabled" | "unconfirmed";

export const STATE_NAMES: Readonly<Record<AccountState, string>> = { active: "正常", disabled: "已停用", unconfirmed: "未验证邮箱" };

/** One account as 用户管理 lists it. */
export interface AdminAccount {
  id: string;
  email: string;
  createdAt: string;
  lastSignInAt: string | null;
  state: AccountState;
  role: AdminRole | null;
  /** Browsers that signed in within KNOWN_DEVICE_MS (sign_in_devices); null where unknown. */
  knownDevices: number | null;
}

export interface AccountPage {
  accounts: AdminAccount[];
  /** Accounts matching the search in all. */
  total: number;
  page: number;
  pageCount: number;
}

/** A signed-in session of the account (embedded service only: GoTrue's admin API lists none). */
export interface AccountSession {
  userAgent: string | null;
  country: string | null;
  createdAt: string;
  lastSeenAt: string;
}

/** The search box's text: trimmed, lower-case, at most 100 characters. */
export const accountQuery = (raw: string | null | undefined): string => normaliseEmail(raw ?? "").slice(0, 100);

/** The page asked for: a whole number in [1, MAX_ACCOUNT_PAGE], else 1. */
export function accountPageNumber(raw: string | null | undefined): number {
  const n = raw && /^[1-9][0-9]{0,3}$/.test(raw) ? Number(raw) : 1;
  return Math.min(n, MAX_ACCOUNT_PAGE);
}

export const pageCountOf = (total: number): number => Math.max(1, Math.ceil(total / ACCOUNTS_PER_PAGE));

function stateOf(confirmedAt: unknown, bannedUntil: unknown, nowMs: number): AccountState {
  if (isDisabledUser({ banned_until: typeof bannedUntil === "string" ? bannedUntil : null }, nowMs)) return "disabled";
  return typeof confirmedAt === "string" && confirmedAt !== "" ? "active" : "unconfirmed";
}

// ---- the embedded account service (D1) ------------------------------------------------------

export interface AccountRow {
  id: string;
  email: string;
  created_at: string;
  last_sign_in_at: string | null;
  email_confirmed_at: string | null;
  banned_until: string | null;
  raw_app_meta_data: string | null;
  known_devices: number;
}

export function accountOfD1Row(row: AccountRow, nowMs: number): AdminAccount {
  let metadata: unknown = null;
  try {
    metadata = JSON.parse(row.raw_app_meta_data ?? "{}");
  } catch {
    metadata = null;
  }
  return {
    id: row.id,
    email: row.email,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
    state: stateOf(row.email_confirmed_at, row.banned_until, nowMs),
    role: roleOf(metadata),
    knownDevices: row.known_devices,
  };
}

/** `%text%` for LIKE with `\` as the escape character. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const ACCOUNT_COLUMNS =
  "u.id, u.email, u.created_at, u.last_sign_in_at, u.email_confirmed_at, u.banned_until, u.raw_app_meta_data, " +
  "(SELECT COUNT(*) FROM sign_in_devices d WHERE d.email = u.email AND d.used_at > ?) AS known_devices";

/** The count and one page of the accounts whose e-mail contains `query` (all when empty), by e-mail. */
export function accountPageStatements(query: string, page: number, nowMs: number): [SqlStatement, SqlStatement] {
  const where = query ? " WHERE u.email LIKE ? ESCAPE '\\'" : "";
  const filter: SqlValue[] = query ? [containing(query)] : [];
  return [
    { sql: `SELECT COUNT(*) AS n FROM users u${where}`, params: filter },
    {
      sql: `SELECT ${ACCOUNT_COLUMNS} FROM users u${where} ORDER BY u.email LIMIT ? OFFSET ?`,
      params: [nowMs - KNOWN_DEVICE_MS, ...filter, ACCOUNTS_PER_PAGE, (page - 1) * ACCOUNTS_PER_PAGE],
    },
  ];
}

export function accountByIdStatement(id: string, nowMs: number): SqlStatement {
  return { sql: `SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE u.id = ?`, params: [nowMs - KNOWN_DEVICE_MS, id] };
}

export interface SessionRowForAdmin {
  user_agent: string | null;
  country: string | null;
  created_at: string;
  updated_at: string;
}

/** The account's sessions that were not revoked, most recently seen first (the caller drops idle or expired ones). */
export function accountSessionsStatement(userId: string): SqlStatement {
  return {
    sql: "SELECT user_agent, country, created_at, updated_at FROM sessions WHERE user_id = ? AND not_after IS NULL ORDER BY updated_at DESC LIMIT 50",
    params: [userId],
  };
}

/** Ends every session of the account: refresh tokens, sessions, and the 管理后台's second step of them. */
export function endSessionsStatements(userId: string): SqlStatement[] {
  return [
    { sql: "DELETE FROM refresh_tokens WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM sessions WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM admin_verified_sessions WHERE user_id = ?", params: [userId] },
  ];
}

/** Disables the account until `untilIso` (or enables it, with null). */
export function setBannedUntilStatement(userId: string, untilIso: string | null, nowIso: string): SqlStatement {
  return { sql: "UPDATE users SET banned_until = ?, updated_at = ? WHERE id = ?", params: [untilIso, nowIso, userId] };
}

/**
 * What this site keeps of an account outside the account service, removed with it: its known
 * devices and sign-in failures (by e-mail), and its 管理后台 second step (by id).
 */
export function siteTracesStatements(userId: string, email: string): SqlStatement[] {
  return [
    { sql: "DELETE FROM sign_in_devices WHERE email = ?", params: [email] },
    { sql: "DELETE FROM sign_in_failures WHERE email = ? OR email LIKE ? ESCAPE '\\'", params: [email, `%:${email.replace(/[\\%_]/g, (ch) => `\\${ch}`)}`] },
    { sql: "DELETE FROM admin_verified_sessions WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM admin_recovery_codes WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM admin_totp WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM admin_code_failures WHERE user_id = ?", params: [userId] },
  ];
}

/** Deletes an embedded account with everything keyed to it (its library and history live in its user_metadata). */
export function deleteAccountStatements(userId: string, email: string): SqlStatement[] {
  return [
    ...endSessionsStatements(userId),
    { sql: "DELETE FROM one_time_tokens WHERE user_id = ?", params: [userId] },
    ...siteTracesStatements(userId, email),
    { sql: "DELETE FROM users WHERE id = ?", params: [userId] },
  ];
}

/** Known devices per e-mail, for accounts that come from Supabase (the devices are this site's own table). */
export function knownDevicesStatement(emails: readonly string[], nowMs: number): SqlStatement {
  return {
    sql: "SELECT email, COUNT(*) AS n FROM sign_in_devices WHERE email IN (SELECT value FROM json_each(?)) AND used_at > ? GROUP BY email",
    params: [JSON.stringify(emails), nowMs - KNOWN_DEVICE_MS],
  };
}

// ---- a real Supabase project (GoTrue's admin API) -------------------------------------------

/** One page of users; `filter` narrows by e-mail (GoTrue matches it within the address). */
export function userPageRequest(projectUrl: string, serviceKey: string, page: number, filter: string): AdminApiRequest {
  const url = new URL("/auth/v1/admin/users", projectUrl);
  url.searchParams.set("page", String(page));
  url.searchParams.set("per_page", String(ACCOUNTS_PER_PAGE));
  if (filter) url.searchParams.set("filter", filter);
  return { method: "GET", url: url.toString(), headers: adminHeaders(serviceKey) };
}

const userUrl = (projectUrl: string, userId: string) => new URL(`/auth/v1/admin/users/${encodeURIComponent(userId)}`, projectUrl).toString();

export function userRequest(projectUrl: string, serviceKey: string, userId: string): AdminApiRequest {
  return { method: "GET", url: userUrl(projectUrl, userId), headers: adminHeaders(serviceKey) };
}

/** Disables (DISABLE_DURATION) or enables ("none") the account: GoTrue sets or clears `banned_until`. */
export function banRequest(projectUrl: string, serviceKey: string, userId: string, disable: boolean): AdminApiRequest {
  return {
    method: "PUT",
    url: userUrl(projectUrl, userId),
    headers: adminHeaders(serviceKey),
    body: JSON.stringify({ ban_duration: disable ? DISABLE_DURATION : "none" }),
  };
}

/** Deletes the user for good (GoTrue: `should_soft_delete` false). */
export function deleteUserRequest(projectUrl: string, serviceKey: string, userId: string): AdminApiRequest {
  return { method: "DELETE", url: userUrl(projectUrl, userId), headers: adminHeaders(serviceKey), body: JSON.stringify({ should_soft_delete: false }) };
}

/** An account of a GoTrue user object (devices filled in by the caller), or null when it is not one. */
export function accountOfSupabaseUser(user: unknown, nowMs: number): AdminAccount | null {
  if (typeof user !== "object" || user === null) return null;
  const u = user as Record<string, unknown>;
  if (typeof u.id !== "string" || typeof u.email !== "string" || typeof u.created_at !== "string") return null;
  return {
    id: u.id,
    email: u.email.toLowerCase(),
    createdAt: u.created_at,
    lastSignInAt: typeof u.last_sign_in_at === "string" ? u.last_sign_in_at : null,
    state: stateOf(u.email_confirmed_at, u.banned_until, nowMs),
    role: roleOf(u.app_metadata),
    knownDevices: null,
  };
}

/** The accounts of a list-users answer and the total (GoTrue: `X-Total-Count`, else `total` in the body). */
export function accountPageOfSupabase(body: unknown, totalHeader: string | null, page: number, nowMs: number): AccountPage {
  const users = typeof body === "object" && body !== null ? (body as { users?: unknown }).users : undefined;
  if (!Array.isArray(users)) throw new Error("Supabase admin API: unexpected answer to list users");
  const accounts = users.map((u) => accountOfSupabaseUser(u, nowMs)).filter((a): a is AdminAccount => a !== null);
  const bodyTotal = (body as { total?: unknown }).total;
  const total = totalHeader && /^\d+$/.test(totalHeader) ? Number(totalHeader) : typeof bodyTotal === "number" ? bodyTotal : accounts.length;
  return { accounts, total, page, pageCount: pageCountOf(total) };
}
