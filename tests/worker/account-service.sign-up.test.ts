// Raw-HTTP tests of the embedded account service's sign-up (worker/account-service) inside workerd:
// POST /signup, how passwords are stored, and sign-up with confirmation required (autoConfirm false).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PBKDF2_ITERATIONS } from "../../worker/account-service";
import { hashPassword, verifyPassword } from "../../worker/account-service/password";
import { uniqueEmail, uniqueIp } from "./helpers/unique";
import { accountService, PASSWORD, windowClock, expectError, signUp, signIn, ISO, UUID } from "./helpers/account-service";

const db = env.DB;

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
