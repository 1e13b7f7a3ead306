// The worker's session cookie (/api/auth/*, inside workerd): its attributes, no token in pages or
// bodies, GET /api/auth/user and the signed-in pages, redirects between /auth and /profile.
import { describe, expect, it } from "vitest";
import { call, decodeSession, signUp } from "./helpers/visitor";
import { type SignedInBody, json, signIn, expectSessionCookies } from "./helpers/auth-api";

// ---- cookies and tokens --------------------------------------------------------------------

describe("session cookie", () => {
  it("sign-up and sign-in set an HttpOnly, Secure, SameSite=Lax cookie on Path=/, privately, with no token in the body", async () => {
    const { email, jar, res } = await signUp("cookie");
    expectSessionCookies(res);
    const upBody = await res.text();
    const session = decodeSession(jar);
    expect(session.user.email).toBe(email);
    for (const secret of ["access_token", "refresh_token", session.access_token, session.refresh_token]) expect(upBody).not.toContain(secret);
    expect(JSON.parse(upBody)).toMatchObject({ user: { email }, confirmationRequired: false });

    const signedIn = await signIn(email);
    expect(signedIn.res.status).toBe(200);
    expectSessionCookies(signedIn.res);
    const inBody = await signedIn.res.text();
    const inSession = decodeSession(signedIn.jar);
    for (const secret of ["access_token", "refresh_token", inSession.access_token, inSession.refresh_token]) expect(inBody).not.toContain(secret);
    expect(JSON.parse(inBody)).toMatchObject({ user: { email }, library: { favourites: [], history: [] } });

    // Neither GET /user, PUT /user nor sign-out leaks a token either.
    const user = await call("GET", "/api/auth/user", { jar: signedIn.jar });
    const put = await call("PUT", "/api/auth/user", { jar: signedIn.jar, json: { data: { library: { favourites: [], history: [] } } } });
    const out = await call("POST", "/api/auth/sign-out", { jar: signedIn.jar, json: {} });
    for (const r of [user, put, out]) {
      const text = await r.text();
      for (const secret of ["access_token", "refresh_token", inSession.access_token, inSession.refresh_token]) expect(text).not.toContain(secret);
    }
  });

  it("the signed-in page's HTML carries no token", async () => {
    const { jar } = await signUp("html");
    const session = decodeSession(jar);
    const html = await (await call("GET", "/", { jar })).text();
    expect(html).not.toContain(session.access_token);
    expect(html).not.toContain(session.refresh_token);
  });
});

describe("GET /api/auth/user and signed-in pages", () => {
  it("is null when signed out", async () => {
    const res = await call("GET", "/api/auth/user");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ user: null, library: null });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("is the user when the sign-in cookie comes back", async () => {
    const { email } = await signUp("who");
    const { jar } = await signIn(email);
    const res = await call("GET", "/api/auth/user", { jar });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await json<SignedInBody>(res);
    expect(body.user.email).toBe(email);
    expect(typeof body.user.id).toBe("string");
    expect(Number.isNaN(Date.parse(body.user.createdAt))).toBe(false);
    expect(body.library).toEqual({ favourites: [], history: [] });
    expect(res.headers.get("X-Auth-Event")).toBeNull();
  });

  it("signed-in pages show 个人中心 and 退出登录 and are private; signed-out pages show 登录/注册", async () => {
    const { email, jar } = await signUp("page");
    for (const path of ["/", "/category/all", "/video/video_001"]) {
      const res = await call("GET", path, { jar });
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      const html = await res.text();
      expect(html).toContain('href="/profile"');
      expect(html).toContain("个人中心");
      expect(html).toContain("退出登录");
      expect(html).not.toContain("登录/注册");
      expect(html).toContain(email);
    }
    const anon = await call("GET", "/");
    expect(anon.status).toBe(200);
    expect(anon.headers.get("Cache-Control")).not.toContain("private");
    const html = await anon.text();
    expect(html).toContain("登录/注册");
    expect(html).not.toContain("退出登录");
    expect(html).not.toContain('href="/profile"');
  });

  it("/profile without a session redirects to /auth; /auth with a session redirects to /profile", async () => {
    const noSession = await call("GET", "/profile");
    expect(noSession.status).toBe(302);
    expect(noSession.headers.get("Location")).toBe("/auth?next=/profile");
    expect(noSession.headers.get("Cache-Control")).toBe("private, no-store");

    const { email, jar } = await signUp("guard");
    const auth = await call("GET", "/auth", { jar });
    expect(auth.status).toBe(302);
    expect(auth.headers.get("Location")).toBe("/profile");
    expect(auth.headers.get("Cache-Control")).toBe("private, no-store");

    const profile = await call("GET", "/profile", { jar });
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toContain(email);
    for (const text of ["注册时间", "使用天数", "正常", "我的收藏", "观看记录"]) expect(html).toContain(text);

    const anonAuth = await call("GET", "/auth");
    expect(anonAuth.status).toBe(200);
  });
});
