// Wrong passwords cannot lock the owner out (OWASP "device cookies", worker/account-service/known-devices.ts):
// after a stranger's wrong passwords from many addresses lock an account, a browser that signed in
// to it before still signs in with the right password; anyone else — the owner on a new device
// included — waits out the lock, and the per-address limits hold for everyone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEVICE_COOKIE } from "../../worker/account-service/known-devices";
import { API_RATE_LIMITS } from "../../worker/auth/api";
import { absorb, call, PASSWORD, setCookies, signUp, uniqueEmail, uniqueIp, type Jar } from "./helpers/visitor";

const TOO_MANY_ATTEMPTS = "尝试次数过多，请稍后再试";
const RATE_LIMITED = "操作过于频繁，请稍后再试";

async function signIn(email: string, password: string, o: { ip?: string; jar?: Jar; env?: Partial<Env> } = {}) {
  const res = await call("POST", "/api/auth/sign-in", { ...o, ip: o.ip ?? uniqueIp(), json: { email, password } });
  const body = await res.clone().json<{ error?: { code: string; message: string } }>();
  return { res, status: res.status, error: body.error ?? null };
}

/** A jar with this browser's device cookie only (no session). */
function deviceOnly(res: Response): Jar {
  const device = absorb(new Map(), res).get(DEVICE_COOKIE);
  expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return new Map([[DEVICE_COOKIE, device!]]);
}

/** A stranger's wrong passwords, each from another address, until the account is locked. */
async function lockFromElsewhere(email: string, o: { env?: Partial<Env> } = {}) {
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await signIn(email, `wrong-guess-${i}`, { env: o.env })).status);
  expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
}

describe("the account's lock and the owner's known device", () => {
  it("a stranger's wrong passwords from many addresses lock the account for everyone but the browser that signed in before", async () => {
    const home = uniqueIp();
    const { email } = await signUp("lockout", { ip: home });
    const first = await signIn(email, PASSWORD, { ip: home });
    expect(first.status).toBe(200);
    const cookie = first.res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`)) ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/auth/i);
    expect(cookie).toMatch(/Max-Age=15552000/i);
    const device = deviceOnly(first.res);

    await lockFromElsewhere(email);
    // The right password from a new address, or from the owner's own address without the cookie: still locked.
    for (const ip of [uniqueIp(), home]) {
      const refused = await signIn(email, PASSWORD, { ip });
      expect(refused.status).toBe(429);
      expect(refused.error).toEqual({ code: "too_many_attempts", message: TOO_MANY_ATTEMPTS });
    }
    // The owner's browser signs in, at home or anywhere else.
    expect((await signIn(email, PASSWORD, { ip: home, jar: device })).status).toBe(200);
    const elsewhere = await signIn(email, PASSWORD, { jar: device });
    expect(elsewhere.status).toBe(200);
    expect(setCookies(elsewhere.res).find((c) => c.name === DEVICE_COOKIE)?.value).toBe(device.get(DEVICE_COOKIE));
    // …while the stranger is still locked out, and their further guesses do not reach the owner's browser.
    expect((await signIn(email, "wrong-guess-7")).status).toBe(429);
    expect((await signIn(email, PASSWORD, { jar: device })).status).toBe(200);
  });

  it("a device cookie is good only for the accounts that signed in on it; a made-up one is nobody's", async () => {
    const victim = await signUp("lock-victim");
    const stranger = await signUp("lock-stranger");
    const strangerDevice = deviceOnly((await signIn(stranger.email, PASSWORD)).res);
    await lockFromElsewhere(victim.email);
    expect((await signIn(victim.email, PASSWORD, { jar: strangerDevice })).error?.code).toBe("too_many_attempts");
    const madeUp = new Map([[DEVICE_COOKIE, "A".repeat(43)]]);
    expect((await signIn(victim.email, PASSWORD, { jar: madeUp })).error?.code).toBe("too_many_attempts");
  });

  it("wrong passwords from a known device lock that device only, not the account", async () => {
    const { email } = await signUp("lock-device");
    const device = deviceOnly((await signIn(email, PASSWORD)).res);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(email, `wrong-${i}`, { jar: device })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await signIn(email, PASSWORD, { jar: device })).error?.code).toBe("too_many_attempts");
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });

  it(`the per-address limit (${API_RATE_LIMITS.password.limit} attempts per 5 minutes) holds for a known device too`, async () => {
    const { email } = await signUp("lock-rate");
    const ip = uniqueIp();
    const device = deviceOnly((await signIn(email, PASSWORD, { ip })).res);
    for (let i = 1; i < API_RATE_LIMITS.password.limit; i++) {
      const res = await call("POST", "/api/auth/sign-in", { ip, json: { email: uniqueEmail("nobody"), password: "" } });
      expect(res.status).toBe(400);
    }
    const limited = await signIn(email, PASSWORD, { ip, jar: device });
    expect(limited.status).toBe(429);
    expect(limited.error).toEqual({ code: "over_request_rate_limit", message: RATE_LIMITED });
  });
});

describe("in front of a real Supabase project, the worker does the same itself", () => {
  const REMOTE = "https://accounts.lockout.test";
  const remote = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k" };

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Supabase Auth's answers to password grants (shared reference: invalid_credentials, or a session). */
  function standIn(email: string): string[] {
    const calls: string[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith(REMOTE)) return realFetch(input, init);
      calls.push(new URL(req.url).pathname);
      const { password } = await req.json<{ password: string }>();
      const headers = { "Content-Type": "application/json", "X-Supabase-Api-Version": "2024-01-01" };
      if (password !== PASSWORD) {
        return new Response(JSON.stringify({ code: "invalid_credentials", message: "Invalid login credentials" }), { status: 400, headers });
      }
      const now = Math.floor(Date.now() / 1000);
      const user = {
        id: crypto.randomUUID(),
        aud: "authenticated",
        role: "authenticated",
        email,
        app_metadata: {},
        user_metadata: {},
        created_at: new Date().toISOString(),
      };
      const session = {
        access_token: "header.payload.signature",
        token_type: "bearer",
        expires_in: 3600,
        expires_at: now + 3600,
        refresh_token: "refresh-token-1",
        user,
      };
      return new Response(JSON.stringify(session), { status: 200, headers });
    });
    return calls;
  }

  it("a locked account: the known device reaches the service and signs in, a new address does not", async () => {
    const email = uniqueEmail("remote-lockout");
    const calls = standIn(email);
    const first = await signIn(email, PASSWORD, { env: remote });
    expect(first.status).toBe(200);
    const device = deviceOnly(first.res);
    await lockFromElsewhere(email, { env: remote });
    const before = calls.length;
    expect((await signIn(email, PASSWORD, { env: remote })).error).toEqual({ code: "too_many_attempts", message: TOO_MANY_ATTEMPTS });
    expect(calls.length).toBe(before);
    expect((await signIn(email, PASSWORD, { env: remote, jar: device })).status).toBe(200);
    expect(calls.length).toBe(before + 1);
  });
});
