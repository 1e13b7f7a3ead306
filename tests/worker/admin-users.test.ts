// 用户管理 (worker/admin/user-actions.ts) on the embedded account service: accounts found by
// e-mail a page at a time; disabling ends every session at once (the access token is refused at
// the next request, the refresh token too, the 弹幕 socket loses the right to post) and sign-in
// answers 账号已停用 until it is enabled; sign out everywhere; delete with the e-mail typed as
// confirmation, taking the account's rows with it; an admin cannot disable or delete themselves;
// every write is in the 操作日志 with before → after.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { isType, openSocket } from "./helpers/danmaku-socket";
import { absorb, call, expiringCopy, PASSWORD, signUp, uniqueEmail, type Jar } from "./helpers/visitor";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";

interface Account {
  id: string;
  email: string;
  state: string;
  role: string | null;
  knownDevices: number | null;
  createdAt: string;
  lastSignInAt: string | null;
}

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "users-admin");
});

async function accountOf(email: string): Promise<Account> {
  const res = await call("GET", `/api/admin/users?q=${encodeURIComponent(email)}`, { jar: admin.jar });
  expect(res.status).toBe(200);
  const page = await res.json<{ accounts: Account[]; total: number }>();
  expect(page.total).toBe(1);
  return page.accounts[0];
}

async function signedInUser(jar: Jar): Promise<string | null> {
  const res = await call("GET", "/api/auth/user", { jar });
  return (await res.json<{ user: { email: string } | null }>()).user?.email ?? null;
}

function signIn(email: string) {
  return call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD } });
}

async function lastAudit(target: string): Promise<{ action: string; actorEmail: string; before: unknown; after: unknown }[]> {
  const res = await call("GET", `/api/admin/audit?target=${encodeURIComponent(target)}`, { jar: admin.jar });
  return (await res.json<{ entries: { action: string; actorEmail: string; before: unknown; after: unknown }[] }>()).entries;
}

describe("finding accounts", () => {
  it("by part of the e-mail, with created, last sign-in, devices, state and role; a LIKE wildcard is an ordinary character", async () => {
    const { email } = await signUp("findme");
    const account = await accountOf(email);
    expect(account).toMatchObject({ email, state: "active", role: null, knownDevices: 0 });
    expect(Date.parse(account.createdAt)).not.toBeNaN();
    // A sign-in from a browser remembers it as a known device.
    expect((await signIn(email)).status).toBe(200);
    expect((await accountOf(email)).knownDevices).toBe(1);
    expect((await accountOf(email)).lastSignInAt).not.toBeNull();

    const part = email.slice(0, email.indexOf("@"));
    const found = await (await call("GET", `/api/admin/users?q=${encodeURIComponent(part.toUpperCase())}`, { jar: admin.jar })).json<{ accounts: Account[] }>();
    expect(found.accounts.map((a) => a.email)).toEqual([email]);
    const wildcard = await (await call("GET", "/api/admin/users?q=%25", { jar: admin.jar })).json<{ total: number }>();
    expect(wildcard.total).toBe(0);
  });

  it("pages of 50, every account once, in e-mail order; a page past the end is empty", async () => {
    const tag = uniqueEmail("pg").split("@")[0];
    const now = new Date().toISOString();
    const statements = Array.from({ length: 120 }, (_, i) =>
      env.DB.prepare("INSERT INTO users (id, email, encrypted_password, identity_id, created_at, updated_at) VALUES (?, ?, 'x', ?, ?, ?)").bind(
        crypto.randomUUID(),
        `${tag}-${String(i).padStart(3, "0")}@example.com`,
        crypto.randomUUID(),
        now,
        now,
      ),
    );
    await env.DB.batch(statements);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await call("GET", `/api/admin/users?q=${tag}&page=${page}`, { jar: admin.jar });
      const body = await res.json<{ accounts: Account[]; total: number; pageCount: number; page: number }>();
      expect(body).toMatchObject({ total: 120, pageCount: 3, page });
      expect(body.accounts.length).toBe(page <= 2 ? 50 : page === 3 ? 20 : 0);
      seen.push(...body.accounts.map((a) => a.email));
    }
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(120);
    expect(seen.every((e) => e.startsWith(tag))).toBe(true);
    // Unconfirmed accounts show as such.
    expect((await accountOf(`${tag}-000@example.com`)).state).toBe("unconfirmed");
  });

  it("an unknown or malformed id is 404 in Chinese", async () => {
    for (const id of [crypto.randomUUID(), "not-an-id"]) {
      const res = await call("GET", `/api/admin/users/${id}`, { jar: admin.jar });
      expect(res.status).toBe(404);
      expect((await res.json<{ error: { message: string } }>()).error.message).toBe("没有找到这个账号，可能已被删除");
    }
  });
});

describe("disable and enable", () => {
  it("ends every session at once: the next request is signed out, the refresh is refused, the 弹幕 socket cannot post, sign-in answers 账号已停用", async () => {
    const target = await signUp("disabled");
    const other = absorb(new Map(), await signIn(target.email));
    const id = (await accountOf(target.email)).id;
    const room = "video_048";
    const socket = await openSocket(room, { jar: other });
    expect(await socket.next(isType("hello"))).toMatchObject({ canPost: true });

    const detail = await (await call("GET", `/api/admin/users/${id}`, { jar: admin.jar })).json<{ sessions: unknown[]; canSignOut: boolean }>();
    expect(detail.sessions).toHaveLength(2);
    expect(detail.canSignOut).toBe(true);

    const res = await post(`/api/admin/users/${id}/disable`, admin.jar);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ email: target.email, state: "disabled" });

    // The access token still in the cookie is refused at the next request; so is its refresh.
    expect(await signedInUser(target.jar)).toBeNull();
    expect(await signedInUser(expiringCopy(other, -60))).toBeNull();
    // The socket opened before loses the right to post.
    socket.send({ type: "post", nonce: "after", time: 1, text: "停用之后" });
    expect(await socket.next(isType("error"))).toMatchObject({ code: "sessionEnded", nonce: "after" });
    socket.ws.close();

    const refused = await signIn(target.email);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { code: "user_banned", message: "账号已停用" } });
    const form = await call("POST", "/api/auth/sign-in", { form: { email: target.email, password: PASSWORD } });
    expect(form.headers.get("Location")).toContain("error=user_banned");
    // A wrong password does not reveal that the account is disabled.
    const wrong = await call("POST", "/api/auth/sign-in", { json: { email: target.email, password: "wrong-pass-9" } });
    expect((await wrong.json<{ error: { code: string } }>()).error.code).toBe("invalid_credentials");

    expect((await lastAudit(target.email))[0]).toMatchObject({
      action: "user.disable",
      actorEmail: admin.email,
      before: { state: "active" },
      after: { state: "disabled" },
    });

    const enabled = await post(`/api/admin/users/${id}/enable`, admin.jar);
    expect(await enabled.json()).toMatchObject({ state: "active" });
    expect((await signIn(target.email)).status).toBe(200);
    expect((await lastAudit(target.email))[0]).toMatchObject({ action: "user.enable", before: { state: "disabled" }, after: { state: "active" } });
  });

  it("an admin cannot disable or delete their own account", async () => {
    const disable = await post(`/api/admin/users/${admin.userId}/disable`, admin.jar);
    expect(disable.status).toBe(409);
    expect((await disable.json<{ error: { message: string } }>()).error.message).toBe("不能停用自己的账号");
    const remove = await post(`/api/admin/users/${admin.userId}/delete`, admin.jar, { confirm: admin.email });
    expect(remove.status).toBe(409);
    expect((await remove.json<{ error: { message: string } }>()).error.message).toBe("不能删除自己的账号");
    expect((await call("GET", "/api/admin/me", { jar: admin.jar })).status).toBe(200);
  });
});

describe("sign out everywhere and delete", () => {
  it("sign out everywhere ends the account's sessions; it can sign in again", async () => {
    const target = await signUp("signout");
    const id = (await accountOf(target.email)).id;
    const res = await post(`/api/admin/users/${id}/sign-out`, admin.jar);
    expect(res.status).toBe(200);
    expect(await signedInUser(target.jar)).toBeNull();
    expect((await signIn(target.email)).status).toBe(200);
    expect((await lastAudit(target.email))[0]).toMatchObject({ action: "user.sign_out" });
  });

  it("delete asks for the e-mail, then removes the account with its sessions, library and known devices", async () => {
    const target = await signUp("deleted");
    const saved = await call("PUT", "/api/auth/user", {
      jar: target.jar,
      json: { data: { library: { favourites: ["video_001"] } } },
      headers: { Origin: "https://yingshi.test" },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await signIn(target.email)).status).toBe(200);
    const id = (await accountOf(target.email)).id;

    const unconfirmed = await post(`/api/admin/users/${id}/delete`, admin.jar, { confirm: "someone@else.com" });
    expect(unconfirmed.status).toBe(400);
    expect((await unconfirmed.json<{ error: { message: string } }>()).error.message).toBe("请输入该账号的邮箱以确认删除");

    const res = await post(`/api/admin/users/${id}/delete`, admin.jar, { confirm: target.email.toUpperCase() });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await signedInUser(target.jar)).toBeNull();
    expect((await signIn(target.email)).status).toBe(400);
    const left = await env.DB.batch([
      env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE id = ?").bind(id),
      env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(id),
      env.DB.prepare("SELECT COUNT(*) AS n FROM refresh_tokens WHERE user_id = ?").bind(id),
      env.DB.prepare("SELECT COUNT(*) AS n FROM sign_in_devices WHERE email = ?").bind(target.email),
    ]);
    expect(left.map((r) => (r.results[0] as { n: number }).n)).toEqual([0, 0, 0, 0]);
    expect((await lastAudit(target.email))[0]).toMatchObject({ action: "user.delete", before: { email: target.email, state: "active" }, after: null });
    expect((await call("GET", `/api/admin/users/${id}`, { jar: admin.jar })).status).toBe(404);
  });
});
