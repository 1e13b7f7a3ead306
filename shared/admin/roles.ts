/**
 * The roles of the 管理后台 (docs/decisions/0070-admin-roles.md): kept on the account as
 * `app_metadata.role`, which only the server (the embedded account service's database, or a real
 * Supabase project's admin API) can write. Pure rules: who may do what.
 */

export type AdminRole = "admin" | "moderator";

export const ADMIN_ROLES: readonly AdminRole[] = ["admin", "moderator"];

/** The roles' Chinese names, as the screens and the command line show them. */
export const ROLE_NAMES: Readonly<Record<AdminRole, string>> = { admin: "管理员", moderator: "审核员" };

/** What a screen or an API route needs: everything (admin) or moderation (弹幕, reports, muting). */
export type AdminPermission = "admin" | "moderation";

/** The role an account's app_metadata gives it, or null (no role, or a value that is not one). */
export function roleOf(appMetadata: unknown): AdminRole | null {
  if (typeof appMetadata !== "object" || appMetadata === null) return null;
  const role = (appMetadata as Record<string, unknown>).role;
  return parseRole(role);
}

/** A role named by a person or a form ("admin", "moderator", or the Chinese names), else null. */
export function parseRole(value: unknown): AdminRole | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "admin" || text === ROLE_NAMES.admin) return "admin";
  if (text === "moderator" || text === ROLE_NAMES.moderator) return "moderator";
  return null;
}

/** Whether `role` may use what needs `permission`: an admin everything, a moderator moderation only. */
export function roleAllows(role: AdminRole, permission: AdminPermission): boolean {
  return role === "admin" || permission === "moderation";
}

/** The message for a role that is not one (command line and forms). */
export const BAD_ROLE_MESSAGE = "角色只能是 admin（管理员）或 moderator（审核员）";
