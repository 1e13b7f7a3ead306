/**
 * The e-mail flows of the account API: 忘记密码 (POST /recover → e-mail → /auth/reset → POST /reset
 * sets the new password and signs in), sign-up confirmation (POST /resend, GET /verify), and the
 * e-mail change (PUT /email → a link to the new address → GET /verify). Requests for an address
 * answer the same whether or not it has an account.
 */
import type { Hono } from "hono";
import { signUpProblem } from "../../shared/auth-messages";
import type { AppContext, AppEnv } from "../app-env";
import { readAuthBody, textField } from "./body";
import { noteSignIn } from "./sign-in-throttle";
import { API_RATE_LIMITS, formRedirect, jsonError, limited, serviceError } from "./responses";
import { applySession, createRequestSession, currentUser, libraryOf, sessionlessClient, toSessionUser, type RequestSession } from "./session";

type LinkType = "signup" | "email_change";

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
  const client = sessionlessClient(session);
  const { error } =
    kind === "recover"
      ? await client.auth.resetPasswordForEmail(email, { redirectTo: `${new URL(c.req.url).origin}/auth/reset` })
      : await client.auth.resend({ type: "signup", email });
  if (error) {
    const code = error.code === "validation_failed" ? "email_address_invalid" : (error.code ?? "unknown");
    return body.form ? back(`error=${encodeURIComponent(code)}`) : error.code === "validation_failed" ? jsonError(c, 400, code) : serviceError(c, error);
  }
  return body.form ? back(`notice=${kind === "recover" ? "reset-sent" : "confirmation-sent"}`) : c.json({ ok: true });
}

/** Uses a one-time link with supabase-js's verifyOtp; the session it gives goes into the cookie. */
async function redeemLink(
  session: RequestSession,
  tokenHash: string,
  type: LinkType | "recovery",
): Promise<{ ok: true } | { ok: false; code: string; unavailable: boolean }> {
  const { data, error } = await session.client.auth.verifyOtp({ token_hash: tokenHash.slice(0, 256), type });
  if (error || !data.session) {
    const status = error?.status ?? 0;
    return { ok: false, code: error?.code ?? "otp_expired", unavailable: status === 0 || status >= 500 };
  }
  return { ok: true };
}

async function verifyLink(c: AppContext): Promise<Response> {
  const type = c.req.query("type");
  const tokenHash = c.req.query("token_hash") ?? "";
  const session = createRequestSession(c);
  if ((type !== "signup" && type !== "email_change") || !tokenHash) return formRedirect(c, session, "/auth?mode=signin&error=otp_expired");
  const used = await redeemLink(session, tokenHash, type);
  if (!used.ok) return formRedirect(c, session, `/auth?mode=signin&error=${used.unavailable ? "service_unavailable" : "otp_expired"}`);
  return formRedirect(c, session, AFTER_LINK[type]);
}

/** POST /reset {token_hash, password, confirmPassword}: the new password, then signed in. */
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
    return used.unavailable ? jsonError(c, 503, "service_unavailable") : jsonError(c, 400, "otp_expired");
  }
  const { data, error } = await session.client.auth.updateUser({ password });
  if (error || !data.user) {
    const code = error?.code ?? "unknown";
    return body.form ? back(code) : applySession(session, error ? serviceError(c, error) : jsonError(c, 400, code));
  }
  // A password reset lifts the sign-in throttle of the address.
  if (data.user.email) await noteSignIn(c, data.user.email, "success");
  if (body.form) return formRedirect(c, session, "/");
  return applySession(session, c.json({ user: toSessionUser(data.user), library: libraryOf(data.user) }));
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
  const { data, error } = await session.client.auth.updateUser({ email }, { emailRedirectTo: `${new URL(c.req.url).origin}/profile` });
  if (error || !data.user) {
    if (error?.code === "validation_failed") return applySession(session, jsonError(c, 400, "email_address_invalid"));
    return applySession(session, error ? serviceError(c, error) : jsonError(c, 400, "unknown"));
  }
  return applySession(session, c.json({ ok: true, pendingEmail: data.user.new_email ?? null }, 200, { "Cache-Control": "private, no-store" }));
}

export function emailLinkRoutes(api: Hono<AppEnv>): void {
  api.post("/recover", (c) => emailRequest(c, "recover"));
  api.post("/resend", (c) => emailRequest(c, "resend"));
  api.get("/verify", verifyLink);
  api.post("/reset", resetPassword);
  api.put("/email", changeEmail);
}
