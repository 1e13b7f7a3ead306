// Password reset (忘记密码) and e-mail confirmation (AUTH_AUTO_CONFIRM=false) through the whole
// worker inside workerd, with the development mailbox: the links, their expiry, and e-mail change.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { absorb, call, LOCAL, linkIn, mailTo, PASSWORD, signUp, uniqueEmail, userOf } from "./helpers/visitor";

describe("password reset", () => {
  it("忘记密码: the same answer for known and unknown addresses; the link sets a new password once and signs in", async () => {
    const { email, jar: oldDevice } = await signUp("reset", { base: LOCAL });
    const unknown = uniqueEmail("nobody");
    const known = await call("POST", "/api/auth/recover", { base: LOCAL, json: { email } });
    const stranger = await call("POST", "/api/auth/recover", { base: LOCAL, json: { email: unknown } });
    expect(known.status).toBe(200);
    expect(await known.text()).toBe(await stranger.text());
    expect(await mailTo(unknown)).toEqual([]);
    const [mail] = await mailTo(email);
    expect(mail.subject).toContain("重设密码");
    const link = linkIn(mail);
    expect(link.pathname).toBe("/auth/reset");
    const tokenHash = link.searchParams.get("token_hash")!;
    // Only the hash is stored.
    const stored = await env.DB.prepare("SELECT token_hash FROM one_time_tokens WHERE relates_to = ?1").bind(email).first<{ token_hash: string }>();
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.token_hash).not.toBe(tokenHash);

    const page = await call("GET", `${link.pathname}${link.search}`, { base: LOCAL });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("设置新密码");

    const mismatch = await call("POST", "/api/auth/reset", { base: LOCAL, json: { token_hash: tokenHash, password: "new-pass-3", confirmPassword: "other" } });
    expect(mismatch.status).toBe(400);
    const reset = await call("POST", "/api/auth/reset", {
      base: LOCAL,
      json: { token_hash: tokenHash, password: "new-pass-3", confirmPassword: "new-pass-3" },
    });
    expect(reset.status).toBe(200);
    const signedIn = absorb(new Map(), reset);
    expect((await userOf(signedIn, { base: LOCAL })).email).toBe(email);
    // The old device is signed out (a new password ends the other sessions); the old password is gone.
    expect((await userOf(oldDevice, { base: LOCAL })).email).toBeNull();
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: PASSWORD } })).status).toBe(400);

    const again = await call("POST", "/api/auth/reset", {
      base: LOCAL,
      json: { token_hash: tokenHash, password: "new-pass-4", confirmPassword: "new-pass-4" },
    });
    expect(again.status).toBe(400);
    expect((await again.json<{ error: { message: string } }>()).error.message).toBe("链接已失效或已被使用，请重新发送邮件");
  });

  it("a link older than an hour no longer works", async () => {
    const { email } = await signUp("reset-old", { base: LOCAL });
    await call("POST", "/api/auth/recover", { base: LOCAL, json: { email } });
    const tokenHash = linkIn((await mailTo(email))[0]).searchParams.get("token_hash")!;
    await env.DB.prepare("UPDATE one_time_tokens SET created_at = created_at - 3600001 WHERE relates_to = ?1").bind(email).run();
    const res = await call("POST", "/api/auth/reset", { base: LOCAL, json: { token_hash: tokenHash, password: "new-pass-5", confirmPassword: "new-pass-5" } });
    expect(res.status).toBe(400);
  });
});

describe("e-mail confirmation (AUTH_AUTO_CONFIRM=false)", () => {
  const CONFIRM = { AUTH_AUTO_CONFIRM: "false" };

  it("sign-up sends a link; following it confirms and signs in; an existing address gets the same answer and a notice", async () => {
    const email = uniqueEmail("confirm");
    const body = { email, password: PASSWORD, confirmPassword: PASSWORD };
    const first = await call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, json: body });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ user: null, library: null, confirmationRequired: true });
    expect(first.headers.getSetCookie()).toEqual([]);
    const blocked = await call("POST", "/api/auth/sign-in", { base: LOCAL, env: CONFIRM, json: { email, password: PASSWORD } });
    expect(blocked.status).toBe(400);

    const link = linkIn((await mailTo(email))[0]);
    expect(link.pathname).toBe("/auth/confirm");
    // Opening the link signs nobody in; the page's button (a POST) does.
    const opened = await call("GET", `${link.pathname}${link.search}`, { base: LOCAL, env: CONFIRM });
    expect(opened.status).toBe(200);
    expect(opened.headers.getSetCookie()).toEqual([]);
    const form = { token_hash: link.searchParams.get("token_hash")!, type: "signup" };
    const verified = await call("POST", "/api/auth/verify", { base: LOCAL, env: CONFIRM, form });
    expect(verified.status).toBe(303);
    expect(verified.headers.get("Location")).toBe("/");
    expect((await userOf(absorb(new Map(), verified), { base: LOCAL })).email).toBe(email);
    const reused = await call("POST", "/api/auth/verify", { base: LOCAL, env: CONFIRM, form });
    expect(reused.headers.get("Location")).toBe("/auth/confirm?type=signup&error=otp_expired");

    // Signing up again with the confirmed address: the same answer as a new one; the owner is told by mail.
    const again = await call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, json: body });
    const fresh = await call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, json: { ...body, email: uniqueEmail("fresh") } });
    expect(again.status).toBe(fresh.status);
    expect(await again.text()).toBe(await fresh.text());
    const mails = await mailTo(email);
    expect(mails[0].subject).toContain("有人尝试用您的邮箱注册");
  });

  it("e-mail change needs the link sent to the new address", async () => {
    const { email, jar } = await signUp("change", { base: LOCAL });
    const newEmail = uniqueEmail("changed");
    const res = await call("PUT", "/api/auth/email", { base: LOCAL, jar, json: { email: newEmail } });
    expect(res.status).toBe(200);
    expect((await userOf(jar, { base: LOCAL })).email).toBe(email);
    expect((await mailTo(email))[0].subject).toContain("邮箱变更申请");
    const link = linkIn((await mailTo(newEmail))[0]);
    const opened = await call("GET", `${link.pathname}${link.search}`, { base: LOCAL, jar });
    expect(opened.headers.getSetCookie()).toEqual([]);
    expect((await userOf(jar, { base: LOCAL })).email).toBe(email);
    // Confirmed from the same account's browser: it stays signed in, now under the new address.
    const form = { token_hash: link.searchParams.get("token_hash")!, type: "email_change" };
    const used = await call("POST", "/api/auth/verify", { base: LOCAL, jar, form });
    expect(used.headers.get("Location")).toBe("/profile?notice=email-changed");
    expect((await userOf(absorb(jar, used), { base: LOCAL })).email).toBe(newEmail);
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email: newEmail, password: PASSWORD } })).status).toBe(200);
  });
});
