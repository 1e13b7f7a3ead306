// `npm run admin` without a database or the network: the command line, the statements of a role
// change (the same as the web's, with an audit row), the `wrangler d1 execute --remote` command
// and where a Supabase project's key is read from.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inlineStatement } from "../../scripts/catalogue/import";
import { d1ExecuteArgs, parseRoleCommand, planRoleChange, type RoleCommand } from "../../scripts/admin/role-plan";
import { supabaseProject } from "../../scripts/admin/roles";

describe("npm run admin: the command line", () => {
  it("grant defaults to admin; --role and --remote are read; the e-mail is lower-cased", () => {
    expect(parseRoleCommand(["grant", "Boss@Example.com"])).toEqual({
      ok: true,
      value: { command: "grant", email: "boss@example.com", role: "admin", remote: false },
    });
    expect(parseRoleCommand(["grant", "m@example.com", "--role", "moderator", "--remote", "--config", "w.json"])).toEqual({
      ok: true,
      value: { command: "grant", email: "m@example.com", role: "moderator", remote: true, wranglerConfig: "w.json" },
    });
    expect(parseRoleCommand(["revoke", "m@example.com", "--remote"])).toEqual({
      ok: true,
      value: { command: "revoke", email: "m@example.com", role: null, remote: true },
    });
  });

  it("clear Chinese errors: a bad role, no or a bad e-mail, unknown options and commands", () => {
    const message = (argv: string[]) => {
      const parsed = parseRoleCommand(argv);
      expect(parsed.ok).toBe(false);
      return parsed.ok ? "" : parsed.message;
    };
    expect(message(["grant", "a@b.cn", "--role", "owner"])).toBe("角色只能是 admin（管理员）或 moderator（审核员）");
    expect(message(["grant"])).toContain("请给出账号邮箱");
    expect(message(["grant", "not-an-email"])).toBe("“not-an-email”不是有效的邮箱地址");
    expect(message(["grant", "a@b.cn", "--role"])).toContain("--role 后面需要一个值");
    expect(message(["grant", "a@b.cn", "--force"])).toContain("未知选项“--force”");
    expect(message(["revoke", "a@b.cn", "--role", "admin"])).toContain("revoke 不需要 --role");
    expect(message(["promote", "a@b.cn"])).toContain("未知命令“promote”");
    expect(message([])).toContain("用法：npm run admin -- grant");
  });
});

describe("npm run admin: what it runs", () => {
  const grant: RoleCommand = { command: "grant", email: "m@example.com", role: "moderator", remote: true };
  const account = { id: "user-1", email: "m@example.com", role: null };

  it("an unknown e-mail is refused in Chinese; the same role again changes nothing", () => {
    expect(planRoleChange(grant, null, 0)).toEqual({ ok: false, message: "没有找到邮箱为 m@example.com 的账号" });
    expect(planRoleChange(grant, { ...account, role: "moderator" }, 0)).toMatchObject({ ok: true, changed: false, statements: [] });
  });

  it("a remote grant is one `wrangler d1 execute --remote` with the role and its audit row", () => {
    const plan = planRoleChange(grant, account, Date.UTC(2026, 0, 2));
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.summary).toBe("m@example.com：无角色 → 审核员（moderator）");
    const sql = plan.statements.map(inlineStatement).join(" ");
    expect(sql).toBe(
      "UPDATE users SET raw_app_meta_data = json_set(raw_app_meta_data, '$.role', 'moderator'), updated_at = '2026-01-02T00:00:00.000Z' WHERE id = 'user-1'; " +
        "INSERT INTO admin_audit (at, actor_id, actor_email, action, target, before_value, after_value) VALUES " +
        `(${Date.UTC(2026, 0, 2)}, 'cli', '命令行', 'role.grant', 'm@example.com', '{"role":null}', '{"role":"moderator"}');`,
    );
    expect(d1ExecuteArgs(sql, true, "deploy.json")).toEqual(["d1", "execute", "DB", "--remote", "--config", "deploy.json", "--yes", "--command", sql]);
  });

  it("a revoke also ends the second step; with a Supabase project only the reset and the audit go to D1", () => {
    const revoke: RoleCommand = { command: "revoke", email: "m@example.com", role: null, remote: false };
    const plan = planRoleChange(revoke, { ...account, role: "admin" }, 1, false);
    if (!plan.ok) throw new Error(plan.message);
    const sql = plan.statements.map((s) => s.sql);
    expect(sql.some((s) => s.startsWith("UPDATE users"))).toBe(false);
    expect(sql).toEqual([
      "DELETE FROM admin_verified_sessions WHERE user_id = ?",
      "DELETE FROM admin_recovery_codes WHERE user_id = ?",
      "DELETE FROM admin_totp WHERE user_id = ?",
      expect.stringContaining("INSERT INTO admin_audit") as string,
    ]);
    expect(plan.statements.at(-1)?.params).toContain("role.revoke");
  });

  it("a Supabase project from the environment or .dev.vars; a URL without the service-role key is an error", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "admin-cli-"));
    const file = path.join(dir, ".dev.vars");
    writeFileSync(file, 'SUPABASE_URL="https://p.supabase.co"\nSUPABASE_SERVICE_ROLE_KEY=svc\n');
    expect(supabaseProject({}, file)).toEqual({ url: "https://p.supabase.co", key: "svc" });
    expect(supabaseProject({ SUPABASE_SERVICE_ROLE_KEY: "env" }, file)).toEqual({ url: "https://p.supabase.co", key: "env" });
    expect(supabaseProject({}, path.join(dir, "none"))).toBeNull();
    expect(() => supabaseProject({ SUPABASE_URL: "https://p.supabase.co" }, path.join(dir, "none"))).toThrow("缺少 SUPABASE_SERVICE_ROLE_KEY");
  });
});
