// Raw-HTTP tests of the embedded account service (worker/account-service) inside workerd: the
// subset of the Supabase Auth (GoTrue) HTTP API it speaks, one block per endpoint.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PBKDF2_ITERATIONS, RATE_LIMITS, accountServiceOptions, createAccountService } from "../../worker/account-service";
import { configOf } from "../../worker/config";
import { decodeJwtPayload, signJwt } from "../../worker/account-service/jwt";
import { hashPassword, verifyPassword } from "../../worker/account-service/password";
import { accountService, JWT_SECRET, type AccountService } from "./helpers/account-service";
import { uniqueEmail, uniqueIp } from "./helpers/unique";

const db = env.DB;
const SECRET = JWT_SECRET;
const PASSWORD = "correct horse 1";

// ---- helpers -------------------------------------------------------------------------------

/**
 * A clock that starts a second into a rate-limit window (all are 5 minutes) and runs with real
 * time: a test counting up to a limit is not split across two windows (and reset) by the moment
 * it happens to run at.
 */
function windowClock(): () => number {
  const { windowMs } = RATE_LIMITS.password;
  const start = Date.now();
  const base = Math.floor(start / windowMs) * windowMs + 1000;
  return () => base + (Date.now() - start);
}

/** Asserts a contract error: status, header, body {code, message[, weak_password]}. */
async function expectError(res: Response, status: number, code: string, message?: string | RegExp) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("X-Supabase-Api-Version")).toBe("2024-01-01");
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  if (typeof message === "string") expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  const allowed = code === "weak_password" ? ["code", "message", "weak_password"] : ["code", "message"];
  expect(Object.keys(body).sort()).toEqual(allowed.sort());
  return body;
}

interface SessionBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown> & { id: string; email: string };
}

async function signUp(svc: AccountService, email: string, password = PASSWORD, data?: unknown): Promise<SessionBody> {
  const res = await svc.request("POST", "/signup", { body: { email, password, ...(data ? { data } : {}) } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await res.json<SessionBody>();
}

async function signIn(svc: AccountService, email: string, password = PASSWORD): Promise<SessionBody> {
  const res = await svc.request("POST", "/token?grant_type=password", { body: { email, password } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await res.json<SessionBody>();
}

function refresh(svc: AccountService, refreshToken: string, ip?: string): Promise<Response> {
  return svc.request("POST", "/token?grant_type=refresh_token", { body: { refresh_token: refreshToken }, ip });
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---- POST /signup ------------------------------------------------------------------------------

describe("POST /signup", () => {
  it("answers 429 over_request_rate_limit after 30 sign-ups per IP in 5 minutes (checked first)", async () => {
    const svc = accountService({ now: windowClock() });
    const ip = uniqueIp();
    for (let i = 0; i < 30; i++) {
      // Cheap requests (empty password) still count.
      const res = await svc.request("POST", "/signup", { ip, body: { email: uniqueEmail("rl"), password: "" } });
      expect(res.status).toBe(400);
    }
    const res = await svc.request("POST", "/signup", { ip, body: { email: uniqueEmail("rl"), password: PASSWORD } });
    await expectError(res, 429, "over_request_rate_limit", "Request rate limit reached");
    // Another IP is not affected; the same IP is again allowed in the next window.
    await signUp(svc, uniqueEmail("rl-other"));
    svc.advance(5 * 60_000);
    const later = await svc.request("POST", "/signup", { ip, body: { email: uniqueEmail("rl"), password: PASSWORD } });
    expect(later.status).toBe(200);
  });

  it("empty or missing password → 400 validation_failed, even with a bad e-mail", async () => {
    const svc = accountService();
    for (const body of [{ email: uniqueEmail("p"), password: "" }, { email: uniqueEmail("p") }, { email: "not-an-email", password: "" }, { password: "" }]) {
      await expectError(await svc.request("POST", "/signup", { body }), 400, "validation_failed", "Signup requires a valid password");
    }
  });

  it("password longer than 72 bytes → 400 validation_failed, before the length and e-mail checks", async () => {
    const svc = accountService();
    const message = "Password cannot be longer than 72 characters";
    for (const password of ["a".repeat(73), "密".repeat(25) /* 25 characters, 75 bytes */]) {
      await expectError(await svc.request("POST", "/signup", { body: { email: uniqueEmail("long"), password } }), 400, "validation_failed", message);
      await expectError(await svc.request("POST", "/signup", { body: { email: "bad", password } }), 400, "validation_failed", message);
    }
    // Exactly 72 bytes is fine.
    await signUp(svc, uniqueEmail("p72"), "b".repeat(72));
  });

  it("password shorter than 6 characters → 422 weak_password with reasons, before the e-mail checks", async () => {
    const svc = accountService();
    for (const body of [{ email: uniqueEmail("weak"), password: "12345" }, { email: "bad email", password: "a" }, { password: "abc" }]) {
      const err = await expectError(await svc.request("POST", "/signup", { body }), 422, "weak_password", "Password should be at least 6 characters.");
      expect(err.weak_password).toEqual({ reasons: ["length"] });
    }
    // Six CJK characters are six characters.
    await signUp(svc, uniqueEmail("cjk"), "密码密码密码");
  });

  it("e-mail missing / too long / bad format → 400 validation_failed", async () => {
    const svc = accountService();
    await expectError(await svc.request("POST", "/signup", { body: { password: PASSWORD } }), 400, "validation_failed", "An email address is required");
    await expectError(
      await svc.request("POST", "/signup", { body: { email: "", password: PASSWORD } }),
      400,
      "validation_failed",
      "An email address is required",
    );
    const long = `${"a".repeat(244)}@example.com`; // 256 characters
    await expectError(
      await svc.request("POST", "/signup", { body: { email: long, password: PASSWORD } }),
      400,
      "validation_failed",
      "An email address is too long",
    );
    for (const email of ["plainaddress", "a@", "@example.com", "a b@example.com", "a@exa mple.com", "a@-example.com"]) {
      await expectError(
        await svc.request("POST", "/signup", { body: { email, password: PASSWORD } }),
        400,
        "validation_failed",
        "Unable to validate email address: invalid format",
      );
    }
  });

  it("already registered (auto-confirm) → 422 user_already_exists, whatever the case of the address", async () => {
    const svc = accountService();
    const email = uniqueEmail("dup");
    await signUp(svc, email);
    for (const again of [email, email.toUpperCase()]) {
      await expectError(
        await svc.request("POST", "/signup", { body: { email: again, password: "another pw" } }),
        422,
        "user_already_exists",
        "User already registered",
      );
    }
  });

  it("stores and returns e-mail addresses lower-cased; sign-in is case-insensitive", async () => {
    const svc = accountService();
    const mixed = `MiXeD-${crypto.randomUUID()}@Example.COM`;
    const session = await signUp(svc, mixed);
    expect(session.user.email).toBe(mixed.toLowerCase());
    const row = await db.prepare("SELECT email FROM users WHERE id = ?").bind(session.user.id).first<{ email: string }>();
    expect(row?.email).toBe(mixed.toLowerCase());
    const again = await signIn(svc, mixed.toUpperCase());
    expect(again.user.id).toBe(session.user.id);
  });

  it("returns a full session and user object with auto-confirm on", async () => {
    const svc = accountService();
    const email = uniqueEmail("full");
    const s = await signUp(svc, email, PASSWORD, { nickname: "小明", sub: "spoofed" });
    expect(s.token_type).toBe("bearer");
    expect(s.expires_in).toBe(3600);
    expect(s.refresh_token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 random bytes
    const u = s.user;
    expect(u.id).toMatch(UUID);
    expect(u).toMatchObject({
      aud: "authenticated",
      role: "authenticated",
      email,
      phone: "",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { nickname: "小明", email, email_verified: true, phone_verified: false, sub: u.id },
      is_anonymous: false,
    });
    for (const k of ["email_confirmed_at", "confirmed_at", "last_sign_in_at", "created_at", "updated_at"]) {
      expect(u[k], k).toMatch(ISO);
    }
    expect(u).not.toHaveProperty("confirmation_sent_at");
    const identities = u.identities as Record<string, unknown>[];
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({
      id: u.id,
      user_id: u.id,
      provider: "email",
      email,
      identity_data: { email, email_verified: true, phone_verified: false, sub: u.id },
    });
    expect(identities[0].identity_id).toMatch(UUID);
    for (const k of ["created_at", "updated_at", "last_sign_in_at"]) expect(identities[0][k], k).toMatch(ISO);
  });
});

// ---- password storage -------------------------------------------------------------------------

describe("password storage", () => {
  it("stores pbkdf2-sha256$<iterations>$<salt>$<hash>, ≥ 100 000 iterations, salted, never the password", async () => {
    const svc = accountService();
    const a = await signUp(svc, uniqueEmail("hash-a"));
    const b = await signUp(svc, uniqueEmail("hash-b"));
    const rows = await db
      .prepare("SELECT id, encrypted_password FROM users WHERE id IN (?, ?)")
      .bind(a.user.id, b.user.id)
      .all<{ id: string; encrypted_password: string }>();
    expect(rows.results).toHaveLength(2);
    const stored = rows.results.map((r) => r.encrypted_password);
    for (const value of stored) {
      const m = /^pbkdf2-sha256\$(\d+)\$([A-Za-z0-9+/]+=*)\$([A-Za-z0-9+/]+=*)$/.exec(value);
      expect(m, value).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThanOrEqual(100_000);
      expect(Number(m![1])).toBe(PBKDF2_ITERATIONS);
      const salt = Uint8Array.from(atob(m![2]), (ch) => ch.charCodeAt(0));
      const hash = Uint8Array.from(atob(m![3]), (ch) => ch.charCodeAt(0));
      expect(salt.length).toBe(16);
      expect(hash.length).toBe(32);
      expect(value).not.toContain(PASSWORD);
      // Independent re-derivation: the format really is PBKDF2-HMAC-SHA256 over UTF-8.
      const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(PASSWORD), "PBKDF2", false, ["deriveBits"]);
      const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: Number(m![1]) }, key, 256));
      expect(bits).toEqual(hash);
    }
    // Same password, different salt and hash.
    expect(stored[0]).not.toBe(stored[1]);
  });

  it("verifies only well-formed hashes within workerd's 100 000-iteration cap", async () => {
    const stored = await hashPassword("secret-1");
    expect(await verifyPassword("secret-1", stored)).toBe(true);
    expect(await verifyPassword("secret-2", stored)).toBe(false);
    expect(await verifyPassword("secret-1", stored.replace("$100000$", "$100001$"))).toBe(false);
    expect(await verifyPassword("secret-1", "secret-1")).toBe(false);
    expect(await verifyPassword("", "pbkdf2-sha256$1$$")).toBe(false);
  });
});

// ---- POST /token -------------------------------------------------------------------------------

describe("POST /token", () => {
  it("unknown or missing grant_type → 400 invalid_credentials", async () => {
    const svc = accountService();
    for (const q of ["?grant_type=client_credentials", "?grant_type=", ""]) {
      await expectError(await svc.request("POST", `/token${q}`, { body: {} }), 400, "invalid_credentials", "unsupported_grant_type");
    }
  });

  it("password grant: missing e-mail → 400 validation_failed", async () => {
    const svc = accountService();
    for (const body of [{ password: PASSWORD }, { email: "", password: PASSWORD }]) {
      await expectError(await svc.request("POST", "/token?grant_type=password", { body }), 400, "validation_failed");
    }
  });

  it("password grant: unknown user and wrong password give the identical 400 invalid_credentials", async () => {
    const svc = accountService();
    const email = uniqueEmail("cred");
    await signUp(svc, email);
    const wrong = await svc.request("POST", "/token?grant_type=password", { body: { email, password: "wrong password" } });
    const unknown = await svc.request("POST", "/token?grant_type=password", { body: { email: uniqueEmail("nobody"), password: PASSWORD } });
    const missing = await svc.request("POST", "/token?grant_type=password", { body: { email } });
    const bodies = [];
    for (const res of [wrong, unknown, missing]) {
      bodies.push(await expectError(res, 400, "invalid_credentials", "Invalid login credentials"));
    }
    expect(bodies[0]).toEqual(bodies[1]);
  });

  it("password grant: success creates a new session each time and updates last_sign_in_at", async () => {
    const svc = accountService();
    const email = uniqueEmail("ok");
    const first = await signUp(svc, email);
    svc.advance(2000);
    const second = await signIn(svc, email);
    expect(second.user.id).toBe(first.user.id);
    expect(decodeJwtPayload(second.access_token)!.session_id).not.toBe(decodeJwtPayload(first.access_token)!.session_id);
    expect(Date.parse(second.user.last_sign_in_at as string)).toBeGreaterThan(Date.parse(first.user.last_sign_in_at as string));
  });

  it("refresh grant: missing or malformed token → 400 validation_failed; unknown → refresh_token_not_found", async () => {
    const svc = accountService();
    for (const body of [{}, { refresh_token: "" }, { refresh_token: "not a token!" }, { refresh_token: "x".repeat(500) }]) {
      await expectError(await svc.request("POST", "/token?grant_type=refresh_token", { body }), 400, "validation_failed");
    }
    await expectError(await refresh(svc, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
  });

  it("refresh grant: rotation, parent reuse, 10 s reuse window, then refresh_token_already_used revokes the session", async () => {
    const svc = accountService();
    const s0 = await signUp(svc, uniqueEmail("rot"));
    const t0 = s0.refresh_token;
    const sessionId = decodeJwtPayload(s0.access_token)!.session_id;

    const r1 = await refresh(svc, t0);
    expect(r1.status).toBe(200);
    const s1 = await r1.json<SessionBody>();
    const t1 = s1.refresh_token;
    expect(t1).not.toBe(t0);
    expect(decodeJwtPayload(s1.access_token)!.session_id).toBe(sessionId);
    // amr keeps the sign-in time.
    expect(decodeJwtPayload(s1.access_token)!.amr).toEqual(decodeJwtPayload(s0.access_token)!.amr);

    const s2 = await (await refresh(svc, t1)).json<SessionBody>();
    const t2 = s2.refresh_token;
    expect(new Set([t0, t1, t2]).size).toBe(3);

    // t0 is neither active nor the parent of the active token, but was revoked < 10 s ago.
    svc.advance(5_000);
    const within = await (await refresh(svc, t0)).json<SessionBody>();
    expect(within.refresh_token).toBe(t2);

    // t1 is the parent of the active t2: returns t2 however late.
    svc.advance(60_000);
    const parent = await (await refresh(svc, t1)).json<SessionBody>();
    expect(parent.refresh_token).toBe(t2);

    // t0 again, long after its revocation: theft assumed, the whole session ends.
    await expectError(await refresh(svc, t0), 400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    await expectError(await refresh(svc, t2), 400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    await expectError(await svc.request("GET", "/user", { token: s2.access_token }), 403, "session_not_found");
    const active = await db.prepare("SELECT COUNT(*) AS n FROM refresh_tokens WHERE session_id = ? AND revoked = 0").bind(sessionId).first<{ n: number }>();
    expect(active?.n).toBe(0);
  });

  it("refresh grant: concurrent refreshes with one token all succeed and agree on one child", async () => {
    const svc = accountService();
    const s0 = await signUp(svc, uniqueEmail("conc"));
    const results = await Promise.all([1, 2, 3].map(() => refresh(svc, s0.refresh_token)));
    const tokens = new Set<string>();
    for (const res of results) {
      expect(res.status).toBe(200);
      tokens.add((await res.json<SessionBody>()).refresh_token);
    }
    expect(tokens.size).toBe(1);
  });

  it("password grants and sign-ups share 30 per IP in 5 minutes; refreshes never count against the address", async () => {
    const svc = accountService();
    const ip = uniqueIp();
    const email = uniqueEmail("shared");
    const s = await signUp(svc, email, PASSWORD); // a sign-up from another address
    for (let i = 0; i < 15; i++) {
      expect((await svc.request("POST", "/signup", { ip, body: { email: uniqueEmail("rl"), password: "" } })).status).toBe(400);
      expect((await svc.request("POST", "/token?grant_type=password", { ip, body: {} })).status).toBe(400);
    }
    await expectError(await svc.request("POST", "/token?grant_type=password", { ip, body: {} }), 429, "over_request_rate_limit", "Request rate limit reached");
    // Refreshes from the same address still work: they are limited per session.
    let token = s.refresh_token;
    for (let i = 0; i < 40; i++) {
      const res = await refresh(svc, token, ip);
      expect(res.status, await res.clone().text()).toBe(200);
      token = (await res.json<SessionBody>()).refresh_token;
    }
    svc.advance(5 * 60_000);
    expect((await svc.request("POST", "/token?grant_type=password", { ip, body: {} })).status).toBe(400);
  });

  it("refreshes are limited per session (RATE_LIMITS.refresh); another session from the same address is not affected", async () => {
    const svc = accountService({ now: windowClock() });
    const ip = uniqueIp();
    const a = await signUp(svc, uniqueEmail("ses-a"));
    const b = await signUp(svc, uniqueEmail("ses-b"));
    const first = await (await refresh(svc, a.refresh_token, ip)).json<SessionBody>();
    const sessionId = decodeJwtPayload(first.access_token)!.session_id as string;
    // Fill the session's window up to one below the limit (as that many refreshes would), then two more.
    const { limit, windowMs } = RATE_LIMITS.refresh;
    const windowStart = Math.floor(svc.opts.now!() / windowMs) * windowMs;
    await db
      .prepare("UPDATE rate_limits SET count = ?2 WHERE key = ?1 AND window_start = ?3")
      .bind(`refresh:${sessionId}`, limit - 1, windowStart)
      .run();
    expect((await refresh(svc, first.refresh_token, ip)).status).toBe(200);
    await expectError(await refresh(svc, first.refresh_token, ip), 429, "over_request_rate_limit");
    expect((await refresh(svc, b.refresh_token, ip)).status).toBe(200);
    svc.advance(windowMs);
    expect((await refresh(svc, first.refresh_token, ip)).status).toBe(200);
  });

  it("unknown refresh tokens are limited per address", async () => {
    const svc = accountService({ now: windowClock() });
    const ip = uniqueIp();
    for (let i = 0; i < 150; i++) expect((await refresh(svc, `unknown${String(i).padStart(25, "0")}`, ip)).status).toBe(400);
    await expectError(await refresh(svc, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", ip), 429, "over_request_rate_limit");
  });
});

// ---- access token ------------------------------------------------------------------------------

describe("access token", () => {
  it("is an HS256 JWT with the contract's claims", async () => {
    const svc = accountService();
    const email = uniqueEmail("jwt");
    const before = Math.floor(Date.now() / 1000);
    const s = await signUp(svc, email, PASSWORD, { theme: "dark" });
    const after = Math.ceil(Date.now() / 1000);
    const [h, p, sig] = s.access_token.split(".");
    expect(JSON.parse(atob(h.replace(/-/g, "+").replace(/_/g, "/")))).toMatchObject({ alg: "HS256", typ: "JWT" });
    // Signature checked independently with Web Crypto.
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    const sigBytes = Uint8Array.from(atob(sig.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    expect(await crypto.subtle.verify("HMAC", key, sigBytes, new TextEncoder().encode(`${h}.${p}`))).toBe(true);

    const claims = decodeJwtPayload(s.access_token)!;
    expect(claims).toMatchObject({
      iss: "http://localhost/auth/v1",
      sub: s.user.id,
      aud: "authenticated",
      email,
      phone: "",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { theme: "dark", email, email_verified: true, phone_verified: false, sub: s.user.id },
      role: "authenticated",
      aal: "aal1",
      is_anonymous: false,
    });
    const iat = claims.iat as number;
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(after);
    expect(claims.exp).toBe(iat + 3600);
    expect(s.expires_at).toBe(claims.exp);
    expect(claims.amr).toEqual([{ method: "password", timestamp: expect.any(Number) as number }]);
    expect(Math.abs((claims.amr as { timestamp: number }[])[0].timestamp - iat)).toBeLessThanOrEqual(1);
    expect(claims.session_id).toMatch(UUID);
    const row = await db.prepare("SELECT user_id FROM sessions WHERE id = ?").bind(claims.session_id).first<{ user_id: string }>();
    expect(row?.user_id).toBe(s.user.id);
  });

  it("uses issuerBase without a trailing slash", async () => {
    const svc = accountService({ issuerBase: "https://yingshi.example/" });
    const s = await signUp(svc, uniqueEmail("iss"));
    expect(decodeJwtPayload(s.access_token)!.iss).toBe("https://yingshi.example/auth/v1");
  });
});

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
    const noSub = await signJwt({ ...claims, sub: undefined }, SECRET);
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
      await expectError(await svc.request("GET", "/user", { token: await signJwt(payload, SECRET) }), 403, "bad_jwt", /^invalid JWT: /);
    }
    // The same token is refused by the service of another origin with the same key.
    const other = accountService({ issuerBase: "https://other.example" });
    await expectError(await other.request("GET", "/user", { token: s.access_token }), 403, "bad_jwt");
    expect((await svc.request("GET", "/user", { token: await signJwt(claims, SECRET) })).status).toBe(200);
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
    const ghost = await signJwt({ ...decodeJwtPayload(s.access_token)!, session_id: crypto.randomUUID() }, SECRET);
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

// ---- request bodies and routing -------------------------------------------------------------------

describe("request bodies and routing", () => {
  it("malformed or non-object JSON and wrongly typed fields → 400 bad_json", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("json"));
    for (const rawBody of ["{", "", "[]", "null", '"x"', "42", "\u00ff"]) {
      await expectError(await svc.request("POST", "/signup", { rawBody }), 400, "bad_json", "Could not parse request body as JSON");
      await expectError(await svc.request("POST", "/token?grant_type=password", { rawBody }), 400, "bad_json");
      await expectError(await svc.request("PUT", "/user", { rawBody, token: s.access_token }), 400, "bad_json");
    }
    await expectError(await svc.request("POST", "/signup", { body: { email: 5, password: PASSWORD } }), 400, "bad_json");
    await expectError(await svc.request("POST", "/signup", { body: { email: uniqueEmail("j"), password: PASSWORD, data: [1] } }), 400, "bad_json");
    await expectError(await svc.request("POST", "/token?grant_type=refresh_token", { body: { refresh_token: 1 } }), 400, "bad_json");
    await expectError(await svc.request("PUT", "/user", { token: s.access_token, body: { data: "x" } }), 400, "bad_json");
  });

  it("bodies over 16 KB → 413 request_too_large", async () => {
    const svc = accountService();
    const big = JSON.stringify({ email: uniqueEmail("big"), password: PASSWORD, data: { blob: "x".repeat(17_000) } });
    await expectError(await svc.request("POST", "/signup", { rawBody: big }), 413, "request_too_large");
    // Also without a Content-Length header (streamed body).
    const stream = new Blob([big]).stream();
    const res = await svc.fetch("http://localhost/auth/v1/signup", {
      method: "POST",
      headers: { "CF-Connecting-IP": uniqueIp() },
      body: stream,
    });
    await expectError(res, 413, "request_too_large");
  });

  it("never answers 5xx to odd input", async () => {
    const svc = accountService();
    const s = await signUp(svc, uniqueEmail("odd"));
    const bodies: unknown[] = [
      {},
      { email: null, password: null, data: null },
      { email: "a@b.c", password: "\u0000\u0000\u0000\u0000\u0000\u0000" },
      { email: "é@例子.中国", password: PASSWORD },
      { email: "a@b.c", password: PASSWORD, phone: "+8613800000000" },
      { phone: "+8613800000000", password: PASSWORD },
      { refresh_token: "____________" },
      { data: { ["__proto__"]: { polluted: true } } },
    ];
    const routes: [string, string][] = [
      ["POST", "/signup"],
      ["POST", "/token?grant_type=password"],
      ["POST", "/token?grant_type=refresh_token"],
      ["PUT", "/user"],
      ["POST", "/logout?scope=%00"],
    ];
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const res = await svc.request(method, path, { body, token: s.access_token });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("unknown paths → 404, wrong methods → 405, non-/auth/v1 URLs → 404 from accountServiceFetch", async () => {
    const svc = accountService();
    await expectError(await svc.request("GET", "/nothing"), 404, "not_found");
    await expectError(await svc.request("GET", "/signup"), 405, "method_not_allowed");
    await expectError(await svc.request("DELETE", "/user"), 405, "method_not_allowed");
    await expectError(await svc.fetch("http://localhost/rest/v1/videos"), 404, "not_found");
  });

  it("createAccountService serves the same routes through app.fetch", async () => {
    const app = createAccountService({ db, jwtSecret: SECRET, issuerBase: "http://localhost", autoConfirm: true });
    const res = await app.fetch(new Request("http://localhost/auth/v1/user", { headers: { Authorization: "Bearer nope" } }));
    await expectError(res, 403, "bad_jwt");
  });
});

// ---- confirmation required --------------------------------------------------------------------------

describe("autoConfirm false", () => {
  it("sign-up returns a bare unconfirmed user; sign-in → 400 email_not_confirmed", async () => {
    const svc = accountService({ autoConfirm: false });
    const email = uniqueEmail("unconfirmed");
    const res = await svc.request("POST", "/signup", { body: { email, password: PASSWORD, data: { n: 1 } } });
    expect(res.status).toBe(200);
    const user = await res.json<Record<string, unknown>>();
    expect(user).not.toHaveProperty("access_token");
    expect(user).not.toHaveProperty("email_confirmed_at");
    expect(user).not.toHaveProperty("confirmed_at");
    expect(user).not.toHaveProperty("last_sign_in_at");
    expect(user.confirmation_sent_at).toMatch(ISO);
    expect(user).toMatchObject({ email, user_metadata: { n: 1, email_verified: false }, identities: [{ provider: "email" }] });
    await expectError(
      await svc.request("POST", "/token?grant_type=password", { body: { email, password: PASSWORD } }),
      400,
      "email_not_confirmed",
      "Email not confirmed",
    );
    // A wrong password still says invalid_credentials (the confirmation state is not revealed).
    await expectError(await svc.request("POST", "/token?grant_type=password", { body: { email, password: "wrong password" } }), 400, "invalid_credentials");
    // Signing up again returns the same (still unconfirmed) user; the password is unchanged.
    const again = await (await svc.request("POST", "/signup", { body: { email, password: "other password" } })).json<Record<string, unknown>>();
    expect(again.id).toBe(user.id);
    const row = await db.prepare("SELECT encrypted_password FROM users WHERE id = ?").bind(user.id).first<{ encrypted_password: string }>();
    expect(await verifyPassword(PASSWORD, row!.encrypted_password)).toBe(true);
  });

  it("sign-up of an already confirmed address returns a fake user with identities []", async () => {
    const email = uniqueEmail("taken");
    const real = await signUp(accountService(), email); // confirmed via auto-confirm
    const svc = accountService({ autoConfirm: false });
    const res = await svc.request("POST", "/signup", { body: { email: email.toUpperCase(), password: "whatever1" } });
    expect(res.status).toBe(200);
    const fake = await res.json<Record<string, unknown>>();
    expect(fake.id).toMatch(UUID);
    expect(fake.id).not.toBe(real.user.id);
    expect(fake.identities).toEqual([]);
    expect(fake).toMatchObject({ email, aud: "authenticated", phone: "", is_anonymous: false });
    expect(fake.confirmation_sent_at).toMatch(ISO);
    expect(fake).not.toHaveProperty("access_token");
    expect(fake).not.toHaveProperty("email_confirmed_at");
    // Nothing changed for the real user.
    await signIn(svc, email);
  });
});

// ---- options from env -------------------------------------------------------------------------

describe("accountServiceOptions", () => {
  it("reads DB, AUTH_JWT_SECRET, AUTH_AUTO_CONFIRM (a real boolean) and the session days; issuer is the request origin, links are on SITE_URL", () => {
    const vars = { ...env, AUTH_JWT_SECRET: "s".repeat(32), AUTH_AUTO_CONFIRM: "0", AUTH_SESSION_INACTIVITY_DAYS: "7", AUTH_SESSION_LIFETIME_DAYS: "14" };
    const o = accountServiceOptions(vars, configOf(vars), "https://site.example/api/auth/x?y=1");
    expect(o).toMatchObject({ jwtSecret: "s".repeat(32), autoConfirm: false, issuerBase: "https://site.example" });
    // Links in e-mails: never the request's host — SITE_URL, or a local request's origin, or none.
    expect(o.linkOrigin).toBeNull();
    expect(accountServiceOptions(vars, configOf({ ...vars, SITE_URL: "https://tv.example.com/" }), "https://site.example/x").linkOrigin).toBe(
      "https://tv.example.com",
    );
    expect(accountServiceOptions(vars, configOf(vars), "http://127.0.0.1:8787/x").linkOrigin).toBe("http://127.0.0.1:8787");
    expect(o.sessionPolicy).toEqual({ inactivityMs: 7 * 86_400_000, lifetimeMs: 14 * 86_400_000 });
    expect(o.db).toBe(env.DB);
    const bare = { ...env, AUTH_JWT_SECRET: undefined, AUTH_AUTO_CONFIRM: undefined };
    const d = accountServiceOptions(bare, configOf(bare), "not a url");
    // No secret: no key from the repository either — the service provisions one in D1.
    expect(d).toMatchObject({ jwtSecret: undefined, autoConfirm: true, issuerBase: "http://localhost" });
  });
});
