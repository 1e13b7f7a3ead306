/**
 * Reading and writing an account's role (`app_metadata.role`) — the statements and requests only,
 * so that the worker (grant and revoke on the web) and the command line (`npm run admin`) run the
 * same ones: SQL for the embedded account service's `users` table (D1), and the requests of a
 * real Supabase project's admin API (GoTrue: `GET/PUT /auth/v1/admin/users`, with the service-role
 * key). Pure: the caller runs them.
 */
import { roleOf, type AdminRole } from "./roles";

export type SqlValue = string | number | null;
/** One statement with `?` placeholders in order. */
export interface SqlStatement {
  sql: string;
  params: SqlValue[];
}

/** An account as far as roles go. */
export interface RoleAccount {
  id: string;
  email: string;
  role: AdminRole | null;
}

export const UNKNOWN_EMAIL_MESSAGE = (email: string) => `没有找到邮箱为 ${email} 的账号`;

/** E-mail addresses are kept lower-case by both account services. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

// ---- the embedded account service (D1 `users`) ----------------------------------------------

export interface UserRoleRow {
  id: string;
  email: string;
  raw_app_meta_data: string | null;
}

export function accountOfRow(row: UserRoleRow): RoleAccount {
  let metadata: unknown = null;
  try {
    metadata = JSON.parse(row.raw_app_meta_data ?? "{}");
  } catch {
    metadata = null;
  }
  return { id: row.id, email: row.email, role: roleOf(metadata) };
}

export function findAccountStatement(email: string): SqlStatement {
  return { sql: "SELECT id, email, raw_app_meta_data FROM users WHERE email = ?", params: [normaliseEmail(email)] };
}

/** Sets (or, with null, removes) `role` in the account's app_metadata; the rest of it is kept. */
export function setRoleStatement(userId: string, role: AdminRole | null, nowIso: string): SqlStatement {
  return role
    ? { sql: "UPDATE users SET raw_app_meta_data = json_set(raw_app_meta_data, '$.role', ?), updated_at = ? WHERE id = ?", params: [role, nowIso, userId] }
    : { sql: "UPDATE users SET raw_app_meta_data = json_remove(raw_app_meta_data, '$.role'), updated_at = ? WHERE id = ?", params: [nowIso, userId] };
}

export const ROLE_HOLDERS_STATEMENT: SqlStatement = {
  sql: "SELECT id, email, raw_app_meta_data FROM users WHERE json_extract(raw_app_meta_data, '$.role') IS NOT NULL ORDER BY email",
  params: [],
};

/**
 * What else a revoke ends (run with it): the sessions that passed the second step and the
 * account's TOTP enrolment — a role granted again starts with a new enrolment.
 */
export function secondStepResetStatements(userId: string): SqlStatement[] {
  return [
    { sql: "DELETE FROM admin_verified_sessions WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM admin_recovery_codes WHERE user_id = ?", params: [userId] },
    { sql: "DELETE FROM admin_totp WHERE user_id = ?", params: [userId] },
  ];
}

// ---- a real Supabase project (GoTrue's admin API) -------------------------------------------

/** The secret (wrangler secret / environment variable) that holds the project's service-role key. */
export const SERVICE_ROLE_KEY_NAME = "SUPABASE_SERVICE_ROLE_KEY";

export interface AdminApiRequest {
  method: "GET" | "PUT" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export function adminHeaders(serviceKey: string): Record<string, string> {
  return { apikey: serviceKey, Authorization: `Bearer ${serviceKey}`, "Content-Type": "application/json" };
}

/** One page of the project's users (`filter` narrows by e-mail, as GoTrue's admin API does). */
export function listUsersRequest(projectUrl: string, serviceKey: string, page: number, filter?: string): AdminApiRequest {
  const url = new URL("/auth/v1/admin/users", projectUrl);
  url.searchParams.set("page", String(page));
  url.searchParams.set("per_page", "1000");
  if (filter) url.searchParams.set("filter", filter);
  return { method: "GET", url: url.toString(), headers: adminHeaders(serviceKey) };
}

/** GoTrue merges app_metadata key by key; `role: null` removes the key. */
export function setRoleRequest(projectUrl: string, serviceKey: string, userId: string, role: AdminRole | null): AdminApiRequest {
  const url = new URL(`/auth/v1/admin/users/${encodeURIComponent(userId)}`, projectUrl);
  return { method: "PUT", url: url.toString(), headers: adminHeaders(serviceKey), body: JSON.stringify({ app_metadata: { role } }) };
}

/** The accounts of a list-users answer (`{ users: [...] }`); anything else is an error. */
export function accountsOfUserList(body: unknown): RoleAccount[] {
  const users = typeof body === "object" && body !== null ? (body as { users?: unknown }).users : undefined;
  if (!Array.isArray(users)) throw new Error("Supabase admin API: unexpected answer to list users");
  return users.flatMap((user: unknown) => {
    if (typeof user !== "object" || user === null) return [];
    const { id, email, app_metadata: appMetadata } = user as Record<string, unknown>;
    return typeof id === "string" && typeof email === "string" ? [{ id, email: email.toLowerCase(), role: roleOf(appMetadata) }] : [];
  });
}
