import { describe, expect, it } from "vitest";
import { accountOfRow, accountsOfUserList, findAccountStatement, listUsersRequest, setRoleRequest, setRoleStatement } from "../../shared/admin/account-roles";
import { isAdminPath } from "../../shared/admin/paths";
import { parseRole, roleAllows, roleOf } from "../../shared/admin/roles";

describe("roles", () => {
  it("only app_metadata.role of admin or moderator is a role", () => {
    expect(roleOf({ role: "admin", provider: "email" })).toBe("admin");
    expect(roleOf({ role: "moderator" })).toBe("moderator");
    for (const metadata of [null, undefined, {}, { role: "Admin" }, { role: "owner" }, { role: ["admin"] }, "admin", { roles: "admin" }])
      expect(roleOf(metadata)).toBeNull();
  });

  it("roles named in English or Chinese", () => {
    expect(parseRole(" admin ")).toBe("admin");
    expect(parseRole("审核员")).toBe("moderator");
    expect(parseRole("管理员")).toBe("admin");
    expect(parseRole("root")).toBeNull();
    expect(parseRole(1)).toBeNull();
  });

  it("a moderator may moderate and nothing else; an admin everything", () => {
    expect(roleAllows("admin", "admin")).toBe(true);
    expect(roleAllows("admin", "moderation")).toBe(true);
    expect(roleAllows("moderator", "moderation")).toBe(true);
    expect(roleAllows("moderator", "admin")).toBe(false);
  });
});

describe("account roles: statements and admin-API requests", () => {
  it("finds an account by its lower-cased e-mail and reads its role from the stored app_metadata", () => {
    expect(findAccountStatement(" A@Example.COM ").params).toEqual(["a@example.com"]);
    expect(accountOfRow({ id: "u", email: "a@example.com", raw_app_meta_data: '{"provider":"email","role":"moderator"}' })).toEqual({
      id: "u",
      email: "a@example.com",
      role: "moderator",
    });
    expect(accountOfRow({ id: "u", email: "a@example.com", raw_app_meta_data: "not json" }).role).toBeNull();
  });

  it("a grant sets the key and a revoke removes it, keeping the rest of app_metadata", () => {
    expect(setRoleStatement("u", "admin", "T")).toEqual({
      sql: expect.stringContaining("json_set(raw_app_meta_data, '$.role', ?)") as string,
      params: ["admin", "T", "u"],
    });
    expect(setRoleStatement("u", null, "T").sql).toContain("json_remove(raw_app_meta_data, '$.role')");
  });

  it("Supabase: PUT /auth/v1/admin/users/{id} with the service-role key; null removes the role", () => {
    const request = setRoleRequest("https://abc.supabase.co", "service-key", "id/1", null);
    expect(request.method).toBe("PUT");
    expect(request.url).toBe("https://abc.supabase.co/auth/v1/admin/users/id%2F1");
    expect(request.headers).toMatchObject({ apikey: "service-key", Authorization: "Bearer service-key" });
    expect(JSON.parse(request.body!)).toEqual({ app_metadata: { role: null } });
    const list = new URL(listUsersRequest("https://abc.supabase.co", "k", 2, "a@b.c").url);
    expect([list.pathname, list.searchParams.get("page"), list.searchParams.get("filter")]).toEqual(["/auth/v1/admin/users", "2", "a@b.c"]);
  });

  it("reads a list-users answer and refuses anything else", () => {
    expect(
      accountsOfUserList({
        users: [
          { id: "1", email: "A@b.c", app_metadata: { role: "admin" } },
          { id: "2", email: "x@y.z", app_metadata: {} },
          { id: 3, email: "bad" },
        ],
      }),
    ).toEqual([
      { id: "1", email: "a@b.c", role: "admin" },
      { id: "2", email: "x@y.z", role: null },
    ]);
    expect(() => accountsOfUserList({ message: "nope" })).toThrow();
  });
});

describe("admin paths (a document load from a viewer page, not an in-app navigation)", () => {
  it("/admin and below only", () => {
    for (const path of ["/admin", "/admin/", "/admin/roles", "/admin?x=1", "/admin#top"]) expect(isAdminPath(path), path).toBe(true);
    for (const path of ["/", "/administrator", "/profile", "/video/admin", "/api/admin/me"]) expect(isAdminPath(path), path).toBe(false);
  });
});
