/** The browser's account API (/api/auth/*): cookie sessions, the browser never sees a token. */
import { Hono } from "hono";
import { signUpProblem } from "../../shared/auth-messages";
import { EMPTY_LIBRARY, parseLibrary, type Library } from "../../shared/library";
import type { AppContext, AppEnv } from "../app-env";
import { configOf } from "../config";
import { knownLibrary } from "../catalogue/titles";
import { limitBody } from "../request-body";
import { rememberThisDevice } from "./known-device";
import { noteSignInAttempt, signInLockSeconds } from "./sign-in-throttle";
import { credentialsOf, readAuthBody } from "./body";
import { isCrossSiteRequest } from "./csrf";
import { deviceRoutes } from "./devices";
import { emailLinkRoutes } from "./email-links";
import { mailLinkOriginOf } from "./mail-origin";
import { API_RATE_LIMITS, formNext, formRedirect, jsonError, limited, nextParam, serviceError, unavailable } from "./responses";
import {
  accountStep,
  applySession,
  clearSessionCookies,
  createRequestSession,
  currentUser,
  dropCodeVerifier,
  isUser,
  libraryOf,
  toSessionUser,
} from "./session";

export { API_RATE_LIMITS } from "./responses";

export const authApi = new Hono<AppEnv>();

// CSRF: state-changing requests must come from this site.
authApi.use("*", async (c: AppContext, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && isCrossSiteRequest(c.req.raw)) {
    return jsonError(c, 403, "csrf");
  }
  await next();
  c.header("Cache-Control", c.res.headers.get("Cache-Control") ?? "no-store");
});
authApi.use(
  "*",
  limitBody((c: AppContext) => jsonError(c, 413, "payload_too_large")),
);

authApi.post("/sign-in", async (c) => {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const next = formNext(body.value);
  const back = (code: string) => formRedirect(c, session, `/auth?mode=signin&error=${encodeURIComponent(code)}${nextParam(next)}`);
  if (await limited(c, API_RATE_LIMITS.password)) return body.form ? back("over_request_rate_limit") : jsonError(c, 429, "over_request_rate_limit");
  const { email, password } = credentialsOf(body.value);
  if (!email || !password) return body.form ? back("validation_failed") : jsonError(c, 400, "validation_failed");
  const lockSeconds = await signInLockSeconds(c, email);
  if (lockSeconds > 0) return body.form ? back("too_many_attempts") : jsonError(c, 429, "too_many_attempts");
  const { data, error } = await session.client.auth.signInWithPassword({ email, password });
  if (error?.code === "invalid_credentials" || (!error && isUser(data.user))) await noteSignInAttempt(c, email, error ? "wrong_password" : "success");
  if (error || !isUser(data.user)) {
    if (body.form) return back(error?.code ?? "unknown");
    // A success without a user is not an answer of a working account service.
    return error ? serviceError(c, error) : unavailable(c, "sign-in answered without a user");
  }
  // This browser now knows the password: the account's lock will not keep it out (known-device.ts).
  await rememberThisDevice(c, session, email);
  if (body.form) return formRedirect(c, session, next);
  return applySession(session, c.json({ user: toSessionUser(data.user), library: libraryOf(data.user) }));
});

authApi.post("/sign-up", async (c) => {
  const body = await readAuthBody(c.req.raw);
  if (!body.ok) return jsonError(c, body.status, body.code);
  const session = createRequestSession(c);
  const next = formNext(body.value);
  const back = (code: string) => formRedirect(c, session, `/auth?mode=signup&error=${encodeURIComponent(code)}${nextParam(next)}`);
  if (await limited(c, API_RATE_LIMITS.password)) return body.form ? back("over_request_rate_limit") : jsonError(c, 429, "over_request_rate_limit");
  const { email, password } = credentialsOf(body.value);
  const confirm = typeof body.value.confirmPassword === "string" ? body.value.confirmPassword : body.form ? "" : password;
  if (!email || !password) return body.form ? back("validation_failed") : jsonError(c, 400, "validation_failed");
  const problem = signUpProblem(password, confirm);
  if (problem) return body.form ? back(problem) : jsonError(c, 400, problem);
  // With confirmations on, the embedded service mails a link: its origin must not come from the Host header.
  const config = configOf(c.env);
  const links = config.AUTH_AUTO_CONFIRM && !config.SUPABASE_URL ? { ok: true as const, origin: null } : mailLinkOriginOf(c);
  if (!links.ok) return body.form ? back("site_url_missing") : jsonError(c, 503, "site_url_missing");
  const { data, error } = await session.client.auth.signUp({
    email,
    password,
    // The link in the e-mail is /auth/confirm?token_hash=… (worker/auth/email-links.ts), never a PKCE code.
    options: links.ok && links.origin ? { emailRedirectTo: `${links.origin}/` } : {},
  });
  dropCodeVerifier(session);
  if (error) return body.form ? back(error.code ?? "unknown") : serviceError(c, error);
  // A sign-up answer always names the user; anything else is not a working account service.
  if (!isUser(data.user)) return body.form ? back("unknown") : unavailable(c, "sign-up answered without a user");
  const signedIn = Boolean(data.session && data.user);
  if (body.form) return signedIn ? formRedirect(c, session, next) : formRedirect(c, session, `/auth?mode=signin&notice=signed-up${nextParam(next)}`);
  return applySession(
    session,
    c.json({
      user: signedIn && data.user ? toSessionUser(data.user) : null,
      library: signedIn && data.user ? libraryOf(data.user) : null,
      confirmationRequired: !signedIn,
    }),
  );
});

authApi.get("/sign-out", (c) => jsonError(c, 405, "method_not_allowed", "请使用 POST 退出登录"));

type SignOutScope = "local" | "global" | "others";

/** `{"scope": "global"}` signs out everywhere, "others" every other device, else this one (Supabase's logout scopes). */
function scopeOf(value: unknown): SignOutScope | null {
  if (value === undefined || value === null || value === "" || value === "local") return "local";
  return value === "global" || value === "others" ? value : null;
}

authApi.post("/sign-out", async (c) => {
  const contentType = c.req.header("Content-Type") ?? "";
  const body = contentType ? await readAuthBody(c.req.raw) : null;
  if (body && !body.ok) return jsonError(c, body.status, body.code);
  const scope = scopeOf(body?.ok ? body.value.scope : undefined);
  if (!scope) return jsonError(c, 400, "validation_failed", "退出范围无效");
  const session = createRequestSession(c);
  const wantsPage = (c.req.header("Accept") ?? "").includes("text/html") && !contentType.includes("json");
  if (session.hasCookie) {
    try {
      // Bounded: with the service down, supabase-js would retry an expired session's refresh for 30 s.
      const outcome = await accountStep(session, session.client.auth.signOut({ scope }));
      if (!outcome.done) console.error("sign-out at the account service: no answer in time");
      else if (outcome.value.error) console.error("sign-out at the account service failed", outcome.value.error.message);
    } catch (error) {
      console.error("sign-out at the account service failed", error);
    }
    // "others" keeps this device signed in.
    if (scope !== "others") clearSessionCookies(session);
  }
  if (wantsPage) return formRedirect(c, session, scope === "others" ? "/profile" : "/");
  return applySession(session, c.json({ user: null, scope }));
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
  const library: Library = data && "library" in data ? await knownLibrary(c.env.DB, parseLibrary(data.library)) : EMPTY_LIBRARY;
  const { data: updated, error } = await session.client.auth.updateUser({ data: { library } });
  if (error || !updated.user) return applySession(session, error ? serviceError(c, error) : jsonError(c, 400, "unknown"));
  return applySession(session, c.json({ user: toSessionUser(updated.user), library: libraryOf(updated.user) }, 200, { "Cache-Control": "private, no-store" }));
});

emailLinkRoutes(authApi);
deviceRoutes(authApi);

authApi.all("*", (c) => jsonError(c, 404, "not_found", "接口不存在"));
