/**
 * `npm run admin -- grant|revoke`: sets or removes an account's role (docs/admin.md,
 * docs/decisions/0070-admin-roles.md), with an audit row (actor 命令行).
 *
 * - Embedded accounts, local (default): the D1 database `npm start` serves (.wrangler/state, or
 *   another state's v3 directory), through wrangler's platform proxy, migrations applied first.
 * - Embedded accounts, `--remote`: the deployed D1 through `wrangler d1 execute --remote`.
 * - A real Supabase project (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY in the environment or
 *   .dev.vars): the role through the project's admin API; the audit row and the second-step reset
 *   go to the local D1, or the deployed one with `--remote`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  accountOfRow,
  accountsOfUserList,
  listUsersRequest,
  normaliseEmail,
  setRoleRequest,
  type AdminApiRequest,
  type RoleAccount,
  type SqlStatement,
  type UserRoleRow,
} from "../../shared/admin/account-roles";
import { inlineStatement } from "../catalogue/import";
import { d1ExecuteArgs, findAccountSql, planRoleChange, type RoleCommand } from "./role-plan";

process.env.WRANGLER_SEND_METRICS = "false";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WRANGLER = path.join(REPO_ROOT, "node_modules/wrangler/bin/wrangler.js");

/** A Supabase project to use instead of the embedded accounts: from the environment, else .dev.vars. */
export function supabaseProject(env: NodeJS.ProcessEnv = process.env, devVarsFile = path.join(REPO_ROOT, ".dev.vars")): { url: string; key: string } | null {
  const vars: Record<string, string> = {};
  try {
    for (const line of readFileSync(devVarsFile, "utf8").split(/\r?\n/)) {
      const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
      if (match) vars[match[1]] = match[2].replace(/^(["'])(.*)\1$/, "$2");
    }
  } catch {
    // no .dev.vars
  }
  const url = env.SUPABASE_URL || vars.SUPABASE_URL;
  const key = env.SUPABASE_SERVICE_ROLE_KEY || vars.SUPABASE_SERVICE_ROLE_KEY;
  if (url && !key) throw new Error("已配置 SUPABASE_URL，但缺少 SUPABASE_SERVICE_ROLE_KEY（Supabase 项目的 service_role 密钥），无法修改角色");
  return url && key ? { url, key } : null;
}

function wrangler(args: string[]): string {
  const out = spawnSync(process.execPath, [WRANGLER, ...args], { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
  if (out.status !== 0) throw new Error(`wrangler ${args.slice(0, 3).join(" ")} 失败：\n${out.stderr || out.stdout}`);
  return out.stdout;
}

/** Where the statements run: the local state through the proxy, or the deployed database through wrangler. */
interface D1Target {
  findAccount(email: string): Promise<RoleAccount | null>;
  run(statements: SqlStatement[]): Promise<void>;
  close(): Promise<void>;
}

async function localTarget(persistPath?: string): Promise<D1Target> {
  const { applyLocalMigrations } = await import("../prepare-local.mjs");
  await applyLocalMigrations({ log: () => {}, persistPath });
  const { openLocalBindings } = await import("../media/seed");
  const proxy = await openLocalBindings(persistPath);
  const db = proxy.env.DB;
  return {
    async findAccount(email) {
      const s = findAccountSql(email);
      const row = await db
        .prepare(s.sql)
        .bind(...s.params)
        .first<UserRoleRow>();
      return row ? accountOfRow(row) : null;
    },
    async run(statements) {
      if (statements.length) await db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
    },
    close: () => proxy.dispose(),
  };
}

function remoteTarget(wranglerConfig?: string): D1Target {
  return {
    findAccount(email) {
      const out = JSON.parse(wrangler(d1ExecuteArgs(inlineStatement(findAccountSql(email)), true, wranglerConfig, true))) as Array<{ results: UserRoleRow[] }>;
      const row = out.flatMap((r) => r.results)[0];
      return Promise.resolve(row ? accountOfRow(row) : null);
    },
    run(statements) {
      if (statements.length) wrangler(d1ExecuteArgs(statements.map(inlineStatement).join(" "), true, wranglerConfig));
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

async function send(request: AdminApiRequest): Promise<unknown> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`Supabase 管理接口返回 ${response.status}：${JSON.stringify(body)}`);
  return body;
}

async function supabaseAccount(project: { url: string; key: string }, email: string): Promise<RoleAccount | null> {
  const wanted = normaliseEmail(email);
  for (let page = 1; page <= 100; page++) {
    const users = accountsOfUserList(await send(listUsersRequest(project.url, project.key, page, wanted)));
    const found = users.find((u) => u.email === wanted);
    if (found || users.length < 1000) return found ?? null;
  }
  return null;
}

export interface ChangeOptions {
  /** Another local state's v3 directory (tests: the e2e site's own state). */
  persistPath?: string;
  log?: (line: string) => void;
  nowMs?: number;
}

/** The whole command; throws an Error with a Chinese message when it cannot be done. */
export async function changeRole(request: RoleCommand, { persistPath, log = console.log, nowMs = Date.now() }: ChangeOptions = {}): Promise<void> {
  const project = supabaseProject();
  const target = request.remote ? remoteTarget(request.wranglerConfig) : await localTarget(persistPath);
  try {
    const account = project ? await supabaseAccount(project, request.email) : await target.findAccount(request.email);
    const plan = planRoleChange(request, account, nowMs, !project);
    if (!plan.ok) throw new Error(plan.message);
    if (plan.changed && project && account) await send(setRoleRequest(project.url, project.key, account.id, request.role));
    await target.run(plan.statements);
    const where = `${project ? "Supabase 项目" : "内置账号服务"}，${request.remote ? "线上" : "本地"}数据库`;
    log(`${plan.summary}（${where}）`);
  } finally {
    await target.close();
  }
}
