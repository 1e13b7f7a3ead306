// Accounts that hold, through the whole worker inside workerd: shared addresses are never signed
// out by rate limits, a refused refresh keeps the session, per-account throttling, the signing key
// kept in D1, device list and sign-out scopes, configuration parsing, the development mailbox,
// password reset and e-mail confirmation.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { RATE_LIMITS } from "../../worker/account-service";
import { verifyJwt } from "../../worker/account-service/jwt";
import {
  absorb,
  call,
  decodeSession,
  expiringCopy,
  linkIn,
  mailTo,
  PASSWORD,
  setCookies,
  signUp,
  uniqueEmail,
  uniqueIp,
  userOf,
  type Jar,
} from "./helpers/visitor";

const LOCAL = "http://localhost";

describe("rate limits never sign anyone out", () => {
  it("60 tabs of 20 people behind one address refreshing at once: everyone stays signed in", async () => {
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => signUp(`nat-${i}`)));
    const shared = uniqueIp();
    const tabs = people.flatMap(({ email, jar }) => [0, 1, 2].map((t) => ({ email, jar: expiringCopy(jar, -120), page: t === 0 })));
    const answers = await Promise.all(tabs.map((tab) => (tab.page ? call("GET", "/", { jar: tab.jar, ip: shared }) : userOf(tab.jar, { ip: shared }))));
    for (const [i, answer] of answers.entries()) {
      const res = answer instanceof Response ? answer : answer.res;
      expect(res.status).toBe(200);
      expect(setCookies(res).filter((c) => c.cleared)).toEqual([]);
      if (answer instanceof Response) expect(await answer.text()).toContain("退出登录");
      else expect(answer.email).toBe(tabs[i].email);
    }
    // The same address can still sign in with a password: refreshes did not use its budget.
    const signIn = await call("POST", "/api/auth/sign-in", { ip: shared, json: { email: people[0].email, password: PASSWORD } });
    expect(signIn.status).toBe(200);
  });

  /** Fills this session's refresh budget (the per-session counter of the service), so its next refresh gets 429. */
  async function exhaustRefreshes(jar: Jar): Promise<void> {
    const claims = JSON.parse(atob(decodeSession(jar).access_token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { session_id: string };
    const windowMs = RATE_LIMITS.refresh.windowMs;
    if (Date.now() % windowMs > windowMs - 5_000) await new Promise((r) => setTimeout(r, 6_000));
    await env.DB.prepare("INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3)")
      .bind(`refresh:${claims.session_id}`, Math.floor(Date.now() / windowMs) * windowMs, RATE_LIMITS.refresh.limit)
      .run();
  }

  it("a refresh answered 429 keeps the cookies and renders signed in while the stored access token is valid", async () => {
    const { email, jar } = await signUp("refused");
    await exhaustRefreshes(jar);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    // 30 s left: supabase-js refreshes (margin 90 s), the service refuses, the token still proves who this is.
    const soon = expiringCopy(jar, 30);
    const user = await userOf(soon, { env: { ACCOUNT_SERVICE_TIMEOUT_MS: "1000" } });
    expect(user.res.status).toBe(200);
    expect(user.email).toBe(email);
    expect(user.res.headers.getSetCookie()).toEqual([]);
    const page = await call("GET", "/profile", { jar: soon, env: { ACCOUNT_SERVICE_TIMEOUT_MS: "1000" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    expect(page.headers.getSetCookie()).toEqual([]);

    // Already expired: not shown as signed in, but the session is kept (503 to the client, no cookie change).
    const late = await userOf(expiringCopy(jar, -120), { env: { ACCOUNT_SERVICE_TIMEOUT_MS: "1000" } });
    expect(late.res.status).toBe(503);
    expect(late.res.headers.getSetCookie()).toEqual([]);
    errors.mockRestore();
  });

  it("the refused refresh was retried with back-off before giving up, never past the budget (200 ms, then doubling, within half of it)", async () => {
    const { jar } = await signUp("backoff");
    await exhaustRefreshes(jar);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const refreshesCounted = async () =>
      Number((await env.DB.prepare("SELECT count FROM rate_limits WHERE key LIKE 'refresh:%' ORDER BY rowid DESC LIMIT 1").first<{ count: number }>())?.count);
    const before = await refreshesCounted();
    // Budget 3000 ms: waits of 200, 400 and 800 ms fit in 1500 ms, 1600 more would not → at most
    // 4 attempts. How many of them happen before the budget's own deadline depends on how fast
    // each attempt is (a loaded machine may get fewer in): bound the count, do not time it.
    const answer = await userOf(expiringCopy(jar, -120), { env: { ACCOUNT_SERVICE_TIMEOUT_MS: "3000" } });
    const attempts = (await refreshesCounted()) - before;
    expect(answer.res.status).toBe(503);
    expect(answer.res.headers.getSetCookie()).toEqual([]);
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(4);
    errors.mockRestore();
  });
});

describe("per-account throttling", () => {
  it("after 5 wrong passwords the account answers 429 尝试次数过多，请稍后再试 from any address, whatever the password", async () => {
    const { email } = await signUp("throttle");
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", "/api/auth/sign-in", { json: { email, password: `wrong-${i}` } });
      expect(res.status).toBe(400);
    }
    for (const password of [PASSWORD, "wrong-again"]) {
      const res = await call("POST", "/api/auth/sign-in", { ip: uniqueIp(), json: { email: email.toUpperCase(), password } });
      expect(res.status).toBe(429);
      expect((await res.json<{ error: { message: string } }>()).error.message).toBe("尝试次数过多，请稍后再试");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // Another account at the same moment is not affected.
    const other = await signUp("throttle-other");
    expect((await call("POST", "/api/auth/sign-in", { json: { email: other.email, password: PASSWORD } })).status).toBe(200);
  });

  it("an unknown address gets exactly the same answers (nothing reveals whether an account exists)", async () => {
    const { email } = await signUp("known");
    const unknown = uniqueEmail("unknown");
    const answers: Record<string, string[]> = { known: [], unknown: [] };
    for (let i = 0; i < 6; i++) {
      for (const [key, address] of [
        ["known", email],
        ["unknown", unknown],
      ] as const) {
        const res = await call("POST", "/api/auth/sign-in", { json: { email: address, password: "wrong-password" } });
        answers[key].push(`${res.status} ${await res.text()}`);
      }
    }
    expect(answers.known).toEqual(answers.unknown);
    expect(answers.known.at(-1)).toContain("429");
  });

  it("a password reset lifts it", async () => {
    const { email } = await signUp("lift", { base: LOCAL });
    for (let i = 0; i < 5; i++) await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: "wrong-password" } });
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: PASSWORD } })).status).toBe(429);
    expect((await call("POST", "/api/auth/recover", { base: LOCAL, json: { email } })).status).toBe(200);
    const tokenHash = linkIn((await mailTo(email))[0]).searchParams.get("token_hash")!;
    const reset = await call("POST", "/api/auth/reset", {
      base: LOCAL,
      json: { token_hash: tokenHash, password: "a-new-pass-2", confirmPassword: "a-new-pass-2" },
    });
    expect(reset.status).toBe(200);
    expect((await call("POST", "/api/auth/sign-in", { base: LOCAL, json: { email, password: "a-new-pass-2" } })).status).toBe(200);
  });
});

describe("per-account throttling in front of a real Supabase project", () => {
  it("the worker counts wrong passwords itself and stops asking the service after 5", async () => {
    const REMOTE = "https://accounts.throttle.test";
    const realFetch = globalThis.fetch;
    const calls: string[] = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith(REMOTE)) return realFetch(input, init);
      calls.push(new URL(req.url).pathname);
      // What Supabase Auth answers to a wrong password (tests/worker/account-service.http.test.ts).
      return new Response(JSON.stringify({ code: "invalid_credentials", message: "Invalid login credentials" }), {
        status: 400,
        headers: { "Content-Type": "application/json", "X-Supabase-Api-Version": "2024-01-01" },
      });
    });
    try {
      const remote = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k" };
      const email = uniqueEmail("remote-throttle");
      for (let i = 0; i < 5; i++) expect((await call("POST", "/api/auth/sign-in", { env: remote, json: { email, password: "wrong" } })).status).toBe(400);
      const locked = await call("POST", "/api/auth/sign-in", { env: remote, ip: uniqueIp(), json: { email, password: PASSWORD } });
      expect(locked.status).toBe(429);
      expect((await locked.json<{ error: { message: string } }>()).error.message).toBe("尝试次数过多，请稍后再试");
      expect(calls).toHaveLength(5);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("signing key", () => {
  it("without AUTH_JWT_SECRET, tokens are signed with a random key kept in D1 — never the old repository constant", async () => {
    expect(env.AUTH_JWT_SECRET).toBeUndefined();
    const { jar } = await signUp("key");
    const token = decodeSession(jar).access_token;
    const row = await env.DB.prepare("SELECT secret FROM auth_keys WHERE name = 'jwt'").first<{ secret: string }>();
    expect(row?.secret.length).toBeGreaterThanOrEqual(64);
    const options = { issuer: "https://yingshi.test/auth/v1", audience: "authenticated", nowMs: Date.now() };
    await expect(verifyJwt(token, row!.secret, options)).resolves.toMatchObject({ aud: "authenticated" });
    await expect(verifyJwt(token, "yingshi-local-dev-only-insecure-jwt-secret-change-me", options)).rejects.toThrow();
  });

  it("with AUTH_JWT_SECRET set, that key signs; a token from the D1 key is then refused (signed out, never a 500)", async () => {
    const secret = "s".repeat(40);
    const { jar } = await signUp("key-set", { env: { AUTH_JWT_SECRET: secret } });
    const token = decodeSession(jar).access_token;
    await expect(verifyJwt(token, secret, { issuer: "https://yingshi.test/auth/v1", audience: "authenticated", nowMs: Date.now() })).resolves.toBeTruthy();
    const other = await signUp("key-d1");
    const crossed = await userOf(other.jar, { env: { AUTH_JWT_SECRET: secret } });
    expect(crossed.res.status).toBe(200);
    expect(crossed.email).toBeNull();
  });
});

describe("devices and sign-out scopes", () => {
  const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
  const SAFARI_IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1";

  async function device(email: string, userAgent: string, country: string): Promise<Jar> {
    const res = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { "User-Agent": userAgent, "CF-IPCountry": country } });
    expect(res.status).toBe(200);
    return absorb(new Map(), res);
  }

  it("the profile lists each device with browser, system and country; 退出此设备 ends one; scope global ends all", async () => {
    const { email } = await signUp("devices");
    const a = await device(email, CHROME_WINDOWS, "CN");
    const b = await device(email, SAFARI_IPHONE, "HK");
    const c = await device(email, CHROME_WINDOWS, "US");

    const listed = await call("GET", "/api/auth/sessions", { jar: a });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("Cache-Control")).toBe("private, no-store");
    const { sessions } = await listed.json<{ sessions: Array<{ id: string; device: string; country: string | null; current: boolean }> }>();
    expect(sessions.length).toBe(4);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const labels = sessions.map((s) => `${s.device} / ${s.country}`);
    expect(labels).toContain("Chrome 120 · Windows 10 / 中国");
    expect(
      labels.some((l) => /^Safari 17 · iOS 17 \/ (中国)?香港/.test(l)),
      labels.join(", "),
    ).toBe(true);
    expect(labels).toContain("Chrome 120 · Windows 10 / 美国");

    const iphone = sessions.find((s) => s.device.startsWith("Safari"))!;
    const out = await call("POST", `/api/auth/sessions/${iphone.id}/sign-out`, { jar: a, json: {} });
    expect(out.status).toBe(200);
    expect((await userOf(b)).email).toBeNull();
    expect((await userOf(a)).email).toBe(email);
    expect((await call("POST", `/api/auth/sessions/${crypto.randomUUID()}/sign-out`, { jar: a, json: {} })).status).toBe(404);

    const global = await call("POST", "/api/auth/sign-out", { jar: a, json: { scope: "global" } });
    expect(global.status).toBe(200);
    expect(setCookies(global).some((x) => x.cleared)).toBe(true);
    expect((await userOf(c)).email).toBeNull();
    expect((await userOf(a)).email).toBeNull();
  });

  it("scope others keeps this device; an unknown scope is 400; signed out, the list is 401", async () => {
    const { email, jar } = await signUp("others");
    const other = await device(email, CHROME_WINDOWS, "CN");
    expect((await call("POST", "/api/auth/sign-out", { jar, json: { scope: "everything" } })).status).toBe(400);
    const res = await call("POST", "/api/auth/sign-out", { jar, json: { scope: "others" } });
    expect(res.status).toBe(200);
    expect(setCookies(res).some((x) => x.cleared)).toBe(false);
    expect((await userOf(jar)).email).toBe(email);
    expect((await userOf(other)).email).toBeNull();
    expect((await call("GET", "/api/auth/sessions")).status).toBe(401);
  });
});

describe("configuration", () => {
  it('EXPOSE_ACCOUNT_API "false" and "0" keep /auth/v1 closed; "true" opens it', async () => {
    for (const value of ["false", "0", "off"]) {
      const res = await call("GET", "/auth/v1/user", { env: { EXPOSE_ACCOUNT_API: value } });
      expect(res.headers.get("Content-Type") ?? "", value).toContain("text/html");
      expect(res.status).toBe(404);
    }
    const open = await call("GET", "/auth/v1/user", { env: { EXPOSE_ACCOUNT_API: "true" } });
    expect(open.status).toBe(401);
    expect((await open.json<{ code: string }>()).code).toBe("no_authorization");
  });

  it("a bad value stops the site with a clear 503 and a log line naming the variable", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const [name, value] of [
      ["EXPOSE_ACCOUNT_API", "maybe"],
      ["AUTH_JWT_SECRET", "short"],
      ["ACCOUNT_SERVICE_TIMEOUT_MS", "8s"],
      // Refused here, never ignored for the request's origin by the site settings (shared/site-config.ts).
      ["SITE_URL", "tv.example.com"],
    ] as const) {
      const res = await call("GET", "/", { env: { [name]: value } });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("站点配置有误");
      expect(errors.mock.calls.some((args) => String(args[0]).includes(`${name}:`))).toBe(true);
    }
    errors.mockRestore();
  });
});

describe("development mailbox", () => {
  it("serves /dev/mail and /dev/mail.json on localhost only", async () => {
    expect((await call("GET", "/dev/mail", { base: LOCAL })).status).toBe(200);
    expect((await call("GET", "/dev/mail", { base: "http://127.0.0.1:8787" })).status).toBe(200);
    for (const path of ["/dev/mail", "/dev/mail.json"]) {
      const res = await call("GET", path);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("text/html");
    }
  });
});

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
