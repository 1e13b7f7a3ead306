// Raw-HTTP tests of the embedded account service's signed-in calls (worker/account-service) inside
// workerd: authentication of /user and /logout, POST /logout scopes and PUT /user.
import { describe, expect, it } from "vitest";
import { decodeJwtPayload, signJwt } from "../../worker/account-service/jwt";
import { uniqueEmail, uniqueIp } from "./helpers/unique";
import {
  accountService,
  JWT_SECRET,
  type AccountService,
  PASSWORD,
  windowClock,
  expectError,
  type SessionBody,
  signUp,
  signIn,
  refresh,
} from "./helpers/account-service";

// ---- authenticated calls ------------------------------------------------------------------------

describe("authentication of /user and /logout", () => {
  it("no bearer token → 401 no_authorization", async () => {
    const svc = accountService();
    const variants: Record<string, string>[] = [{}, { Authorization: "Basic abc" }, { Authorization: "Bearer" }];
    for (const headers of variants) {
      await expectError(await svc.request("GET", "/user", { headers }), 401, "no_authorization");
      await expectError(await svc.request("PUT", "/user", { headers, body: {} }), 401, "no_authorization");
      await expectError(await svc.request("POST", "/logout", { headers }), 401, "no_authorization");
    }
  });

  it("bad signature, malformed, alg none or expired token → 403 bad_jwt", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("badjwt"));
    const claims = decodeJwtPayload(s.access_token)!;
    const forged = await signJwt(claims, "some other secret");
    const [, payload] = s.access_token.split(".");
    const none = `${btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "")}.${payload}.`;
    const tampered = s.access_token.slice(0, -2) + (s.access_token.endsWith("AA") ? "BB" : "AA");
    for (const token of [forged, none, tampered, "anon-key", "a.b.c", `${s.access_token}x`]) {
      await expectError(await svc.request("GET", "/user", { token }), 403, "bad_jwt", /^invalid JWT: /);
    }
    const noSub = await signJwt({ ...claims, sub: undefined }, JWT_SECRET);
    await expectError(await svc.request("GET", "/user", { token: noSub }), 403, "bad_jwt");
    // Still valid shortly before expiry, expired after (10 s of margin: real time also passes under load).
    svc.advance(3_590_000);
    expect((await svc.request("GET", "/user", { token: s.access_token })).status).toBe(200);
    svc.advance(20_000);
    await expectError(await svc.request("GET", "/user", { token: s.access_token }), 403, "bad_jwt", /token is expired/);
  });

  it("a well-signed token with another audience or issuer (or none) → 403 bad_jwt", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("audiss"));
    const claims = decodeJwtPayload(s.access_token)!;
    const variants = [
      { ...claims, aud: "service_role" },
      { ...claims, aud: undefined },
      { ...claims, iss: "https://evil.example/auth/v1" },
      { ...claims, iss: undefined },
    ];
    for (const payload of variants) {
      await expectError(await svc.request("GET", "/user", { token: await signJwt(payload, JWT_SECRET) }), 403, "bad_jwt", /^invalid JWT: /);
    }
    // The same token is refused by the service of another origin with the same key.
    const other = accountService({ issuerBase: "https://other.example" });
    await expectError(await other.request("GET", "/user", { token: s.access_token }), 403, "bad_jwt");
    expect((await svc.request("GET", "/user", { token: await signJwt(claims, JWT_SECRET) })).status).toBe(200);
  });

  it("session gone → 403 session_not_found", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("gone"));
    const res = await svc.request("POST", "/logout", { token: s.access_token });
    expect(res.status).toBe(204);
    await expectError(
      await svc.request("GET", "/user", { token: s.access_token }),
      403,
      "session_not_found",
      "Session from session_id claim in JWT does not exist",
    );
    await expectError(await svc.request("PUT", "/user", { token: s.access_token, body: { data: { a: 1 } } }), 403, "session_not_found");
    await expectError(await svc.request("POST", "/logout", { token: s.access_token }), 403, "session_not_found");
    // A well-signed token naming a session that never existed.
    const ghost = await signJwt({ ...decodeJwtPayload(s.access_token)!, session_id: crypto.randomUUID() }, JWT_SECRET);
    await expectError(await svc.request("GET", "/user", { token: ghost }), 403, "session_not_found");
  });

  it("GET /user → 200 with the bare user object", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("get"));
    const res = await svc.request("GET", "/user", { token: s.access_token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(s.user);
  });
});

describe("POST /logout", () => {
  async function threeSessions(svc: AccountService) {
    const email = uniqueEmail("scope");
    const a = await signUp(svc, email);
    const b = await signIn(svc, email);
    const c = await signIn(svc, email);
    return [a, b, c];
  }
  const userStatus = async (svc: AccountService, s: SessionBody) => (await svc.request("GET", "/user", { token: s.access_token })).status;

  it("204 with an empty body; scope=others keeps only this session", async () => {
    const svc = accountService();
    const [a, b, c] = await threeSessions(svc);
    const res = await svc.request("POST", "/logout?scope=others", { token: a.access_token });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await userStatus(svc, a)).toBe(200);
    expect(await userStatus(svc, b)).toBe(403);
    expect(await userStatus(svc, c)).toBe(403);
    await expectError(await refresh(svc, b.refresh_token), 400, "refresh_token_not_found");
    expect((await refresh(svc, a.refresh_token)).status).toBe(200);
  });

  it("scope=local ends only this session", async () => {
    const svc = accountService();
    const [a, b, c] = await threeSessions(svc);
    expect((await svc.request("POST", "/logout?scope=local", { token: b.access_token })).status).toBe(204);
    expect(await userStatus(svc, a)).toBe(200);
    expect(await userStatus(svc, b)).toBe(403);
    expect(await userStatus(svc, c)).toBe(200);
  });

  it("scope=global (and no scope) ends every session of the user", async () => {
    const svc = accountService();
    for (const q of ["?scope=global", ""]) {
      const sessions = await threeSessions(svc);
      expect((await svc.request("POST", `/logout${q}`, { token: sessions[1].access_token })).status).toBe(204);
      for (const s of sessions) expect(await userStatus(svc, s)).toBe(403);
      for (const s of sessions) await expectError(await refresh(svc, s.refresh_token), 400, "refresh_token_not_found");
    }
  });

  it("unknown scope → 400 validation_failed, nothing ended", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("badscope"));
    await expectError(
      await svc.request("POST", "/logout?scope=everyone", { token: s.access_token }),
      400,
      "validation_failed",
      'Unsupported logout scope "everyone"',
    );
    expect(await userStatus(svc, s)).toBe(200);
  });
});

// ---- PUT /user -------------------------------------------------------------------------------

describe("PUT /user", () => {
  it("merges data key by key; null deletes a key", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("meta"), PASSWORD, { a: 1, b: { x: 1 } });
    const put = async (data: unknown) => {
      const res = await svc.request("PUT", "/user", { token: s.access_token, body: { data } });
      expect(res.status).toBe(200);
      return (await res.json<{ user_metadata: Record<string, unknown> }>()).user_metadata;
    };
    expect(await put({ b: { y: 2 }, c: "三" })).toMatchObject({ a: 1, b: { y: 2 }, c: "三", sub: s.user.id });
    const meta = await put({ a: null, missing: null });
    expect(meta).not.toHaveProperty("a");
    expect(meta).toMatchObject({ b: { y: 2 }, c: "三", email: s.user.email });
    const fresh = await (await svc.request("GET", "/user", { token: s.access_token })).json<{ user_metadata: unknown }>();
    expect(fresh.user_metadata).toEqual(meta);
  });

  it("password: too short → 422 weak_password, too long → 400, same → 422 same_password", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("pw"));
    const put = (body: unknown) => svc.request("PUT", "/user", { token: s.access_token, body });
    const weak = await expectError(await put({ password: "short" }), 422, "weak_password", "Password should be at least 6 characters.");
    expect(weak.weak_password).toEqual({ reasons: ["length"] });
    await expectError(await put({ password: "" }), 422, "weak_password");
    await expectError(await put({ password: "x".repeat(73) }), 400, "validation_failed", "Password cannot be longer than 72 characters");
    await expectError(await put({ password: PASSWORD }), 422, "same_password", "New password should be different from the old password.");
  });

  it("password change: new password works, old does not, other sessions end, this one stays", async () => {
    const svc = accountService();
    const email = uniqueEmail("pwchange");
    const a = await signUp(svc, email);
    const b = await signIn(svc, email);
    const res = await svc.request("PUT", "/user", { token: a.access_token, body: { password: "brand new password" } });
    expect(res.status).toBe(200);
    expect((await svc.request("GET", "/user", { token: a.access_token })).status).toBe(200);
    expect((await svc.request("GET", "/user", { token: b.access_token })).status).toBe(403);
    await signIn(svc, email, "brand new password");
    await expectError(await svc.request("POST", "/token?grant_type=password", { body: { email, password: PASSWORD } }), 400, "invalid_credentials");
  });

  it("e-mail change needs confirmation: the account keeps its address and shows new_email; bad or taken addresses are refused", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("mail"));
    const other = await signUp(svc, uniqueEmail("taken"));
    const newEmail = uniqueEmail("new");
    const changed = await svc.request("PUT", "/user", { token: s.access_token, body: { email: newEmail } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ email: s.user.email, new_email: newEmail });
    await expectError(await svc.request("PUT", "/user", { token: s.access_token, body: { email: other.user.email } }), 422, "email_exists");
    await expectError(await svc.request("PUT", "/user", { token: s.access_token, body: { email: "bad" } }), 400, "validation_failed");
    const same = await svc.request("PUT", "/user", { token: s.access_token, body: { email: s.user.email.toUpperCase(), data: { k: 1 } } });
    expect(same.status).toBe(200);
  });

  it("answers 429 after 30 updates per user in 5 minutes; another user at the same address is not affected", async () => {
    const svc = accountService({ now: windowClock() });
    const s = await signUp(svc, uniqueEmail("putrl"));
    const other = await signUp(svc, uniqueEmail("putrl2"));
    const ip = uniqueIp();
    for (let i = 0; i < 30; i++) {
      const res = await svc.request("PUT", "/user", { token: s.access_token, body: { data: { i } } });
      expect(res.status).toBe(200);
    }
    await expectError(await svc.request("PUT", "/user", { ip, token: s.access_token, body: { data: { i: 31 } } }), 429, "over_request_rate_limit");
    expect((await svc.request("PUT", "/user", { ip, token: other.access_token, body: { data: { i: 31 } } })).status).toBe(200);
  });
});
