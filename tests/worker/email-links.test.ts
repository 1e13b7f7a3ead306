// E-mail links never change who is signed in by themselves, sign-up answers alike for known and
// new addresses with confirmation on, and links in mails never come from the request's Host.
import { describe, expect, it, vi } from "vitest";
import { absorb, call, linkIn, LOCAL, mailTo, PASSWORD, setCookies, signUp, uniqueEmail, userOf, type Jar } from "./helpers/visitor";

const CONFIRM = { AUTH_AUTO_CONFIRM: "false" };

/** A signed-in account that asked to change its address: the link sent to the new one. */
async function emailChangeLink(tag: string): Promise<{ email: string; newEmail: string; jar: Jar; link: URL }> {
  const { email, jar } = await signUp(tag, { base: LOCAL });
  const newEmail = uniqueEmail(`${tag}-new`);
  expect((await call("PUT", "/api/auth/email", { base: LOCAL, jar, json: { email: newEmail } })).status).toBe(200);
  return { email, newEmail, jar, link: linkIn((await mailTo(newEmail))[0]) };
}

const formOf = (link: URL) => ({ token_hash: link.searchParams.get("token_hash")!, type: link.searchParams.get("type")! });

describe("an e-mail link changes who is signed in only through the visitor's own POST", () => {
  it("the mail links to the confirmation page; opening it (or the old GET /verify) sets no cookie and uses nothing", async () => {
    const attacker = await emailChangeLink("attacker");
    expect(attacker.link.pathname).toBe("/auth/confirm");
    expect(attacker.link.searchParams.get("type")).toBe("email_change");
    const victim = await signUp("victim", { base: LOCAL });

    const old = await call("GET", `/api/auth/verify${attacker.link.search}`, { base: LOCAL, jar: victim.jar });
    expect(old.status).toBe(303);
    expect(old.headers.get("Location")).toBe(`/auth/confirm${attacker.link.search}`);
    expect(old.headers.getSetCookie()).toEqual([]);

    const page = await call("GET", `${attacker.link.pathname}${attacker.link.search}`, { base: LOCAL, jar: victim.jar });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await page.text();
    expect(html).toContain('action="/api/auth/verify"');
    expect(html).toContain('method="post"');
    expect(html).toContain(`您当前已登录为 ${victim.email}`);

    // Nothing was used: the victim is still the victim, the attacker's change is still pending.
    expect((await userOf(victim.jar, { base: LOCAL })).email).toBe(victim.email);
    expect((await userOf(attacker.jar, { base: LOCAL })).email).toBe(attacker.email);
  });

  it("the anonymous confirmation page is not stored by any cache and works as a plain form", async () => {
    const { link } = await emailChangeLink("anon-page");
    const page = await call("GET", `${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("X-Cache")).toBeNull();
    const html = await page.text();
    expect(html).toContain("确认新邮箱");
    expect(html).toContain(`name="token_hash" value="${link.searchParams.get("token_hash")}"`);
    expect((await call("GET", `${link.pathname}${link.search}`)).headers.get("X-Cache")).toBeNull();
  });

  it("a cross-site POST is refused and uses nothing", async () => {
    const { newEmail, jar, link } = await emailChangeLink("csrf");
    const crossSite: Array<Record<string, string>> = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }];
    for (const headers of crossSite) {
      const res = await call("POST", "/api/auth/verify", { base: LOCAL, headers, form: formOf(link) });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect((await res.json<{ error: { message: string } }>()).error.message).toBe("请求来源无效，请刷新页面后重试");
    }
    // The link still works for its owner.
    const used = await call("POST", "/api/auth/verify", { base: LOCAL, jar, headers: { Origin: LOCAL }, form: formOf(link) });
    expect(used.headers.get("Location")).toBe("/profile?notice=email-changed");
    expect((await userOf(jar, { base: LOCAL })).email).toBe(newEmail);
  });

  it("a victim signed in as themselves who confirms the attacker's link stays themselves and is told so", async () => {
    const attacker = await emailChangeLink("attacker2");
    const victim = await signUp("victim2", { base: LOCAL });
    const before = new Map(victim.jar);
    const res = await call("POST", "/api/auth/verify", { base: LOCAL, jar: victim.jar, headers: { Origin: LOCAL }, form: formOf(attacker.link) });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/auth/confirm?type=email_change&notice=other-account");
    expect(setCookies(res)).toEqual([]);
    expect(absorb(victim.jar, res)).toEqual(before);
    expect((await userOf(victim.jar, { base: LOCAL })).email).toBe(victim.email);

    const told = await call("GET", "/auth/confirm?type=email_change&notice=other-account", { base: LOCAL, jar: victim.jar });
    const html = await told.text();
    expect(html).toContain("此链接属于另一个账号");
    expect(html).toContain(`您仍登录为 ${victim.email}，没有切换账号。`);

    // The link did what it is for — to its own account — and its session was ended, not handed over.
    expect((await userOf(attacker.jar, { base: LOCAL })).email).toBe(attacker.newEmail);
    const json = await call("POST", "/api/auth/verify", { base: LOCAL, jar: victim.jar, json: formOf(attacker.link) });
    expect(json.status).toBe(400);
  });

  it("the JSON answer names the account the browser stays signed in as", async () => {
    const attacker = await emailChangeLink("attacker3");
    const victim = await signUp("victim3", { base: LOCAL });
    const res = await call("POST", "/api/auth/verify", { base: LOCAL, jar: victim.jar, json: formOf(attacker.link) });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.json()).toMatchObject({ user: { email: victim.email }, otherAccount: true });
  });

  it("an anonymous visitor who confirms a sign-up link is signed in by that POST", async () => {
    const email = uniqueEmail("confirm-anon");
    const up = await call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(up.status).toBe(200);
    const link = linkIn((await mailTo(email))[0]);
    expect(link.pathname).toBe("/auth/confirm");
    const res = await call("POST", "/api/auth/verify", { base: LOCAL, env: CONFIRM, form: formOf(link) });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/");
    expect((await userOf(absorb(new Map(), res), { base: LOCAL })).email).toBe(email);
  });

  it("a password-reset link of another account sets its password but leaves the browser signed in as it was", async () => {
    const owner = await signUp("reset-owner", { base: LOCAL });
    const other = await signUp("reset-other", { base: LOCAL });
    await call("POST", "/api/auth/recover", { base: LOCAL, json: { email: owner.email } });
    const tokenHash = linkIn((await mailTo(owner.email))[0]).searchParams.get("token_hash")!;
    const page = await call("GET", `/auth/reset?token_hash=${tokenHash}`, { base: LOCAL, jar: other.jar });
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await page.text()).toContain(`您当前已登录为 ${other.email}`);
    const res = await call("POST", "/api/auth/reset", {
      base: LOCAL,
      jar: other.jar,
      form: { token_hash: tokenHash, password: "new-pass-9", confirmPassword: "new-pass-9" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/auth/reset?notice=other-account");
    expect(setCookies(res)).toEqual([]);
    expect((await userOf(other.jar, { base: LOCAL })).email).toBe(other.email);
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email: owner.email, password: "new-pass-9" } })).status).toBe(200);
  });
});

describe("sign-up with confirmation on answers alike for registered and new addresses", () => {
  const body = (email: string) => ({ email, password: PASSWORD, confirmPassword: PASSWORD });

  it("status, body and cookies are the same for a confirmed account, an unconfirmed one and a new address", async () => {
    const confirmed = (await signUp("known", { base: LOCAL })).email;
    const unconfirmed = uniqueEmail("pending");
    expect((await call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, json: body(unconfirmed) })).status).toBe(200);
    const answers = await Promise.all(
      [confirmed, unconfirmed, uniqueEmail("new")].map((email) => call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, json: body(email) })),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await res.json()).toEqual({ user: null, library: null, confirmationRequired: true });
    }
    // The no-JavaScript form too.
    const forms = await Promise.all(
      [confirmed, uniqueEmail("new-form")].map((email) => call("POST", "/api/auth/sign-up", { base: LOCAL, env: CONFIRM, form: body(email) })),
    );
    for (const res of forms) {
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe("/auth?mode=signin&notice=signed-up");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect((await mailTo(confirmed))[0].subject).toContain("有人尝试用您的邮箱注册");
  });
});

describe("links in e-mails come from SITE_URL, never from the Host header", () => {
  const MAIL = { MAIL_API_URL: "https://mail.invalid/send", MAIL_API_KEY: "k", MAIL_FROM: "影视站 <no-reply@tv.example.com>" };

  /** Captures the mail API's requests (nothing leaves the test). */
  function captureMail(): { sent: Array<{ to: string; text: string }>; restore: () => void } {
    const sent: Array<{ to: string; text: string }> = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.url !== MAIL.MAIL_API_URL) return realFetch(input, init);
      sent.push(await request.json<{ to: string; text: string }>());
      return new Response("{}", { status: 200 });
    });
    return { sent, restore: () => spy.mockRestore() };
  }

  it("a reset requested through Host evil.example mails a link on SITE_URL", async () => {
    const { email } = await signUp("host-reset");
    const mail = captureMail();
    try {
      const res = await call("POST", "/api/auth/recover", {
        base: "https://evil.example",
        env: { ...MAIL, SITE_URL: "https://tv.example.com/" },
        json: { email },
      });
      expect(res.status).toBe(200);
      expect(mail.sent.map((m) => m.to)).toEqual([email]);
      const link = new URL(/https?:\/\/\S+/.exec(mail.sent[0].text)![0]);
      expect(link.origin).toBe("https://tv.example.com");
      expect(link.pathname).toBe("/auth/reset");
      expect(mail.sent[0].text).not.toContain("evil.example");
    } finally {
      mail.restore();
    }
  });

  it("without SITE_URL a request from a non-local host gets a Chinese error and no mail is sent", async () => {
    const { email, jar } = await signUp("host-none", { base: "https://evil.example" });
    const mail = captureMail();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const reset = await call("POST", "/api/auth/recover", { base: "https://evil.example", env: MAIL, json: { email } });
      expect(reset.status).toBe(503);
      expect((await reset.json<{ error: { code: string; message: string } }>()).error).toEqual({
        code: "site_url_missing",
        message: "网站地址（SITE_URL）尚未配置，暂时无法发送邮件，请联系网站管理员",
      });
      const form = await call("POST", "/api/auth/recover", { base: "https://evil.example", env: MAIL, form: { email } });
      expect(form.headers.get("Location")).toBe("/auth?mode=forgot&error=site_url_missing");
      const change = await call("PUT", "/api/auth/email", { base: "https://evil.example", env: MAIL, jar, json: { email: uniqueEmail("moved") } });
      expect(change.status).toBe(503);
      const up = await call("POST", "/api/auth/sign-up", {
        base: "https://evil.example",
        env: { ...MAIL, ...CONFIRM },
        json: { email: uniqueEmail("up"), password: PASSWORD, confirmPassword: PASSWORD },
      });
      expect(up.status).toBe(503);
      expect(mail.sent).toEqual([]);
      expect(errors.mock.calls.some((args) => String(args[0]).startsWith("config: SITE_URL is not set"))).toBe(true);
    } finally {
      mail.restore();
      errors.mockRestore();
    }
  });
});
