/**
 * 用户管理's reads and writes, one function each for the JSON API and the pages alike (as
 * actions.ts for the second step and roles): find accounts, one account with its devices,
 * disable, enable, sign out everywhere, delete. An admin cannot disable or delete their own
 * account; every write leaves an audit row (before → after).
 */
import { accountPageNumber, accountQuery, STATE_NAMES, type AccountPage, type AccountSession, type AdminAccount } from "../../shared/admin/accounts";
import { configOf } from "../config";
import type { AdminVisitor } from "./access";
import { accountDirectoryOf, type AccountDirectory } from "./accounts";
import type { Refusal, Result } from "./actions";

const refusal = (status: Refusal["status"], code: string, message: string): Refusal => ({ ok: false, status, code, message });

export const ACCOUNT_MESSAGES = {
  noServiceKey: "未配置 SUPABASE_SERVICE_ROLE_KEY，无法在网页上管理用户（见 docs/admin.md）",
  unknown: "没有找到这个账号，可能已被删除",
  ownDisable: "不能停用自己的账号",
  ownDelete: "不能删除自己的账号",
  confirm: "请输入该账号的邮箱以确认删除",
  signOutUnsupported: "Supabase 项目不支持在后台强制退出登录；如需立即让该账号退出，请停用它",
} as const;

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function directory(env: Env): AccountDirectory | Refusal {
  return accountDirectoryOf(env) ?? refusal(503, "service_key_missing", ACCOUNT_MESSAGES.noServiceKey);
}

async function found(env: Env, id: string): Promise<{ dir: AccountDirectory; account: AdminAccount } | Refusal> {
  const dir = directory(env);
  if ("ok" in dir) return dir;
  const account = ACCOUNT_ID.test(id) ? await dir.byId(id.toLowerCase(), Date.now()) : null;
  return account ? { dir, account } : refusal(404, "unknown_account", ACCOUNT_MESSAGES.unknown);
}

export async function listAccounts(env: Env, rawQuery: string | undefined, rawPage: string | undefined): Promise<Result<AccountPage & { query: string }>> {
  const dir = directory(env);
  if ("ok" in dir) return dir;
  const query = accountQuery(rawQuery);
  const page = await dir.page(query, accountPageNumber(rawPage), Date.now());
  return { ok: true, value: { ...page, query } };
}

export interface AccountDetail {
  account: AdminAccount;
  /** Signed-in sessions; null where the service cannot list them (Supabase). */
  sessions: AccountSession[] | null;
  /** Whether 强制退出 is offered (the embedded service). */
  canSignOut: boolean;
}

export async function accountDetail(env: Env, id: string): Promise<Result<AccountDetail>> {
  const hit = await found(env, id);
  if ("ok" in hit) return hit;
  const config = configOf(env);
  const sessions = await hit.dir.sessions(
    hit.account.id,
    Date.now(),
    config.AUTH_SESSION_INACTIVITY_DAYS * 86_400_000,
    config.AUTH_SESSION_LIFETIME_DAYS * 86_400_000,
  );
  return { ok: true, value: { account: hit.account, sessions, canSignOut: hit.dir.kind === "embedded" } };
}

const snapshot = (a: AdminAccount) => ({ state: a.state, stateName: STATE_NAMES[a.state] });

const auditOf = (actor: AdminVisitor, action: string, account: AdminAccount, before: unknown, after: unknown) => ({
  actorId: actor.userId,
  actorEmail: actor.email,
  action,
  target: account.email,
  before,
  after,
});

export async function setAccountDisabled(env: Env, actor: AdminVisitor, id: string, disabled: boolean): Promise<Result<AdminAccount>> {
  const hit = await found(env, id);
  if ("ok" in hit) return hit;
  const { dir, account } = hit;
  if (disabled && account.id === actor.userId) return refusal(409, "own_account", ACCOUNT_MESSAGES.ownDisable);
  const after: AdminAccount = { ...account, state: disabled ? "disabled" : "active" };
  // Enabling an account whose e-mail was never confirmed leaves it unconfirmed.
  if (!disabled && account.state !== "disabled") return { ok: true, value: account };
  if (disabled && account.state === "disabled") return { ok: true, value: account };
  const nowMs = Date.now();
  await dir.setDisabled(account, disabled, auditOf(actor, disabled ? "user.disable" : "user.enable", account, snapshot(account), snapshot(after)), nowMs);
  return { ok: true, value: (await dir.byId(account.id, nowMs)) ?? after };
}

export async function signOutAccount(env: Env, actor: AdminVisitor, id: string): Promise<Result<{ email: string }>> {
  const hit = await found(env, id);
  if ("ok" in hit) return hit;
  const { dir, account } = hit;
  if (dir.kind !== "embedded") return refusal(501, "not_supported", ACCOUNT_MESSAGES.signOutUnsupported);
  await dir.signOutEverywhere(account, auditOf(actor, "user.sign_out", account, { sessions: "all" }, { sessions: 0 }), Date.now());
  return { ok: true, value: { email: account.email } };
}

export async function deleteAccount(env: Env, actor: AdminVisitor, id: string, confirm: string): Promise<Result<{ email: string }>> {
  const hit = await found(env, id);
  if ("ok" in hit) return hit;
  const { dir, account } = hit;
  if (account.id === actor.userId) return refusal(409, "own_account", ACCOUNT_MESSAGES.ownDelete);
  if (confirm.trim().toLowerCase() !== account.email) return refusal(400, "confirm_mismatch", ACCOUNT_MESSAGES.confirm);
  const before = { email: account.email, createdAt: account.createdAt, role: account.role, ...snapshot(account) };
  await dir.remove(account, auditOf(actor, "user.delete", account, before, null), Date.now());
  return { ok: true, value: { email: account.email } };
}
