// The embedded account service with a movable clock (worker/account-service): throttling
// intervals, session inactivity and lifetime, the D1 signing key; and the supabase-js auth
// client's resetPasswordForEmail, resend, verifyOtp and signOut scopes against it.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MailMessage } from "../../worker/mail/index";
import { accountService as harness, type AccountService } from "./helpers/account-service";
import { uniqueEmail } from "./helpers/unique";

const PASSWORD = "hold-password-1";
const DAY = 86_400_000;

async function account(h: AccountService, email = uniqueEmail("hold")) {
  const client = h.client();
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { client, email, session: data.session! };
}

const signIn = (h: AccountService, email: string, password: string) => h.request("POST", "/token?grant_type=password", { body: { email, password } });
const refresh = (h: AccountService, token: string) => h.request("POST", "/token?grant_type=refresh_token", { body: { refresh_token: token } });
const tokenIn = (m: MailMessage) => new URL(/https?:\/\/\S+/.exec(m.text)![0]).searchParams.get("token_hash")!;

describe("per-account throttling intervals", () => {
  it("locks for 1 minute after 5 wrong passwords, then 2, then 4; a right password after a lock signs in and clears it", async () => {
    const h = harness();
    const { email } = await account(h);
    for (let i = 0; i < 5; i++) expect((await signIn(h, email, "wrong")).status).toBe(400);
    const locked = await signIn(h, email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: "too_many_attempts" });
    expect(Number(locked.headers.get("Retry-After"))).toBe(60);

    h.advance(61_000);
    expect((await signIn(h, email, "wrong")).status).toBe(400); // one more wrong: locked again, twice as long
    h.advance(119_000);
    expect((await signIn(h, email, PASSWORD)).status).toBe(429);
    h.advance(2_000);
    expect((await signIn(h, email, "wrong")).status).toBe(400);
    h.advance(239_000);
    expect((await signIn(h, email, PASSWORD)).status).toBe(429);
    h.advance(2_000);
    expect((await signIn(h, email, PASSWORD)).status).toBe(200);
    // Cleared: five more mistakes are needed for the next lock, and it is one minute again.
    for (let i = 0; i < 4; i++) expect((await signIn(h, email, "wrong")).status).toBe(400);
    expect((await signIn(h, email, PASSWORD)).status).toBe(200);
  });

  it("15 quiet minutes forget earlier mistakes", async () => {
    const h = harness();
    const { email } = await account(h);
    for (let i = 0; i < 4; i++) await signIn(h, email, "wrong");
    h.advance(16 * 60_000);
    for (let i = 0; i < 4; i++) expect((await signIn(h, email, "wrong")).status).toBe(400);
    expect((await signIn(h, email, PASSWORD)).status).toBe(200);
  });
});

describe("sessions end", () => {
  it("after 30 days without a refresh (inactivity)", async () => {
    const h = harness();
    const { session } = await account(h);
    h.advance(29 * DAY);
    const kept = await refresh(h, session.refresh_token);
    expect(kept.status).toBe(200);
    const next = (await kept.json<{ refresh_token: string; access_token: string }>()).refresh_token;
    h.advance(31 * DAY);
    const ended = await refresh(h, next);
    expect(ended.status).toBe(400);
    expect(await ended.json()).toMatchObject({ code: "session_expired" });
  });

  it("90 days after the sign-in even when refreshed every 20 days (absolute lifetime)", async () => {
    const h = harness();
    const { session } = await account(h);
    let token = session.refresh_token;
    for (let day = 20; day <= 80; day += 20) {
      h.advance(20 * DAY);
      const res = await refresh(h, token);
      expect(res.status, `day ${day}`).toBe(200);
      token = (await res.json<{ refresh_token: string }>()).refresh_token;
    }
    h.advance(11 * DAY);
    const ended = await refresh(h, token);
    expect(ended.status).toBe(400);
    expect(await ended.json()).toMatchObject({ code: "session_expired" });
  });

  it("the timeouts are configurable; an ended session's access token is refused too", async () => {
    const h = harness({ sessionPolicy: { inactivityMs: DAY, lifetimeMs: 3 * DAY } });
    const { client, session } = await account(h);
    h.advance(DAY - 60_000);
    expect((await refresh(h, session.refresh_token)).status).toBe(200);
    h.advance(2 * DAY);
    const { error } = await client.auth.getUser(session.access_token);
    expect(error).toMatchObject({ status: 403 });
    expect((await refresh(h, session.refresh_token)).status).toBe(400);
  });
});

describe("signing key kept in D1", () => {
  it("every service instance without a secret signs and accepts with the same stored key", async () => {
    const a = harness({ jwtSecret: undefined });
    const b = harness({ jwtSecret: "" });
    const { session } = await account(a);
    const { data, error } = await b.client().auth.getUser(session.access_token);
    expect(error).toBeNull();
    expect(data.user?.id).toBe(session.user.id);
    const keys = await env.DB.prepare("SELECT COUNT(*) AS n FROM auth_keys").first<{ n: number }>();
    expect(keys?.n).toBe(1);
    // A service with a configured secret does not accept tokens of the stored key.
    expect((await harness().client().auth.getUser(session.access_token)).error).toMatchObject({ status: 403 });
  });
});

describe("supabase-js against the embedded service: e-mail links and sign-out scopes", () => {
  it("resetPasswordForEmail answers alike for known and unknown addresses; verifyOtp(recovery) signs in with PASSWORD_RECOVERY; the new password works", async () => {
    const h = harness();
    const { email } = await account(h);
    const client = h.client();
    const known = await client.auth.resetPasswordForEmail(email, { redirectTo: "http://localhost/auth/reset" });
    const unknown = await client.auth.resetPasswordForEmail(uniqueEmail("nobody"));
    expect(known).toEqual({ data: {}, error: null });
    expect(unknown).toEqual(known);
    expect(h.mail.map((m) => m.to)).toEqual([email]);

    const events: string[] = [];
    const reader = h.client();
    reader.auth.onAuthStateChange((event) => void events.push(event));
    const { data, error } = await reader.auth.verifyOtp({ token_hash: tokenIn(h.mail[0]), type: "recovery" });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(events).toContain("PASSWORD_RECOVERY");
    expect((await reader.auth.updateUser({ password: "brand-new-pass" })).error).toBeNull();
    expect((await h.client().auth.signInWithPassword({ email, password: "brand-new-pass" })).error).toBeNull();
    // Single use.
    const again = await h.client().auth.verifyOtp({ token_hash: tokenIn(h.mail[0]), type: "recovery" });
    expect(again.error).toMatchObject({ code: "otp_expired", status: 403 });
  });

  it("resend({type: 'signup'}) sends a new confirmation link (the old one stops working); sign-in works after verifyOtp", async () => {
    const h = harness({ autoConfirm: false });
    const email = uniqueEmail("resend");
    const signUp = await h.client().auth.signUp({ email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();
    h.advance(61_000); // one mail per address per minute
    const resent = await h.client().auth.resend({ type: "signup", email });
    expect(resent.error).toBeNull();
    expect(h.mail).toHaveLength(2);
    expect((await h.client().auth.verifyOtp({ token_hash: tokenIn(h.mail[0]), type: "signup" })).error).toMatchObject({ code: "otp_expired" });
    expect((await h.client().auth.verifyOtp({ token_hash: tokenIn(h.mail[1]), type: "signup" })).error).toBeNull();
    expect((await h.client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    // Resending right away is limited per address, and unknown addresses answer alike.
    const tooSoon = await h.client().auth.resend({ type: "signup", email: uniqueEmail("never") });
    expect(tooSoon.error).toBeNull();
  });

  it("signOut scopes: others keeps this session, local ends only this one, global ends all", async () => {
    const h = harness();
    const { email } = await account(h);
    const devices = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const client = h.client();
        const { data } = await client.auth.signInWithPassword({ email, password: PASSWORD });
        return { client, token: data.session!.access_token };
      }),
    );
    const alive = async () => Promise.all(devices.map(async (d) => !(await h.client().auth.getUser(d.token)).error));

    expect((await devices[0].client.auth.signOut({ scope: "others" })).error).toBeNull();
    expect(await alive()).toEqual([true, false, false, false]);

    const more = h.client();
    const { data } = await more.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await more.auth.signOut({ scope: "local" })).error).toBeNull();
    expect((await h.client().auth.getUser(data.session!.access_token)).error?.name).toBe("AuthSessionMissingError");
    expect((await alive())[0]).toBe(true);

    const last = h.client();
    await last.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await last.auth.signOut({ scope: "global" })).error).toBeNull();
    expect(await alive()).toEqual([false, false, false, false]);
  });
});
