/**
 * Roles on accounts, for the 管理后台's grant and revoke (docs/decisions/0070-admin-roles.md):
 * the embedded account service's `users` table in D1, or a real Supabase project's admin API with
 * its service-role key (SUPABASE_SERVICE_ROLE_KEY). Each change runs with its audit row; a revoke
 * also ends the account's second step (shared/admin/account-roles.ts).
 */
import {
  accountOfRow,
  accountsOfUserList,
  findAccountStatement,
  listUsersRequest,
  normaliseEmail,
  ROLE_HOLDERS_STATEMENT,
  secondStepResetStatements,
  setRoleRequest,
  setRoleStatement,
  type AdminApiRequest,
  type RoleAccount,
  type UserRoleRow,
} from "../../shared/admin/account-roles";
import type { AdminRole } from "../../shared/admin/roles";
import { isoTime } from "../account-service/encoding";
import { configOf } from "../config";
import { auditStatement, prepared, type AuditEntry } from "./audit";

export interface AccountRoles {
  find(email: string): Promise<RoleAccount | null>;
  /** Sets or removes the role and writes `audit`; a removal also resets the account's second step. */
  setRole(account: RoleAccount, role: AdminRole | null, audit: AuditEntry, nowMs: number): Promise<void>;
  holders(): Promise<RoleAccount[]>;
}

function embeddedRoles(db: D1Database): AccountRoles {
  return {
    async find(email) {
      const row = await prepared(db, findAccountStatement(email)).first<UserRoleRow>();
      return row ? accountOfRow(row) : null;
    },
    async setRole(account, role, audit, nowMs) {
      await db.batch(
        [setRoleStatement(account.id, role, isoTime(nowMs)), ...(role ? [] : secondStepResetStatements(account.id)), auditStatement(audit, nowMs)].map((s) =>
          prepared(db, s),
        ),
      );
    },
    async holders() {
      const { results } = await prepared(db, ROLE_HOLDERS_STATEMENT).all<UserRoleRow>();
      return results.map(accountOfRow).filter((a) => a.role !== null);
    },
  };
}

async function send(request: AdminApiRequest): Promise<unknown> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(8000) });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`Supabase admin API answered ${response.status}`);
  return body;
}

/** Pages of the project's users until a short one (1000 per page). */
async function allUsers(url: string, key: string, filter?: string): Promise<RoleAccount[]> {
  const out: RoleAccount[] = [];
  for (let page = 1; page <= 100; page++) {
    const users = accountsOfUserList(await send(listUsersRequest(url, key, page, filter)));
    out.push(...users);
    if (users.length < 1000) break;
  }
  return out;
}

function supabaseRoles(db: D1Database, url: string, key: string): AccountRoles {
  return {
    async find(email) {
      const wanted = normaliseEmail(email);
      return (await allUsers(url, key, wanted)).find((a) => a.email === wanted) ?? null;
    },
    async setRole(account, role, audit, nowMs) {
      await send(setRoleRequest(url, key, account.id, role));
      await db.batch([...(role ? [] : secondStepResetStatements(account.id)), auditStatement(audit, nowMs)].map((s) => prepared(db, s)));
    },
    async holders() {
      return (await allUsers(url, key)).filter((a) => a.role !== null).sort((a, b) => (a.email < b.email ? -1 : 1));
    },
  };
}

/** The roles of this site's accounts, or null where a real Supabase project has no service-role key configured. */
export function accountRolesOf(env: Env): AccountRoles | null {
  const config = configOf(env);
  if (!config.SUPABASE_URL) return embeddedRoles(env.DB);
  return config.SUPABASE_SERVICE_ROLE_KEY ? supabaseRoles(env.DB, config.SUPABASE_URL, config.SUPABASE_SERVICE_ROLE_KEY) : null;
}
