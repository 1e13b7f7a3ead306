// The sign-up and sign-in answers a visitor reads (inside workerd): the validation messages, and the
// no-JavaScript form path (303 with the cookie, or back to the form with the message).
import { describe, expect, it } from "vitest";
import { uniqueEmail } from "./helpers/unique";
import { COOKIE, PASSWORD, call, absorb, signUp } from "./helpers/visitor";
import { type UserBody, type ErrorBody, json, expectSessionCookies, authErrorBox, expectCleared } from "./helpers/auth-api";

// ---- validation messages -------------------------------------------------------------------

describe("sign-up and sign-in messages", () => {
  it("mismatch, short password, existing e-mail and wrong password", async () => {
    const mismatch = await call("POST", "/api/auth/sign-up", { json: { email: uniqueEmail("v"), password: "abcdef", confirmPassword: "abcdeg" } });
    expect(mismatch.status).toBe(400);
    expect((await json<ErrorBody>(mismatch)).error.message).toBe("密码确认不匹配");

    const short = await call("POST", "/api/auth/sign-up", { json: { email: uniqueEmail("v"), password: "abc", confirmPassword: "abc" } });
    expect(short.status).toBe(400);
    expect((await json<ErrorBody>(short)).error.message).toBe("密码长度至少6位");

    const { email } = await signUp("exists");
    const again = await call("POST", "/api/auth/sign-up", { json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(again.status).toBe(400);
    expect((await json<ErrorBody>(again)).error.message).toContain("该邮箱已注册");
    expect(again.headers.getSetCookie()).toEqual([]);

    const wrong = await call("POST", "/api/auth/sign-in", { json: { email, password: "not-the-password" } });
    expect(wrong.status).toBe(400);
    const body = await json<ErrorBody>(wrong);
    expect(body.error).toEqual({ code: "invalid_credentials", message: "邮箱或密码错误" });
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const unknown = await call("POST", "/api/auth/sign-in", { json: { email: uniqueEmail("nobody"), password: PASSWORD } });
    expect(unknown.status).toBe(400);
    expect((await json<ErrorBody>(unknown)).error.message).toBe("邮箱或密码错误");

    const missing = await call("POST", "/api/auth/sign-in", { json: { email: "", password: "" } });
    expect(missing.status).toBe(400);
  });
});

// ---- no-JavaScript forms -------------------------------------------------------------------

describe("the no-JavaScript form path", () => {
  const page = { Accept: "text/html,application/xhtml+xml" };

  it("sign-up and sign-in forms answer 303 to / with the cookie; a wrong password goes back with the message", async () => {
    const email = uniqueEmail("form");
    const up = await call("POST", "/api/auth/sign-up", { headers: page, form: { email, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(up.status).toBe(303);
    expect(up.headers.get("Location")).toBe("/");
    expectSessionCookies(up);

    const signIn = await call("POST", "/api/auth/sign-in", { headers: page, form: { email, password: PASSWORD } });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("Location")).toBe("/");
    expectSessionCookies(signIn);
    const jar = absorb(new Map(), signIn);
    const home = await call("GET", "/", { jar });
    expect(await home.text()).toContain("退出登录");

    const wrong = await call("POST", "/api/auth/sign-in", { headers: page, form: { email, password: "wrong-password" } });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("Location")).toBe("/auth?mode=signin&error=invalid_credentials");
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const back = await call("GET", "/auth?mode=signin&error=invalid_credentials");
    expect(back.status).toBe(200);
    expect(authErrorBox(await back.text())).toBe("邮箱或密码错误");

    const out = await call("POST", "/api/auth/sign-out", { jar, headers: page, form: {} });
    expect(out.status).toBe(303);
    expect(out.headers.get("Location")).toBe("/");
    expectCleared(out, [COOKIE]);
    const after = await call("GET", "/api/auth/user", { jar });
    expect((await json<UserBody>(after)).user).toBeNull();
  });

  it("form sign-up errors go back to the sign-up form with the message", async () => {
    const mismatch = await call("POST", "/api/auth/sign-up", {
      headers: page,
      form: { email: uniqueEmail("formv"), password: "abcdef", confirmPassword: "abcxyz" },
    });
    expect(mismatch.status).toBe(303);
    expect(mismatch.headers.get("Location")).toBe("/auth?mode=signup&error=password_mismatch");
    expect(authErrorBox(await (await call("GET", mismatch.headers.get("Location")!)).text())).toBe("密码确认不匹配");

    const short = await call("POST", "/api/auth/sign-up", { headers: page, form: { email: uniqueEmail("formv"), password: "abc", confirmPassword: "abc" } });
    expect(short.headers.get("Location")).toBe("/auth?mode=signup&error=weak_password");
    expect(authErrorBox(await (await call("GET", short.headers.get("Location")!)).text())).toBe("密码长度至少6位");

    const noConfirm = await call("POST", "/api/auth/sign-up", { headers: page, form: { email: uniqueEmail("formv"), password: PASSWORD } });
    expect(noConfirm.headers.get("Location")).toBe("/auth?mode=signup&error=password_mismatch");

    const unknownCode = await call("GET", "/auth?mode=signin&error=whatever");
    expect(authErrorBox(await unknownCode.text())).toBe("操作失败，请重试");
  });
});
