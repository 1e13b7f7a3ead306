// The worker's session cookie when it breaks or expires (inside workerd): a broken cookie means
// signed out with cookies cleared, never a 500; an expired access token is refreshed by the worker.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { uniqueIp } from "./helpers/unique";
import { COOKIE, call, setCookies, isCleared, absorb, cookieHeader, sessionValue, toBase64Url, decodeSession, signUp } from "./helpers/visitor";
import { jarWith, expiredCopy, type UserBody, type SignedInBody, json, expectSessionCookies, expectCleared } from "./helpers/auth-api";

// ---- broken cookies ------------------------------------------------------------------------

describe("a broken session cookie means signed out, cookies cleared, never a 500", () => {
  /** Every way of asking who is signed in with this cookie: the API, a page, /profile. */
  async function expectSignedOut(cookie: string, names: string[]) {
    const user = await call("GET", "/api/auth/user", { cookie });
    expect(user.status).toBe(200);
    expect(await json(user)).toEqual({ user: null, library: null });
    expectCleared(user, names);

    const page = await call("GET", "/", { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("登录/注册");
    expectCleared(page, names);

    const profile = await call("GET", "/profile", { cookie });
    expect(profile.status).toBe(302);
    expect(profile.headers.get("Location")).toBe("/auth?next=/profile");
    expectCleared(profile, names);

    const put = await call("PUT", "/api/auth/user", { cookie, json: { data: { library: { favourites: [], history: [] } } } });
    expect(put.status).toBe(401);
    expectCleared(put, names);
  }

  it("a tampered access token (signature changed)", async () => {
    const { jar } = await signUp("tamper");
    const session = decodeSession(jar);
    const token = session.access_token;
    const last = token.at(-2) === "A" ? "B" : "A";
    const forged = jarWith({ ...session, access_token: token.slice(0, -2) + last + token.at(-1) });
    await expectSignedOut(cookieHeader(forged), [COOKIE]);
  });

  it("characters flipped in the raw cookie value", async () => {
    const { jar } = await signUp("flip");
    const value = sessionValue(jar);
    for (const at of [10, 30, Math.floor(value.length / 2)]) {
      const flipped = value.slice(0, at) + (value[at] === "x" ? "y" : "x") + value.slice(at + 1);
      const user = await call("GET", "/api/auth/user", { cookie: `${COOKIE}=${flipped}` });
      expect(user.status).toBeLessThan(500);
      const body = await json<UserBody>(user);
      if (body.user === null) expectCleared(user, [COOKIE]);
      else throw new Error(`a cookie flipped at ${at} was still accepted`);
    }
  });

  it("a truncated cookie", async () => {
    const { jar } = await signUp("trunc");
    const value = sessionValue(jar);
    await expectSignedOut(`${COOKIE}=${value.slice(0, Math.floor(value.length / 2))}`, [COOKIE]);
  });

  it("garbage base64, plain garbage and an empty value", async () => {
    await expectSignedOut(`${COOKIE}=base64-!!!%%%***not-base64***`, [COOKIE]);
    await expectSignedOut(`${COOKIE}=base64-${toBase64Url("{not json")}`, [COOKIE]);
    await expectSignedOut(`${COOKIE}=${encodeURIComponent('{"hello":"world"}')}`, [COOKIE]);
    await expectSignedOut(`${COOKIE}.0=base64-AAAA; ${COOKIE}.1=zzzz`, [`${COOKIE}.0`, `${COOKIE}.1`]);
  });

  it("an expired access token whose refresh token was revoked (signed out elsewhere)", async () => {
    const { jar } = await signUp("revoked");
    const expired = expiredCopy(jar);
    const out = await call("POST", "/api/auth/sign-out", { jar, json: {} });
    expect(out.status).toBe(200);
    expectCleared(out, [COOKIE]);
    await expectSignedOut(cookieHeader(expired), [COOKIE]);
  });

  it("an expired access token whose refresh token was rotated away long ago (reuse → the whole session ends)", async () => {
    const { jar } = await signUp("reused");
    const original = decodeSession(jar);
    // Two refreshes: the original token is now a revoked grandparent of the active one.
    const first = await call("GET", "/api/auth/user", { jar: expiredCopy(jar) });
    expect(first.headers.get("X-Auth-Event")).toBe("TOKEN_REFRESHED");
    const second = await call("GET", "/api/auth/user", { jar: expiredCopy(absorb(new Map(), first)) });
    expect(second.headers.get("X-Auth-Event")).toBe("TOKEN_REFRESHED");
    const latest = absorb(new Map(), second);
    // Revoked a minute ago: outside the 10 s reuse window.
    await env.DB.prepare("UPDATE refresh_tokens SET updated_at = ?2 WHERE token = ?1")
      .bind(original.refresh_token, new Date(Date.now() - 60_000).toISOString())
      .run();
    await expectSignedOut(cookieHeader(expiredCopy(jar)), [COOKIE]);
    // Reuse ended the session: the newest cookie no longer works either.
    const after = await call("GET", "/api/auth/user", { jar: expiredCopy(latest) });
    expect((await json<UserBody>(after)).user).toBeNull();
    expectCleared(after, [COOKIE]);
  });
});

// ---- expiry and refresh --------------------------------------------------------------------

describe("an expired access token is refreshed by the worker", () => {
  it("GET /api/auth/user returns the user, new cookies and X-Auth-Event: TOKEN_REFRESHED", async () => {
    const { email, jar } = await signUp("refresh");
    const before = decodeSession(jar);
    const expired = expiredCopy(jar);
    const res = await call("GET", "/api/auth/user", { jar: expired });
    expect(res.status).toBe(200);
    expect((await json<SignedInBody>(res)).user.email).toBe(email);
    expect(res.headers.get("X-Auth-Event")).toBe("TOKEN_REFRESHED");
    expectSessionCookies(res);
    const refreshed = decodeSession(absorb(new Map(), res));
    expect(refreshed.refresh_token).not.toBe(before.refresh_token);
    expect(refreshed.expires_at).toBeGreaterThan(Date.now() / 1000 + 60);
    expect(refreshed.user.email).toBe(email);

    // The new session works without another refresh.
    const again = await call("GET", "/api/auth/user", { jar: jarWith(refreshed) });
    expect(again.status).toBe(200);
    expect((await json<SignedInBody>(again)).user.email).toBe(email);
    expect(again.headers.get("X-Auth-Event")).toBeNull();
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it("a page request with an expired token renders signed in and refreshes the cookie", async () => {
    const { jar } = await signUp("refresh-page");
    const res = await call("GET", "/", { jar: expiredCopy(jar) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("退出登录");
    expectSessionCookies(res);
  });

  it("10 concurrent requests with the same expiring session all get the user", async () => {
    const { email, jar } = await signUp("concurrent");
    const expired = expiredCopy(jar);
    const ip = uniqueIp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => call("GET", "/api/auth/user", { jar: expired, ip })));
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect((await json<UserBody>(res)).user?.email).toBe(email);
      expect(setCookies(res).filter(isCleared)).toEqual([]);
    }
  });
});
