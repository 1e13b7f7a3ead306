// Raw-HTTP tests of the embedded account service (worker/account-service) inside workerd: odd request
// bodies and routes, and the options it reads from the environment.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountServiceOptions, createAccountService } from "../../worker/account-service";
import { configOf } from "../../worker/config";
import { uniqueEmail, uniqueIp } from "./helpers/unique";
import { accountService, JWT_SECRET, PASSWORD, expectError, signUp } from "./helpers/account-service";

const db = env.DB;

// ---- request bodies and routing -------------------------------------------------------------------

describe("request bodies and routing", () => {
  it("malformed or non-object JSON and wrongly typed fields → 400 bad_json", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("json"));
    for (const rawBody of ["{", "", "[]", "null", '"x"', "42", "\u00ff"]) {
      await expectError(await svc.request("POST", "/signup", { rawBody }), 400, "bad_json", "Could not parse request body as JSON");
      await expectError(await svc.request("POST", "/token?grant_type=password", { rawBody }), 400, "bad_json");
      await expectError(await svc.request("PUT", "/user", { rawBody, token: s.access_token }), 400, "bad_json");
    }
    await expectError(await svc.request("POST", "/signup", { body: { email: 5, password: PASSWORD } }), 400, "bad_json");
    await expectError(await svc.request("POST", "/signup", { body: { email: uniqueEmail("j"), password: PASSWORD, data: [1] } }), 400, "bad_json");
    await expectError(await svc.request("POST", "/token?grant_type=refresh_token", { body: { refresh_token: 1 } }), 400, "bad_json");
    await expectError(await svc.request("PUT", "/user", { token: s.access_token, body: { data: "x" } }), 400, "bad_json");
  });

  it("bodies over 16 KB → 413 request_too_large", async () => {
    const svc = accountService();
    const big = JSON.stringify({ email: uniqueEmail("big"), password: PASSWORD, data: { blob: "x".repeat(17_000) } });
    await expectError(await svc.request("POST", "/signup", { rawBody: big }), 413, "request_too_large");
    // Also without a Content-Length header (streamed body).
    const stream = new Blob([big]).stream();
    const res = await svc.fetch("http://localhost/auth/v1/signup", {
      method: "POST",
      headers: { "CF-Connecting-IP": uniqueIp() },
      body: stream,
    });
    await expectError(res, 413, "request_too_large");
  });

  it("never answers 5xx to odd input", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("odd"));
    const bodies: unknown[] = [
      {},
      { email: null, password: null, data: null },
      { email: "a@b.c", password: "\u0000\u0000\u0000\u0000\u0000\u0000" },
      { email: "é@例子.中国", password: PASSWORD },
      { email: "a@b.c", password: PASSWORD, phone: "+8613800000000" },
      { phone: "+8613800000000", password: PASSWORD },
      { refresh_token: "____________" },
      { data: { ["__proto__"]: { polluted: true } } },
    ];
    const routes: [string, string][] = [
      ["POST", "/signup"],
      ["POST", "/token?grant_type=password"],
      ["POST", "/token?grant_type=refresh_token"],
      ["PUT", "/user"],
      ["POST", "/logout?scope=%00"],
    ];
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const res = await svc.request(method, path, { body, token: s.access_token });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("unknown paths → 404, wrong methods → 405, non-/auth/v1 URLs → 404 from accountServiceFetch", async () => {
    const svc = accountService();
    await expectError(await svc.request("GET", "/nothing"), 404, "not_found");
    await expectError(await svc.request("GET", "/signup"), 405, "method_not_allowed");
    await expectError(await svc.request("DELETE", "/user"), 405, "method_not_allowed");
    await expectError(await svc.fetch("http://localhost/rest/v1/videos"), 404, "not_found");
  });

  it("createAccountService serves the same routes through app.fetch", async () => {
    const app = createAccountService({ db, jwtSecret: JWT_SECRET, issuerBase: "http://localhost", autoConfirm: true });
    const res = await app.fetch(new Request("http://localhost/auth/v1/user", { headers: { Authorization: "Bearer nope" } }));
    await expectError(res, 403, "bad_jwt");
  });
});

// ---- options from env -------------------------------------------------------------------------

describe("accountServiceOptions", () => {
  it("reads DB, AUTH_JWT_SECRET, AUTH_AUTO_CONFIRM (a real boolean) and the session days; issuer is the request origin, links are on SITE_URL", async () => {
    const vars = { ...env, AUTH_JWT_SECRET: "s".repeat(32), AUTH_AUTO_CONFIRM: "0", AUTH_SESSION_INACTIVITY_DAYS: "7", AUTH_SESSION_LIFETIME_DAYS: "14" };
    const o = accountServiceOptions(vars, configOf(vars), "https://site.example/api/auth/x?y=1");
    expect(o).toMatchObject({ jwtSecret: "s".repeat(32), autoConfirm: false, issuerBase: "https://site.example" });
    // Links in e-mails: never the request's host — SITE_URL, or a local request's origin, or none.
    expect(o.linkOrigin).toBeNull();
    expect(accountServiceOptions(vars, configOf({ ...vars, SITE_URL: "https://tv.example.com/" }), "https://site.example/x").linkOrigin).toBe(
      "https://tv.example.com",
    );
    expect(accountServiceOptions(vars, configOf(vars), "http://127.0.0.1:8787/x").linkOrigin).toBe("http://127.0.0.1:8787");
    expect(o.sessionPolicy).toEqual({ inactivityMs: 7 * 86_400_000, lifetimeMs: 14 * 86_400_000 });
    // The account service reads the primary first (a session of the same database: decision 0067).
    expect(o.db).not.toBe(env.DB);
    expect(await o.db.prepare("SELECT count(*) AS n FROM auth_keys").first()).toEqual(await env.DB.prepare("SELECT count(*) AS n FROM auth_keys").first());
    const bare = { ...env, AUTH_JWT_SECRET: undefined, AUTH_AUTO_CONFIRM: undefined };
    const d = accountServiceOptions(bare, configOf(bare), "not a url");
    // No secret: no key from the repository either — the service provisions one in D1.
    expect(d).toMatchObject({ jwtSecret: undefined, autoConfirm: true, issuerBase: "http://localhost" });
  });
});
