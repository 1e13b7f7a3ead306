/**
 * The e-mail flows of the account API: 忘记密码 (POST /recover → e-mail → /auth/reset → POST /reset
 * sets the new password), sign-up confirmation (POST /resend; the link opens /auth/confirm, whose
 * button POSTs /verify), and the e-mail change (PUT /email → a link to the new address →
 * /auth/confirm → POST /verify). Requests for an address answer the same whether or not it has an
 * account.
 *
 * Opening a link never changes who is signed in (docs/decisions/0014-email-links-confirm-by-post.md):
 * GET /verify only leads to the confirmation page, and a POST — CSRF-checked like every other —
 * uses the link. A browser signed in as someone else stays signed in as that person; the link's
 * account is confirmed and told apart, never swapped in.
 */
import type { Session, SupabaseClient, User } from "@supabase/supabase-js";
import type { Hono } from "hono";
import { signUpProblem } from "../../shared/auth-messages";
import { CONFIRM_PATH, isLinkType, type LinkType } from "../../shared/auth-page-data";
import type { AppContext, AppEnv } from "../app-env";
import { readAuthBody, textField } from "./body";
import { mailLinkOriginOf } from "./mail-origin";
import { noteSignIn } from "./sign-in-throttle";
import { API_RATE_LIMITS, formRedirect, jsonError, limited, serviceError } from "./responses";
import { applySession, createRequestSession, currentUser, libraryOf, sessionlessClient, toSessionUser, type RequestSession } from "./session";

/** Where a used link leads. */
const AFTER_LINK: Record<LinkType, string> = { signup: "/", email_change: "/profile?notice=email-changed" };

/** POST /recover and /resend: one e-mail request, the same answer for every address. */
async function emailRequest(c: AppContext, kind: "recover" | "resend"): Promise<Response> {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const mode = kind === "recover" ? "forgot" : "signin";
  const back = (query: string) => formRedirect(c, session, `/auth?mode=${mode}&${query}`);
  if (await limited(c, API_RATE_LIMITS.email)) return body.form ? back("error=over_request_rate_limit") : jsonError(c, 429, "over_request_rate_limit");
  const email = textField(body.value, "email");
  if (!email) return body.form ? back("error=email_address_invalid") : jsonError(c, 400, "email_address_invalid");
  const links = mailLinkOriginOf(c);
  if (!links.ok) return body.form ? back("error=site_url_missing") : jsonError(c, 503, "site_url_missing");
  const client = sessionlessClient(session);
  const { error } =
    kind === "recover"
      ? await client.auth.resetPasswordForEmail(email, links.origin ? { redirectTo: `${links.origin}/auth/reset` } : {})
      : await client.auth.resend({ type: "signup", email });
  if (error) {
    const code = error.code === "validation_failed" ? "email_address_invalid" : (error.code ?? "unknown");
    return body.form ? back(`error=${encodeURIComponent(code)}`) : error.code === "validation_failed" ? jsonError(c, 400, code) : serviceError(c, error);
  }
  return body.form ? back(`notice=${kind === "recover" ? "reset-sent" : "confirmation-sent"}`) : c.json({ ok: true });
}

type LinkFailure = { ok: false; code: string; unavailable: boolean };

/** A used link: its session and user, and who the browser was signed in as before (null: nobody). */
interface UsedLink {
  ok: true;
  /** Holds the link's session (in memory only). */
  client: SupabaseClient;
  linked: Session;
  linkedUser: User;
  current: User | null;
}

/**
 * Uses a one-time link with supabase-js's verifyOtp, without touching the visitor's cookies: the
 * link's session stays in a client of its own until the caller decides (`keepOrAdopt`).
 */
async function redeemLink(session: RequestSession, tokenHash: string, type: LinkType | "recovery"): Promise<UsedLink | LinkFailure> {
  const before = await currentUser(session);
  // Who is signed in must be known before a link is used: a service that cannot say is unavailable.
  if (!before.user && before.transient) return { ok: false, code: "service_unavailable", unavailable: true };
  const client = sessionlessClient(session);
  const { data, error } = await client.auth.verifyOtp({ token_hash: tokenHash.slice(0, 256), type });
  if (error || !data.session || !data.user) {
    const status = error?.status ?? 0;
    const unavailable = status === 0 || status >= 500;
    return { ok: false, code: unavailable ? "service_unavailable" : "otp_expired", unavailable };
  }
  return { ok: true, client, linked: data.session, linkedUser: data.user, current: before.user };
}

/** Ends the link's own session at the service (the visitor keeps the one they had). */
async function dismiss(used: UsedLink): Promise<void> {
  const { error } = await used.client.auth.signOut({ scope: "local" });
  if (error) console.error("email link: ending the link's session failed", error.message);
}

/**
 * After a used link: a browser signed in as nobody takes the link's session; one signed in as the
 * same account keeps its own (or, when `ownEnded` — a new password ended the account's other
 * sessions — takes the link's); one signed in as another account keeps that account, and the
 * link's session is ended. Returns the account the browser is signed in as afterwards.
 */
async function keepOrAdopt(session: RequestSession, used: UsedLink, ownEnded: boolean): Promise<{ user: User; otherAccount: boolean } | LinkFailure> {
  const { current, linkedUser, linked } = used;
  if (current && current.id !== linkedUser.id) {
    await dismiss(used);
    return { user: current, otherAccount: true };
  }
  if (current && !ownEnded) {
    await dismiss(used);
    return { user: linkedUser, otherAccount: false };
  }
  const { error } = await session.client.auth.setSession({ access_token: linked.access_token, refresh_token: linked.refresh_token });
  if (error) {
    const status = error.status ?? 0;
    return { ok: false, code: status === 0 || status >= 500 ? "service_unavailable" : "otp_expired", unavailable: status === 0 || status >= 500 };
  }
  return { user: linkedUser, otherAccount: false };
}

/** GET /verify (links of earlier mails, Supabase templates): only leads to the confirmation page; uses nothing. */
function verifyLinkPage(c: AppContext): Response {
  const type = c.req.query("type");
  const tokenHash = (c.req.query("token_hash") ?? "").slice(0, 256);
  const query = new URLSearchParams(isLinkType(type) && tokenHash ? { token_hash: tokenHash, type } : { error: "otp_expired" });
  return c.redirect(`${CONFIRM_PATH}?${query.toString()}`, 303);
}

/** POST /verify {token_hash, type}: the confirmation page's button (or fetch) uses a sign-up or e-mail-change link. */
async function confirmLink(c: AppContext): Promise<Response> {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const type = textField(body.value, "type", 32);
  const tokenHash = textField(body.value, "token_hash", 256);
  const page = (params: Record<string, string>) => formRedirect(c, session, `${CONFIRM_PATH}?${new URLSearchParams(params).toString()}`);
  if (!isLinkType(type) || !tokenHash) return body.form ? page({ error: "otp_expired" }) : jsonError(c, 400, "otp_expired");
  const used = await redeemLink(session, tokenHash, type);
  const outcome = used.ok ? await keepOrAdopt(session, used, false) : used;
  if ("ok" in outcome) {
    if (body.form) return page(outcome.unavailable ? { token_hash: tokenHash, type, error: "service_unavailable" } : { type, error: outcome.code });
    return applySession(session, outcome.unavailable ? jsonError(c, 503, "service_unavailable") : jsonError(c, 400, "otp_expired"));
  }
  if (body.form) return outcome.otherAccount ? page({ type, notice: "other-account" }) : formRedirect(c, session, AFTER_LINK[type]);
  return applySession(session, c.json({ user: toSessionUser(outcome.user), library: libraryOf(outcome.user), otherAccount: outcome.otherAccount }));
}

/** POST /reset {token_hash, password, confirmPassword}: the new password; signed in unless the browser is signed in as another account. */
async function resetPassword(c: AppContext): Promise<Response> {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const tokenHash = textField(body.value, "token_hash", 256);
  const back = (code: string) => formRedirect(c, session, `/auth/reset?token_hash=${encodeURIComponent(tokenHash)}&error=${encodeURIComponent(code)}`);
  const password = typeof body.value.password === "string" ? body.value.password.slice(0, 1024) : "";
  const confirm = typeof body.value.confirmPassword === "string" ? body.value.confirmPassword : body.form ? "" : password;
  const problem = signUpProblem(password, confirm);
  if (problem) return body.form ? back(problem) : jsonError(c, 400, problem);
  if (!tokenHash) return body.form ? back("otp_expired") : jsonError(c, 400, "otp_expired");
  const used = await redeemLink(session, tokenHash, "recovery");
  if (!used.ok) {
    if (body.form) return back(used.unavailable ? "service_unavailable" : "otp_expired");
    return applySession(session, used.unavailable ? jsonError(c, 503, "service_unavailable") : jsonError(c, 400, "otp_expired"));
  }
  const { data, error } = await used.client.auth.updateUser({ password });
  if (error || !data.user) {
    const code = error?.code ?? "unknown";
    return body.form ? back(code) : applySession(session, error ? serviceError(c, error) : jsonError(c, 400, code));
  }
  // A password reset lifts the sign-in throttle of the address.
  if (data.user.email) await noteSignIn(c, data.user.email, "success");
  // The new password ended the account's other sessions: a browser of the same account takes the link's.
  const outcome = await keepOrAdopt(session, used, true);
  if ("ok" in outcome) {
    if (body.form) return back(outcome.code);
    return applySession(session, outcome.unavailable ? jsonError(c, 503, "service_unavailable") : jsonError(c, 400, outcome.code));
  }
  if (body.form) return formRedirect(c, session, outcome.otherAccount ? "/auth/reset?notice=other-account" : "/");
  return applySession(session, c.json({ user: toSessionUser(outcome.user), library: libraryOf(outcome.user), otherAccount: outcome.otherAccount }));
}

/** PUT /email {email}: sends a confirmation link to the new address; the account changes when it is used. */
async function changeEmail(c: AppContext): Promise<Response> {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const result = await currentUser(session);
  if (!result.user) return applySession(session, result.transient ? jsonError(c, 503, "service_unavailable") : jsonError(c, 401, "not_signed_in"));
  const email = textField(body.value, "email");
  if (!email) return applySession(session, jsonError(c, 400, "email_address_invalid"));
  const links = mailLinkOriginOf(c);
  if (!links.ok) return applySession(session, jsonError(c, 503, "site_url_missing"));
  const { data, error } = await session.client.auth.updateUser({ email }, links.origin ? { emailRedirectTo: `${links.origin}/profile` } : {});
  if (error || !data.user) {
    if (error?.code === "validation_failed") return applySession(session, jsonError(c, 400, "email_address_invalid"));
    return applySession(session, error ? serviceError(c, error) : jsonError(c, 400, "unknown"));
  }
  return applySession(session, c.json({ ok: true, pendingEmail: data.user.new_email ?? null }, 200, { "Cache-Control": "private, no-store" }));
}

export function emailLinkRoutes(api: Hono<AppEnv>): void {
  api.post("/recover", (c) => emailRequest(c, "recover"));
  api.post("/resend", (c) => emailRequest(c, "resend"));
  api.get("/verify", verifyLinkPage);
  api.post("/verify", confirmLink);
  api.post("/reset", resetPassword);
  api.put("/email", changeEmail);
}
