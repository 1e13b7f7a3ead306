/**
 * 用户管理's accounts: the embedded account service's tables in D1, or a real Supabase project's
 * admin API with SUPABASE_SERVICE_ROLE_KEY (statements and requests: shared/admin/accounts.ts).
 * Each change runs with its audit row — in one D1 batch for the embedded service; after the
 * admin API's answer for Supabase (an HTTP call cannot join a D1 batch).
 */
import {
  accountByIdStatement,
  accountOfD1Row,
  accountOfSupabaseUser,
  accountPageOfSupabase,
  accountPageStatements,
  accountSessionsStatement,
  banRequest,
  deleteAccountStatements,
  deleteUserRequest,
  DISABLE_MS,
  endSessionsStatements,
  knownDevicesStatement,
  pageCountOf,
  setBannedUntilStatement,
  siteTracesStatements,
  userPageRequest,
  userRequest,
  type AccountPage,
  type AccountRow,
  type AccountSession,
  type AdminAccount,
  type SessionRowForAdmin,
} from "../../shared/admin/accounts";
import type { AdminApiRequest } from "../../shared/admin/account-roles";
import { isoTime } from "../account-service/encoding";
import { configOf } from "../config";
import { auditStatement, prepared, type AuditEntry } from "./audit";

export interface AccountDirectory {
  /** "embedded" or "supabase": what the screens can offer (Supabase lists no sessions). */
  kind: "embedded" | "supabase";
  page(query: string, page: number, nowMs: number): Promise<AccountPage>;
  byId(id: string, nowMs: number): Promise<AdminAccount | null>;
  /** Live sessions (embedded only; null where the service cannot list them). */
  sessions(id: string, nowMs: number, inactivityMs: number, lifetimeMs: number): Promise<AccountSession[] | null>;
  /** Disables (every session ends at once) or enables the account. */
  setDisabled(account: AdminAccount, disabled: boolean, audit: AuditEntry, nowMs: number): Promise<void>;
  /** Ends every session; false where the service cannot (Supabase has no admin call for it). */
  signOutEverywhere(account: AdminAccount, audit: AuditEntry, nowMs: number): Promise<boolean>;
  remove(account: AdminAccount, audit: AuditEntry, nowMs: number): Promise<void>;
}

function embedded(db: D1Database): AccountDirectory {
  const run = (statements: Parameters<typeof prepared>[1][]) => db.batch(statements.map((s) => prepared(db, s)));
  return {
    kind: "embedded",
    async page(query, page, nowMs) {
      const [count, rows] = accountPageStatements(query, page, nowMs);
      const [countResult, rowsResult] = await db.batch([prepared(db, count), prepared(db, rows)]);
      const total = (countResult.results[0] as { n: number } | undefined)?.n ?? 0;
      const accounts = (rowsResult.results as AccountRow[]).map((row) => accountOfD1Row(row, nowMs));
      return { accounts, total, page, pageCount: pageCountOf(total) };
    },
    async byId(id, nowMs) {
      const row = await prepared(db, accountByIdStatement(id, nowMs)).first<AccountRow>();
      return row ? accountOfD1Row(row, nowMs) : null;
    },
    async sessions(id, nowMs, inactivityMs, lifetimeMs) {
      const { results } = await prepared(db, accountSessionsStatement(id)).all<SessionRowForAdmin>();
      return results
        .filter((s) => nowMs - Date.parse(s.updated_at) <= inactivityMs && nowMs - Date.parse(s.created_at) <= lifetimeMs)
        .map((s) => ({ userAgent: s.user_agent, country: s.country, createdAt: s.created_at, lastSeenAt: s.updated_at }));
    },
    async setDisabled(account, disabled, audit, nowMs) {
      const now = isoTime(nowMs);
      await run([
        setBannedUntilStatement(account.id, disabled ? isoTime(nowMs + DISABLE_MS) : null, now),
        ...(disabled ? endSessionsStatements(account.id) : []),
        auditStatement(audit, nowMs),
      ]);
    },
    async signOutEverywhere(account, audit, nowMs) {
      await run([...endSessionsStatements(account.id), auditStatement(audit, nowMs)]);
      return true;
    },
    async remove(account, audit, nowMs) {
      await run([...deleteAccountStatements(account.id, account.email), auditStatement(audit, nowMs)]);
    },
  };
}

async function send(request: AdminApiRequest): Promise<Response> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(8000) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Supabase admin API answered ${response.status} to ${request.method} ${new URL(request.url).pathname}`);
  }
  return response;
}

function supabase(db: D1Database, url: string, key: string): AccountDirectory {
  async function withDevices(accounts: AdminAccount[], nowMs: number): Promise<AdminAccount[]> {
    if (accounts.length === 0) return accounts;
    const { results } = await prepared(
      db,
      knownDevicesStatement(
        accounts.map((a) => a.email),
        nowMs,
      ),
    ).all<{ email: string; n: number }>();
    const counts = new Map(results.map((r) => [r.email, r.n]));
    return accounts.map((a) => ({ ...a, knownDevices: counts.get(a.email) ?? 0 }));
  }
  return {
    kind: "supabase",
    async page(query, page, nowMs) {
      const response = await send(userPageRequest(url, key, page, query));
      const found = accountPageOfSupabase(await response.json(), response.headers.get("X-Total-Count"), page, nowMs);
      return { ...found, accounts: await withDevices(found.accounts, nowMs) };
    },
    async byId(id, nowMs) {
      const request = userRequest(url, key, id);
      const response = await fetch(request.url, { headers: request.headers, signal: AbortSignal.timeout(8000) });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) throw new Error(`Supabase admin API answered ${response.status} to GET user`);
      const account = accountOfSupabaseUser(await response.json(), nowMs);
      return account ? ((await withDevices([account], nowMs))[0] ?? null) : null;
    },
    sessions: () => Promise.resolve(null),
    async setDisabled(account, disabled, audit, nowMs) {
      await send(banRequest(url, key, account.id, disabled));
      // The worker refuses a user object with banned_until ahead at every request (worker/auth/session.ts).
      await db.batch([...(disabled ? [endSessionsStatements(account.id)[2]] : []), auditStatement(audit, nowMs)].map((s) => prepared(db, s)));
    },
    signOutEverywhere: () => Promise.resolve(false),
    async remove(account, audit, nowMs) {
      await send(deleteUserRequest(url, key, account.id));
      await db.batch([...siteTracesStatements(account.id, account.email), auditStatement(audit, nowMs)].map((s) => prepared(db, s)));
    },
  };
}

/** The site's accounts, or null where a real Supabase project has no service-role key configured. */
export function accountDirectoryOf(env: Env): AccountDirectory | null {
  const config = configOf(env);
  if (!config.SUPABASE_URL) return embedded(env.DB);
  return config.SUPABASE_SERVICE_ROLE_KEY ? supabase(env.DB, config.SUPABASE_URL, config.SUPABASE_SERVICE_ROLE_KEY) : null;
}
