import type { AuthError } from "@supabase/supabase-js";
import { Hono } from "hono";
import { authErrorMessage, MIN_PASSWORD_LENGTH, validateSignUp } from "../../shared/auth-messages";
import { EMPTY_LIBRARY, parseLibrary, type Library } from "../../shared/library";
import { safeRedirectPath } from "../../shared/safe-redirect";
import { enforceRateLimit, type RateLimitRule } from "../account-service/rate-limit";
import type { AppContext, AppEnv } from "../app-env";
import { credentialsOf, readAuthBody } from "./body";
import { isCrossSiteRequest } from "./csrf";
import { accountStep, applySession, clearSessionCookies, createRequestSession, currentUser, isUser, libraryOf, toSessionUser, visitorIp, type RequestSession } from "./session";

/** Per-visitor limits of the worker (the account service sees only the worker's address). */
export const API_RATE_LIMITS = {
  signIn: { bucket: "api_sign_in", limit: 10, windowMs: 60_000 },
  signUp: { bucket: "api_sign_up", limit: 5, windowMs: 600_000 },
} as const satisfies Record<string, RateLimitRule>;

type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 429 | 503;

function jsonError(c: AppContext, status: ErrorStatus, code: string, message = authErrorMessage(code)): Response {
  return c.json({ error: { code, message } }, status, { "Cache-Control": "no-store" });
}

/** The account service is down, slow or answering nonsense: 503 with the generic message. */
function unavailable(c: AppContext, why: string): Response {
  console.error("account service unavailable:", why);
  return jsonError(c, 503, "service_unavailable", authErrorMessage(null));
}

function isUnavailable(error: AuthError): boolean {
  const status = error.status ?? 0;
  return status === 0 || status >= 500 || error.name === "AuthRetryableFetchError";
}

/** An account-service error as the form should show it, with a status our API answers. */
function serviceError(c: AppContext, error: AuthError): Response {
  const status = error.status ?? 0;
  if (isUnavailable(error)) return unavailable(c, error.message);
  const code = error.code ?? (status === 429 ? "over_request_rate_limit" : "unknown");
  return jsonError(c, status === 429 ? 429 : status === 401 || status === 403 ? 401 : 400, code);
}

/** No-JavaScript form posts get a redirect back to a page instead of JSON. */
function formRedirect(c: AppContext, session: RequestSession, location: string): Response {
  return applySession(session, c.redirect(location, 303));
}

/** The form's hidden `next` (where to go after signing in): a same-origin path, "/" otherwise. */
function formNext(value: Record<string, unknown>): string {
  return safeRedirectPath(typeof value.next === "string" ? value.next : null);
}

/** `&next=…` for a redirect back to the form, when the form had somewhere to go. */
function nextParam(next: string): string {
  return next === "/" ? "" : `&next=${encodeURIComponent(next)}`;
}

async function limited(c: AppContext, rule: RateLimitRule): Promise<boolean> {
  try {
    await enforceRateLimit(c.env.DB, rule, visitorIp(c), Date.now());
    return false;
  } catch (error) {
    if ((error as { status?: number }).status === 429) return true;
    console.error("rate limiter unavailable", error);
    return false;
  }
}

export const authApi = new Hono<AppEnv>();

// CSRF: state-changing requests must come from this site.
authApi.use("*", async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && isCrossSiteRequest(c.req.raw)) {
    return jsonError(c, 403, "csrf");
  }
  await next();
  c.header("Cache-Control", c.res.headers.get("Cache-Control") ?? "no-store");
});

authApi.post("/sign-in", async (c) => {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const next = formNext(body.value);
  const back = (code: string) => formRedirect(c, session, `/auth?mode=signin&error=${encodeURIComponent(code)}${nextParam(next)}`);
  if (await limited(c, API_RATE_LIMITS.signIn)) return body.form ? back("over_request_rate_limit") : jsonError(c, 429, "over_request_rate_limit");
  const { email, password } = credentialsOf(body.value);
  if (!email || !password) return body.form ? back("validation_failed") : jsonError(c, 400, "validation_failed");
  const { data, error } = await session.client.auth.signInWithPassword({ email, password });
  if (error || !isUser(data.user)) {
    if (body.form) return back(error?.code ?? "unknown");
    // A success without a user is not an answer of a working account service.
    return error ? serviceError(c, error) : unavailable(c, "sign-in answered without a user");
  }
  if (body.form) return formRedirect(c, session, next);
  return applySession(session, c.json({ user: toSessionUser(data.user), library: libraryOf(data.user) }));
});

authApi.post("/sign-up", async (c) => {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const next = formNext(body.value);
  const back = (code: string) => formRedirect(c, session, `/auth?mode=signup&error=${encodeURIComponent(code)}${nextParam(next)}`);
  if (await limited(c, API_RATE_LIMITS.signUp)) return body.form ? back("over_request_rate_limit") : jsonError(c, 429, "over_request_rate_limit");
  const { email, password } = credentialsOf(body.value);
  const confirm = typeof body.value.confirmPassword === "string" ? body.value.confirmPassword : body.form ? "" : password;
  if (!email || !password) return body.form ? back("validation_failed") : jsonError(c, 400, "validation_failed");
  const invalid = validateSignUp(password, confirm);
  if (invalid) {
    const code = password.length < MIN_PASSWORD_LENGTH && password === confirm ? "weak_password" : "password_mismatch";
    return body.form ? back(code) : jsonError(c, 400, code, invalid);
  }
  const { data, error } = await session.client.auth.signUp({
    email,
    password,
    options: { emailRedirectTo: `${new URL(c.req.url).origin}/api/auth/confirm` },
  });
  if (error) return body.form ? back(error.code ?? "unknown") : serviceError(c, error);
  // A sign-up answer always names the user; anything else is not a working account service.
  if (!isUser(data.user)) return body.form ? back("unknown") : unavailable(c, "sign-up answered without a user");
  const signedIn = Boolean(data.session && data.user);
  if (body.form) return signedIn ? formRedirect(c, session, next) : formRedirect(c, session, `/auth?mode=signin&notice=signed-up${nextParam(next)}`);
  return applySession(session, c.json({ user: signedIn && data.user ? toSessionUser(data.user) : null, library: signedIn && data.user ? libraryOf(data.user) : null, confirmationRequired: !signedIn }));
});

authApi.get("/sign-out", (c) => jsonError(c, 405, "method_not_allowed", "请使用 POST 退出登录"));

authApi.post("/sign-out", async (c) => {
  const session = createRequestSession(c);
  const wantsPage = (c.req.header("Accept") ?? "").includes("text/html") && !(c.req.header("Content-Type") ?? "").includes("json");
  if (session.hasCookie) {
    try {
      // Bounded: with the service down, supabase-js would retry an expired session's refresh for 30 s.
      const outcome = await accountStep(session, session.client.auth.signOut({ scope: "local" }));
      if (!outcome.done) console.error("sign-out at the account service: no answer in time");
      else if (outcome.value.error) console.error("sign-out at the account service failed", outcome.value.error.message);
    } catch (error) {
      console.error("sign-out at the account service failed", error);
    }
    clearSessionCookies(session);
  }
  if (wantsPage) return formRedirect(c, session, "/");
  return applySession(session, c.json({ user: null }));
});

authApi.get("/user", async (c) => {
  const session = createRequestSession(c);
  const result = await currentUser(session);
  if (!result.user) {
    if (result.transient) return applySession(session, jsonError(c, 503, "service_unavailable"));
    return applySession(session, c.json({ user: null, library: null }));
  }
  const refreshed = session.pendingCookies.length > 0;
  return applySession(
    session,
    c.json({ user: toSessionUser(result.user), library: libraryOf(result.user) }, 200, {
      "Cache-Control": "private, no-store",
      ...(refreshed ? { "X-Auth-Event": "TOKEN_REFRESHED" } : {}),
    }),
  );
});

/** Only the saved library (favourites, watch history) may be written, validated and bounded. */
authApi.put("/user", async (c) => {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const result = await currentUser(session);
  if (!result.user) {
    return applySession(session, result.transient ? jsonError(c, 503, "service_unavailable") : jsonError(c, 401, "not_signed_in"));
  }
  const data = body.value.data as Record<string, unknown> | undefined;
  const library: Library = data && "library" in data ? parseLibrary(data.library) : EMPTY_LIBRARY;
  const { data: updated, error } = await session.client.auth.updateUser({ data: { library } });
  if (error || !updated.user) return applySession(session, error ? serviceError(c, error) : jsonError(c, 400, "unknown"));
  return applySession(session, c.json({ user: toSessionUser(updated.user), library: libraryOf(updated.user) }, 200, { "Cache-Control": "private, no-store" }));
});

/** The e-mail confirmation link of a real Supabase project (PKCE): finish the sign-in, then home. */
authApi.get("/confirm", async (c) => {
  const code = c.req.query("code");
  const session = createRequestSession(c);
  if (!code) return c.redirect("/auth?mode=signin&error=unknown", 303);
  const { error } = await session.client.auth.exchangeCodeForSession(code);
  if (error) return formRedirect(c, session, `/auth?mode=signin&error=${encodeURIComponent(error.code ?? "unknown")}`);
  return formRedirect(c, session, "/");
});

authApi.all("*", (c) => jsonError(c, 404, "not_found", "接口不存在"));
