// The worker in front of its account service (inside workerd): an unreachable service (503 for
// sign-in, browsing and the cookie unharmed) and the EXPOSE_ACCOUNT_API switch for /auth/v1/*.
import { describe, expect, it } from "vitest";
import { uniqueEmail } from "./helpers/unique";
import { PASSWORD, call, setCookies, isCleared, signUp } from "./helpers/visitor";
import { type UserBody, type ErrorBody, type ServiceSessionBody, json } from "./helpers/auth-api";

// ---- account service unreachable -----------------------------------------------------------

describe("account service unreachable", () => {
  const DOWN: Partial<Env> = { SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "x" };

  it("sign-in answers 503; browsing still works; a signed-in cookie is kept", async () => {
    // (How many calls the worker makes to a service that is down: tests/worker/account-service-faults.test.ts.)
    const res = await call("POST", "/api/auth/sign-in", { json: { email: uniqueEmail("down"), password: PASSWORD }, env: DOWN });
    expect(res.status).toBe(503);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe("service_unavailable");
    expect(["操作失败，请重试", "账号服务暂时不可用，请稍后重试"]).toContain(body.error.message);

    const signUpDown = await call("POST", "/api/auth/sign-up", {
      json: { email: uniqueEmail("down"), password: PASSWORD, confirmPassword: PASSWORD },
      env: DOWN,
    });
    expect(signUpDown.status).toBe(503);

    const home = await call("GET", "/", { env: DOWN });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("登录/注册");

    // A session made while the service was up: a transient failure must not sign it out.
    const { jar } = await signUp("down-keep");
    const user = await call("GET", "/api/auth/user", { jar, env: DOWN });
    expect(user.status).toBe(503);
    expect((await json<ErrorBody>(user)).error.code).toBe("service_unavailable");
    expect(setCookies(user).filter(isCleared)).toEqual([]);
    expect(user.headers.getSetCookie()).toEqual([]);

    const page = await call("GET", "/", { jar, env: DOWN });
    expect(page.status).toBe(200);
    expect(setCookies(page).filter(isCleared)).toEqual([]);

    // The service is back: the same cookie is still a session.
    const back = await call("GET", "/api/auth/user", { jar });
    expect((await json<UserBody>(back)).user).not.toBeNull();
  });
});

// ---- EXPOSE_ACCOUNT_API --------------------------------------------------------------------

describe("EXPOSE_ACCOUNT_API", () => {
  it("off by default: /auth/v1/* is not served", async () => {
    const get = await call("GET", "/auth/v1/settings");
    expect(get.status).toBe(404);
    expect(get.headers.get("Content-Type")).toContain("text/html");
    const post = await call("POST", "/auth/v1/signup", { json: { email: uniqueEmail("exposed"), password: PASSWORD }, headers: { apikey: "x" } });
    expect([404, 405]).toContain(post.status);
    expect(await post.text()).not.toContain("access_token");
  });

  it("set: the embedded service answers on /auth/v1/*", async () => {
    const email = uniqueEmail("exposed");
    const res = await call("POST", "/auth/v1/signup", { json: { email, password: PASSWORD }, headers: { apikey: "x" }, env: { EXPOSE_ACCOUNT_API: "1" } });
    expect(res.status).toBe(200);
    const body = await json<ServiceSessionBody>(res);
    expect(body.user.email).toBe(email);
    expect(typeof body.access_token).toBe("string");

    // Never when a real project is configured.
    const real = await call("GET", "/auth/v1/settings", { env: { EXPOSE_ACCOUNT_API: "1", SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "x" } });
    expect(real.status).toBe(404);
  });
});
