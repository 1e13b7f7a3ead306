/**
 * `npm run admin` without I/O: the command line read into a request, the statements a role change
 * runs against D1 (the same ones as the web: shared/admin/account-roles.ts and the audit row), and
 * the `wrangler d1 execute` arguments that run them on the deployed database (`--remote`).
 */
import {
  findAccountStatement,
  normaliseEmail,
  secondStepResetStatements,
  setRoleStatement,
  UNKNOWN_EMAIL_MESSAGE,
  type RoleAccount,
  type SqlStatement,
} from "../../shared/admin/account-roles";
import { BAD_ROLE_MESSAGE, parseRole, ROLE_NAMES, type AdminRole } from "../../shared/admin/roles";

export const USAGE =
  "用法：npm run admin -- grant <邮箱> [--role admin|moderator] [--remote] [--config wrangler.json]\n      npm run admin -- revoke <邮箱> [--remote] [--config wrangler.json]";

export interface RoleCommand {
  command: "grant" | "revoke";
  email: string;
  role: AdminRole | null;
  remote: boolean;
  /** A wrangler config naming the remote database by id (as `npm run deploy` writes one). */
  wranglerConfig?: string;
}

export type Parsed = { ok: true; value: RoleCommand } | { ok: false; message: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseRoleCommand(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv;
  if (command !== "grant" && command !== "revoke") return { ok: false, message: command ? `未知命令“${command}”\n${USAGE}` : USAGE };
  let email: string | undefined;
  let roleText: string | undefined;
  let wranglerConfig: string | undefined;
  let remote = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--remote") remote = true;
    else if (arg === "--role" || arg === "--config") {
      const value = rest[++i];
      if (!value || value.startsWith("--")) return { ok: false, message: `${arg} 后面需要一个值\n${USAGE}` };
      if (arg === "--role") roleText = value;
      else wranglerConfig = value;
    } else if (arg.startsWith("--role=")) roleText = arg.slice("--role=".length);
    else if (arg.startsWith("--")) return { ok: false, message: `未知选项“${arg}”\n${USAGE}` };
    else if (email === undefined) email = arg;
    else return { ok: false, message: `多余的参数“${arg}”\n${USAGE}` };
  }
  if (!email) return { ok: false, message: `请给出账号邮箱\n${USAGE}` };
  if (!EMAIL.test(email.trim())) return { ok: false, message: `“${email}”不是有效的邮箱地址` };
  if (command === "revoke" && roleText !== undefined) return { ok: false, message: "revoke 不需要 --role：撤销会去掉账号的任何角色" };
  const role = command === "grant" ? parseRole(roleText ?? "admin") : null;
  if (command === "grant" && !role) return { ok: false, message: BAD_ROLE_MESSAGE };
  return { ok: true, value: { command, email: normaliseEmail(email), role, remote, ...(wranglerConfig ? { wranglerConfig } : {}) } };
}

/** The audit row's actor for the command line. */
export const CLI_ACTOR = { actorId: "cli", actorEmail: "命令行" } as const;

export type RolePlan = { ok: true; statements: SqlStatement[]; summary: string; changed: boolean } | { ok: false; message: string };

function auditRow(account: RoleAccount, role: AdminRole | null, nowMs: number): SqlStatement {
  return {
    sql: "INSERT INTO admin_audit (at, actor_id, actor_email, action, target, before_value, after_value) VALUES (?, ?, ?, ?, ?, ?, ?)",
    params: [
      nowMs,
      CLI_ACTOR.actorId,
      CLI_ACTOR.actorEmail,
      role ? "role.grant" : "role.revoke",
      account.email,
      JSON.stringify({ role: account.role }),
      JSON.stringify({ role }),
    ],
  };
}

const named = (role: AdminRole | null) => (role ? `${ROLE_NAMES[role]}（${role}）` : "无角色");

/**
 * What a grant or revoke runs on D1 for `account` (null: no such e-mail). `roleInD1`: the role is
 * written here (embedded accounts); false when a Supabase project holds it and only the
 * second-step reset and the audit row go to D1.
 */
export function planRoleChange(request: RoleCommand, account: RoleAccount | null, nowMs: number, roleInD1 = true): RolePlan {
  if (!account) return { ok: false, message: UNKNOWN_EMAIL_MESSAGE(request.email) };
  if (account.role === request.role) return { ok: true, statements: [], changed: false, summary: `${account.email} 已是${named(request.role)}，未做修改` };
  const statements = [
    ...(roleInD1 ? [setRoleStatement(account.id, request.role, new Date(nowMs).toISOString())] : []),
    ...(request.role ? [] : secondStepResetStatements(account.id)),
    auditRow(account, request.role, nowMs),
  ];
  return { ok: true, statements, changed: true, summary: `${account.email}：${named(account.role)} → ${named(request.role)}` };
}

/** The lookup of the account, for `wrangler d1 execute --command`. */
export const findAccountSql = (email: string): SqlStatement => findAccountStatement(email);

/** `wrangler d1 execute` arguments for statements already written out as SQL text. */
export function d1ExecuteArgs(sql: string, remote: boolean, wranglerConfig?: string, json = false): string[] {
  return [
    "d1",
    "execute",
    "DB",
    remote ? "--remote" : "--local",
    ...(wranglerConfig ? ["--config", wranglerConfig] : []),
    ...(json ? ["--json"] : []),
    "--yes",
    "--command",
    sql,
  ];
}
