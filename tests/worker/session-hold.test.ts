// Sessions that hold, through the whole worker inside workerd: shared addresses are never signed out
// by rate limits, a refused refresh keeps the session, the signing key kept in D1, the device list
// and sign-out scopes.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { RATE_LIMITS } from "../../worker/account-service";
import { verifyJwt } from "../../worker/account-service/jwt";
import { absorb, call, decodeSession, expiringCopy, PASSWORD, setCookies, signUp, uniqueIp, userOf, type Jar } from "./helpers/visitor";

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
