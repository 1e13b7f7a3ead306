// The official @supabase/supabase-js client, unchanged, against the embedded account service
// (worker/account-service) inside workerd, through its in-process fetch.
import { isAuthApiError, isAuthSessionMissingError, isAuthWeakPasswordError } from "@supabase/supabase-js";
import type { Session, SupabaseClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { accountService as harness, type AccountService } from "./helpers/account-service";
import { uniqueEmail } from "./helpers/unique";

const PASSWORD = "contract-password-1";

async function signedUp(h: AccountService, email = uniqueEmail("user")): Promise<{ client: SupabaseClient; session: Session; email: string }> {
  const client = h.client();
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  expect(data.session).not.toBeNull();
  return { client, session: data.session!, email };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("supabase-js against the embedded account service", () => {
  it("signUp returns a session and a complete user", async () => {
    const h = harness();
    const client = h.client();
    const email = uniqueEmail("SignUp").replace("signup", "SignUp");
    const { data, error } = await client.auth.signUp({ email, password: PASSWORD, options: { data: { nickname: "小红" } } });
    expect(error).toBeNull();
    const { session, user } = data;
    expect(session).not.toBeNull();
    expect(session!.token_type).toBe("bearer");
    expect(session!.expires_in).toBe(3600);
    expect(session!.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(session!.refresh_token.length).toBeGreaterThanOrEqual(22);
    expect(session!.user.id).toBe(user!.id);
    expect(user).toMatchObject({
      aud: "authenticated",
      role: "authenticated",
      email: email.toLowerCase(),
      phone: "",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { nickname: "小红", email: email.toLowerCase(), email_verified: true, phone_verified: false, sub: user!.id },
      is_anonymous: false,
    });
    expect(user!.email_confirmed_at).toMatch(ISO);
    expect(user!.confirmed_at).toMatch(ISO);
    expect(user!.last_sign_in_at).toMatch(ISO);
    expect(user!.created_at).toMatch(ISO);
    expect(user!.updated_at).toMatch(ISO);
    expect(user!.identities).toHaveLength(1);
    expect(user!.identities![0]).toMatchObject({ provider: "email", user_id: user!.id, id: user!.id });
    // The client now holds the session.
    const current = await client.auth.getSession();
    expect(current.data.session?.access_token).toBe(session!.access_token);
  });

  it("works with the PKCE flow type (@supabase/ssr's default) too", async () => {
    const h = harness();
    const email = uniqueEmail("pkce");
    const up = await h.client("pkce").auth.signUp({ email, password: PASSWORD });
    expect(up.error).toBeNull();
    expect(up.data.session?.access_token).toBeTruthy();
    const client = h.client("pkce");
    const inn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(inn.error).toBeNull();
    expect((await client.auth.getUser()).data.user?.email).toBe(email);
    expect((await client.auth.signOut()).error).toBeNull();
  });

  it("signUp errors surface code, status and message", async () => {
    const h = harness();
    const email = uniqueEmail("dup");
    await signedUp(h, email);
    const dup = await h.client().auth.signUp({ email, password: PASSWORD });
    expect(isAuthApiError(dup.error)).toBe(true);
    expect(dup.error).toMatchObject({ code: "user_already_exists", status: 422, message: "User already registered" });

    const weak = await h.client().auth.signUp({ email: uniqueEmail("weak"), password: "123" });
    expect(isAuthWeakPasswordError(weak.error)).toBe(true);
    expect(weak.error).toMatchObject({ code: "weak_password", status: 422, message: "Password should be at least 6 characters." });
    expect((weak.error as unknown as { reasons: string[] }).reasons).toEqual(["length"]);

    const bad = await h.client().auth.signUp({ email: "no-at-sign", password: PASSWORD });
    expect(bad.error).toMatchObject({ code: "validation_failed", status: 400, message: "Unable to validate email address: invalid format" });
  });

  it("signInWithPassword: success, wrong password and unknown user", async () => {
    const h = harness();
    const { email, session: first } = await signedUp(h);
    const client = h.client();
    const ok = await client.auth.signInWithPassword({ email: email.toUpperCase(), password: PASSWORD });
    expect(ok.error).toBeNull();
    expect(ok.data.user?.email).toBe(email);
    expect(ok.data.session?.refresh_token).not.toBe(first.refresh_token);

    for (const creds of [
      { email, password: "wrong-password" },
      { email: uniqueEmail("nobody"), password: PASSWORD },
    ]) {
      const bad = await h.client().auth.signInWithPassword(creds);
      expect(isAuthApiError(bad.error)).toBe(true);
      expect(bad.error).toMatchObject({ code: "invalid_credentials", status: 400, message: "Invalid login credentials" });
      expect(bad.data.session).toBeNull();
    }
  });

  it("refreshSession rotates; reuse within 10 s and parent reuse return the active token; later reuse revokes the session", async () => {
    const h = harness();
    const { client, session: s0 } = await signedUp(h);
    const t0 = s0.refresh_token;

    h.advance(1_000); // a new iat, so a new access token
    const r1 = await client.auth.refreshSession();
    expect(r1.error).toBeNull();
    const t1 = r1.data.session!.refresh_token;
    expect(t1).not.toBe(t0);
    expect(r1.data.session!.access_token).not.toBe(s0.access_token);
    expect((await client.auth.getUser()).data.user?.id).toBe(s0.user.id);

    const r2 = await client.auth.refreshSession();
    expect(r2.error).toBeNull();
    const t2 = r2.data.session!.refresh_token;
    expect(t2).not.toBe(t1);

    // t0 again within 10 s of its revocation (a concurrent tab): it is no longer the parent of
    // the active token, but still works and gets the active token.
    h.advance(3_000);
    const again = await h.client().auth.refreshSession({ refresh_token: t0 });
    expect(again.error).toBeNull();
    expect(again.data.session!.refresh_token).toBe(t2);

    // t1 is the parent of the active t2: returns t2, even a minute later.
    h.advance(60_000);
    const parent = await h.client().auth.refreshSession({ refresh_token: t1 });
    expect(parent.error).toBeNull();
    expect(parent.data.session!.refresh_token).toBe(t2);

    // t0, long after its revocation: refresh_token_already_used, and the session is gone.
    const reuse = await h.client().auth.refreshSession({ refresh_token: t0 });
    expect(isAuthApiError(reuse.error)).toBe(true);
    expect(reuse.error).toMatchObject({ code: "refresh_token_already_used", status: 400, message: "Invalid Refresh Token: Already Used" });
    const newest = await h.client().auth.refreshSession({ refresh_token: t2 });
    expect(newest.error).toMatchObject({ code: "refresh_token_already_used", status: 400 });
    const user = await h.client().auth.getUser(r2.data.session!.access_token);
    expect(isAuthSessionMissingError(user.error)).toBe(true);
  });

  it("refreshSession with an unknown token → refresh_token_not_found", async () => {
    const h = harness();
    const res = await h.client().auth.refreshSession({ refresh_token: "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ" });
    expect(res.error).toMatchObject({
      code: "refresh_token_not_found",
      status: 400,
      message: "Invalid Refresh Token: Refresh Token Not Found",
    });
  });

  it("getUser with the client's session and with an explicit token", async () => {
    const h = harness();
    const { client, session } = await signedUp(h);
    const own = await client.auth.getUser();
    expect(own.error).toBeNull();
    expect(own.data.user).toMatchObject({ id: session.user.id, email: session.user.email });
    const explicit = await h.client().auth.getUser(session.access_token);
    expect(explicit.data.user?.id).toBe(session.user.id);
    const bad = await h.client().auth.getUser("not-a-jwt");
    expect(bad.error).toMatchObject({ code: "bad_jwt", status: 403 });
  });

  it("updateUser merges data key by key and deletes null keys", async () => {
    const h = harness();
    const { client, session } = await signedUp(h);
    const first = await client.auth.updateUser({ data: { nickname: "阿明", theme: "dark", keep: true } });
    expect(first.error).toBeNull();
    expect(first.data.user?.user_metadata).toMatchObject({ nickname: "阿明", theme: "dark", keep: true, sub: session.user.id });
    const second = await client.auth.updateUser({ data: { theme: null, lang: "zh-CN" } });
    expect(second.error).toBeNull();
    const meta = second.data.user!.user_metadata;
    expect(meta).not.toHaveProperty("theme");
    expect(meta).toMatchObject({ nickname: "阿明", keep: true, lang: "zh-CN", email: session.user.email });
    // The session's user follows (USER_UPDATED), and the server agrees.
    expect((await client.auth.getSession()).data.session?.user.user_metadata).toEqual(meta);
    expect((await client.auth.getUser()).data.user?.user_metadata).toEqual(meta);
  });

  it("updateUser changes the password; same_password and weak_password are reported", async () => {
    const h = harness();
    const { client, email } = await signedUp(h);
    const same = await client.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({
      code: "same_password",
      status: 422,
      message: "New password should be different from the old password.",
    });
    const weak = await client.auth.updateUser({ password: "abc" });
    expect(isAuthWeakPasswordError(weak.error)).toBe(true);
    expect(weak.error).toMatchObject({ code: "weak_password", status: 422 });

    const changed = await client.auth.updateUser({ password: "a-new-password-2" });
    expect(changed.error).toBeNull();
    const old = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(old.error).toMatchObject({ code: "invalid_credentials", status: 400 });
    const fresh = await h.client().auth.signInWithPassword({ email, password: "a-new-password-2" });
    expect(fresh.error).toBeNull();
  });

  it("signOut ends the session: the old access token gets 403 session_not_found", async () => {
    const h = harness();
    const { client, session } = await signedUp(h);
    const out = await client.auth.signOut();
    expect(out.error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();

    const raw = await h.request("GET", "/user", { token: session.access_token });
    expect(raw.status).toBe(403);
    expect(raw.headers.get("X-Supabase-Api-Version")).toBe("2024-01-01");
    expect(await raw.json()).toEqual({ code: "session_not_found", message: "Session from session_id claim in JWT does not exist" });

    // supabase-js maps session_not_found to AuthSessionMissingError.
    const viaClient = await h.client().auth.getUser(session.access_token);
    expect(isAuthSessionMissingError(viaClient.error)).toBe(true);
    const refresh = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error).toMatchObject({ code: "refresh_token_not_found", status: 400 });
  });

  it("signOut({ scope: 'others' }) keeps the current session only", async () => {
    const h = harness();
    const { client: a, email } = await signedUp(h);
    const b = h.client();
    expect((await b.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await a.auth.signOut({ scope: "others" })).error).toBeNull();
    expect((await a.auth.getUser()).error).toBeNull();
    expect(isAuthSessionMissingError((await b.auth.getUser()).error)).toBe(true);
  });

  it("with confirmation required: signUp returns a user without session; sign-in says email_not_confirmed", async () => {
    const h = harness({ autoConfirm: false });
    const email = uniqueEmail("confirm");
    const { data, error } = await h.client().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.confirmation_sent_at).toMatch(ISO);
    expect(data.user?.email_confirmed_at).toBeUndefined();
    const signIn = await h.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toMatchObject({ code: "email_not_confirmed", status: 400, message: "Email not confirmed" });

    // An address that is already confirmed: a fake user with no identities.
    const taken = uniqueEmail("taken");
    await signedUp(harness(), taken);
    const fake = await h.client().auth.signUp({ email: taken, password: PASSWORD });
    expect(fake.error).toBeNull();
    expect(fake.data.session).toBeNull();
    expect(fake.data.user?.identities).toEqual([]);
  });
});
