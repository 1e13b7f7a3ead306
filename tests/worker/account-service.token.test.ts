// Raw-HTTP tests of the embedded account service's tokens (worker/account-service) inside workerd:
// POST /token (password and refresh grants, their rate limits) and the access token's claims.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../worker/account-service";
import { decodeJwtPayload } from "../../worker/account-service/jwt";
import { uniqueEmail, uniqueIp } from "./helpers/unique";
import { accountService, JWT_SECRET, PASSWORD, windowClock, expectError, type SessionBody, signUp, signIn, refresh, UUID } from "./helpers/account-service";

const db = env.DB;

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
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(JWT_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
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
