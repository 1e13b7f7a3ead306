// Roles on the web (worker/admin/actions.ts): an admin grants and revokes them by e-mail, each
// change writes an audit entry (who, when, what, before → after) readable and filterable through
// GET /api/admin/audit, a revoke also ends the account's second step, the refusals are Chinese,
// and no route edits or deletes the audit log.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, callRead, signUp, uniqueEmail } from "./helpers/visitor";
import type { AuditRecord } from "../../worker/admin/audit";
import { enrolledHolder, post, SAME_SITE, type RoleHolder } from "./helpers/admin";

/** An 操作日志 entry as GET /api/admin/audit answers it. */
type Entry = AuditRecord;

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin");
});

async function auditOf(query: string): Promise<Entry[]> {
  const res = await call("GET", `/api/admin/audit?${query}`, { jar: admin.jar });
  expect(res.status).toBe(200);
  return (await res.json<{ entries: Entry[] }>()).entries;
}

describe("grant and revoke on the web", () => {
  it("grant makes a role holder (who must then enrol), revoke takes it away; both are in the audit log", async () => {
    const target = await signUp("granted");
    const started = Date.now();
    const granted = await post("/api/admin/roles", admin.jar, { email: target.email.toUpperCase(), role: "moderator" });
    expect(granted.status, await granted.clone().text()).toBe(200);
    expect(await granted.json()).toEqual({ email: target.email, before: null, after: "moderator" });
    const step = await call("GET", "/api/admin/two-step", { jar: target.jar });
    expect(await step.json()).toEqual({ step: "enrol" });

    const holders = await (await call("GET", "/api/admin/roles", { jar: admin.jar })).json<{ email: string; role: string }[]>();
    expect(holders).toContainEqual(expect.objectContaining({ email: target.email, role: "moderator" }));
    expect(holders).toContainEqual(expect.objectContaining({ email: admin.email, role: "admin" }));

    // The target enrols; a revoke ends that enrolment too.
    expect((await post("/api/admin/two-step/enrol", target.jar)).status).toBe(200);
    const revoked = await post("/api/admin/roles/revoke", admin.jar, { email: target.email });
    expect(await revoked.json()).toEqual({ email: target.email, before: "moderator", after: null });
    expect((await call("GET", "/api/admin/two-step", { jar: target.jar })).status).toBe(403);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM admin_totp t JOIN users u ON u.id = t.user_id WHERE u.email = ?")
      .bind(target.email)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);

    const entries = await auditOf(`actor=${encodeURIComponent(admin.email)}`);
    const mine = entries.filter((e) => e.target === target.email);
    expect(mine.map((e) => e.action)).toEqual(["role.revoke", "role.grant"]);
    expect(mine[1]).toMatchObject({ actorEmail: admin.email, before: { role: null }, after: { role: "moderator" } });
    expect(mine[0]).toMatchObject({ before: { role: "moderator" }, after: { role: null } });
    for (const e of mine) expect(e.at).toBeGreaterThanOrEqual(started);
    expect((await auditOf("action=role.grant")).every((e) => e.action === "role.grant")).toBe(true);
    expect(await auditOf(`actor=${encodeURIComponent(uniqueEmail("no-actor"))}`)).toEqual([]);
  });

  it("the page form grants and shows the holder; revoke through the page", async () => {
    const target = await signUp("formgrant");
    const res = await call("POST", "/admin/roles/grant", { jar: admin.jar, form: { email: target.email, role: "admin" }, headers: SAME_SITE });
    expect(res.status).toBe(303);
    const page = await callRead("GET", res.headers.get("Location")!, { jar: admin.jar });
    expect(page.text).toContain("已授予角色");
    expect(page.text).toContain(`<td>${target.email}</td><td class="nowrap">管理员</td>`);
    const revoke = await call("POST", "/admin/roles/revoke", { jar: admin.jar, form: { email: target.email }, headers: SAME_SITE });
    expect(revoke.status).toBe(303);
    const after = await callRead("GET", "/admin/roles", { jar: admin.jar });
    expect(after.text).not.toContain(`<td>${target.email}</td>`);
  });

  it("refusals: unknown e-mail, a role that is not one, no e-mail, and an admin's own role — in Chinese, nothing written", async () => {
    const before = (await auditOf("limit=200")).length;
    const unknown = uniqueEmail("unknown");
    const cases: [unknown, number, string, string][] = [
      [{ email: unknown, role: "admin" }, 404, "unknown_email", `没有找到邮箱为 ${unknown} 的账号`],
      [{ email: admin.email, role: "owner" }, 400, "bad_role", "角色只能是 admin（管理员）或 moderator（审核员）"],
      [{ email: "", role: "admin" }, 400, "email_required", "请输入账号邮箱"],
      [{ email: admin.email, role: "moderator" }, 409, "own_role", "不能撤销或降低自己的管理员角色"],
    ];
    for (const [json, status, code, message] of cases) {
      const res = await post("/api/admin/roles", admin.jar, json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect((await res.json<{ error: unknown }>()).error).toEqual({ code, message });
    }
    const own = await post("/api/admin/roles/revoke", admin.jar, { email: admin.email });
    expect(own.status).toBe(409);
    const page = await callRead("POST", "/admin/roles/grant", { jar: admin.jar, form: { email: unknown, role: "admin" }, headers: SAME_SITE });
    expect(page.res.status).toBe(404);
    expect(page.text).toContain(`没有找到邮箱为 ${unknown} 的账号`);
    expect((await auditOf("limit=200")).length).toBe(before);
  });

  it("the audit log cannot be edited: no route updates or deletes an entry", async () => {
    const [entry] = await auditOf("limit=1");
    expect(entry).toBeDefined();
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      for (const path of ["/api/admin/audit", `/api/admin/audit/${entry.id}`]) {
        const res = await call(method, path, { jar: admin.jar, json: { action: "x" }, headers: SAME_SITE });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    const [still] = await auditOf("limit=1");
    expect(still).toEqual(entry);
  });

  it("the 操作日志 page lists entries in Beijing time and filters by action", async () => {
    const { res, text } = await callRead("GET", "/admin/audit?action=two_step.enrol", { jar: admin.jar });
    expect(res.status).toBe(200);
    expect(text).toContain("启用两步验证");
    expect(text).toContain(admin.email);
    expect(text).not.toContain("<td>授予角色</td>");
  });
});
