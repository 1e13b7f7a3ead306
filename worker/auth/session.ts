/**
 * One request's view of the visitor's session: a server-side supabase-js client over the
 * session cookie (hono/cookie reads and writes it), the signed-in user, and what to put on the
 * response. A refresh that the service refused or could not answer never ends a session.
 */
import { combineChunks, createServerClient, stringFromBase64URL, type CookieOptions } from "@supabase/ssr";
import type { SupabaseClient, User } from "@supabase/supabase-js";
import { createClient, isAuthRetryableFetchError } from "@supabase/supabase-js";
import { generateCookie, getCookie } from "hono/cookie";
import { isDisabledUser } from "../../shared/admin/account-state";
import { parseLibrary, type Library } from "../../shared/library";
import type { SessionUser } from "../../shared/session-user";
import type { AppContext } from "../app-env";
import { configOf } from "../config";
import { isLocalHost } from "../local-host";
import { guardedFetch, serviceEndpoint, type ServiceEndpoint } from "./service-fetch";

/**
 * supabase-js's own default database type (no generated types: only the auth API is used). The
 * clients below are made with it and the "public" schema spelled out, so that they have exactly
 * the `SupabaseClient` type; left to a call's defaults, their schema parameters would be `any`.
 */
type DefaultDatabase = SupabaseClient extends SupabaseClient<infer Database> ? Database : never;

/** Name of the session cookie (chunked by @supabase/ssr as NAME.0, NAME.1, … when long). */
export const SESSION_COOKIE = "yingshi-auth";
/**
 * A call to the account service that takes longer than this is treated as a failure; it is
 * also the most one request waits for the account service in all (retries included).
 * Overridden by the ACCOUNT_SERVICE_TIMEOUT_MS variable (milliseconds).
 */
export const ACCOUNT_SERVICE_TIMEOUT_MS = 8000;

/** The account-service budget of a request (worker/config.ts: ACCOUNT_SERVICE_TIMEOUT_MS, 8000 by default). */
export function accountServiceTimeoutMs(env: Env): number {
  return configOf(env).ACCOUNT_SERVICE_TIMEOUT_MS;
}

interface PendingCookie {
  name: string;
  value: string;
  options: CookieOptions;
}

/** One request's view of the visitor's session: a server-side supabase client over the cookies. */
export interface RequestSession {
  client: SupabaseClient;
  /** The service this request talks to (also for calls outside supabase-js). */
  endpoint: ServiceEndpoint;
  /** The endpoint's fetch with this request's budget and failure reporting. */
  guardedFetch: typeof fetch;
  /** Whether the request carried a session cookie at all (no cookie = no account call). */
  hasCookie: boolean;
  /** The request's cookies by name. */
  cookies: Record<string, string>;
  /** Cookies and headers to put on the response (refreshed or cleared session). */
  pendingCookies: PendingCookie[];
  pendingHeaders: Record<string, string>;
  cookieNames: string[];
  secure: boolean;
  /**
   * Settles (never rejects) once an account-service call of this request failed (no answer,
   * timeout, 5xx, a refused refresh or an HTML page). supabase-js would retry a failed token
   * refresh for up to 30 s; the request gives up after its own bounded retries instead.
   */
  unavailable: Promise<void>;
  /** The most this request waits for one account step (ms). */
  timeoutMs: number;
  /** Aborted when the request stops waiting for the service: no further calls are made. */
  stop: AbortController;
}

const isSessionCookie = (name: string) => name === SESSION_COOKIE || name.startsWith(`${SESSION_COOKIE}.`) || name.startsWith(`${SESSION_COOKIE}-`);

export function createRequestSession(c: AppContext): RequestSession {
  const url = new URL(c.req.url);
  const secure = url.protocol === "https:" || !isLocalHost(url.hostname);
  const cookies = getCookie(c);
  const cookieNames = Object.keys(cookies).filter(isSessionCookie);
  const timeoutMs = accountServiceTimeoutMs(c.env);
  const stop = new AbortController();
  let failed = false;
  let reportUnavailable = () => {};
  const unavailable = new Promise<void>((resolve) => (reportUnavailable = resolve));
  const onFailure = () => {
    failed = true;
    reportUnavailable();
  };
  const endpoint = serviceEndpoint(c);
  const serviceFetch = guardedFetch(endpoint.fetch, timeoutMs, stop.signal, onFailure);
  const cookieOptions = { httpOnly: true, secure, sameSite: "lax", path: "/" } as const;
  const session: RequestSession = {
    client: undefined as unknown as SupabaseClient,
    endpoint,
    guardedFetch: serviceFetch,
    hasCookie: cookieNames.length > 0,
    cookies,
    pendingCookies: [],
    pendingHeaders: {},
    cookieNames,
    secure,
    unavailable,
    timeoutMs,
    stop,
  };
  session.client = createServerClient<DefaultDatabase, "public">(endpoint.url, endpoint.key, {
    cookieOptions: { name: SESSION_COOKIE, ...cookieOptions },
    cookies: {
      getAll: () => Object.entries(cookies).map(([name, value]) => ({ name, value })),
      setAll(toSet, headers) {
        // Once the service failed in this request, supabase-js's reaction (dropping the session
        // after a refresh it could not make) is not the visitor's state: keep the cookies as sent.
        if (failed || stop.signal.aborted) return;
        for (const cookie of toSet) {
          session.pendingCookies = session.pendingCookies.filter((p) => p.name !== cookie.name);
          session.pendingCookies.push({ name: cookie.name, value: cookie.value, options: { ...cookie.options, ...cookieOptions } });
        }
        Object.assign(session.pendingHeaders, headers);
      },
    },
    global: { fetch: serviceFetch },
    auth: { flowType: "pkce" },
  });
  return session;
}

/**
 * A client without any stored session, for calls that must not touch the visitor's cookies
 * (password-reset and confirmation e-mails: no PKCE verifier cookie is left behind).
 */
export function sessionlessClient(session: RequestSession): SupabaseClient {
  return createClient<DefaultDatabase, "public">(session.endpoint.url, session.endpoint.key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: "implicit" },
    global: { fetch: session.guardedFetch },
  });
}

/**
 * Drops the PKCE code-verifier cookie supabase-js writes before a sign-up or e-mail request: the
 * links of this site carry a token hash (POST /verify), never a PKCE code, so the verifier would
 * only be a stray cookie (and would make every page think a session is there).
 */
export function dropCodeVerifier(session: RequestSession): void {
  session.pendingCookies = session.pendingCookies.filter((cookie) => !cookie.name.endsWith("-code-verifier"));
}

/** Expires every session cookie the request carried (tampered, expired or signed out). */
export function clearSessionCookies(session: RequestSession): void {
  for (const name of session.cookieNames) {
    if (!session.pendingCookies.some((p) => p.name === name)) {
      session.pendingCookies.push({ name, value: "", options: { httpOnly: true, secure: session.secure, sameSite: "lax", path: "/", maxAge: 0 } });
    }
  }
}

function serializeCookie({ name, value, options }: PendingCookie): string {
  return generateCookie(name, value, {
    path: options.path ?? "/",
    httpOnly: options.httpOnly,
    secure: options.secure,
    sameSite: "Lax",
    ...(options.maxAge !== undefined ? { maxAge: Math.floor(options.maxAge) } : {}),
    ...(options.maxAge === 0 ? { expires: new Date(0) } : {}),
  });
}

/** Puts the session's cookie changes on a response; any response that sets a cookie is private, no-store. */
export function applySession(session: RequestSession, response: Response): Response {
  if (session.pendingCookies.length === 0) return response;
  const res = new Response(response.body, response);
  for (const cookie of session.pendingCookies) res.headers.append("Set-Cookie", serializeCookie(cookie));
  for (const [name, value] of Object.entries(session.pendingHeaders)) res.headers.set(name, value);
  res.headers.set("Cache-Control", "private, no-store");
  return res;
}

export function toSessionUser(user: User): SessionUser {
  return { id: user.id, email: user.email ?? "", createdAt: user.created_at };
}

export function libraryOf(user: User): Library {
  return parseLibrary((user.user_metadata as Record<string, unknown> | undefined)?.library);
}

/**
 * One account step of a request (getUser with its refresh, sign-out): its result, or
 * `{ done: false }` as soon as a call of this request failed or `timeoutMs` passed — then
 * every further call of the request is stopped. The step's own late result is dropped.
 */
export async function accountStep<T>(session: RequestSession, step: Promise<T>): Promise<{ done: true; value: T } | { done: false }> {
  step.catch(() => {}); // a rejection after giving up is not an unhandled one
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), session.timeoutMs);
  });
  try {
    const outcome = await Promise.race([
      step.then((value) => ({ done: true as const, value })),
      session.unavailable.then(() => ({ done: false as const })),
      deadline,
    ]);
    if (!outcome.done) session.stop.abort(new Error("account service unavailable"));
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

export type CurrentUser = { user: User; transient: false } | { user: null; transient: boolean };

/** A user object as the account service sends it: anything without an id is not one. */
export function isUser(user: unknown): user is User {
  return typeof user === "object" && user !== null && typeof (user as User).id === "string" && (user as User).id.length > 0;
}

/** The session stored in the cookie (as @supabase/ssr wrote it), or null. */
export async function storedSession(session: RequestSession): Promise<{ access_token: string; expires_at: number } | null> {
  try {
    const raw = await combineChunks(SESSION_COOKIE, (name) => session.cookies[name]);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw.startsWith("base64-") ? stringFromBase64URL(raw.slice(7)) : raw);
    if (typeof value !== "object" || value === null) return null;
    const { access_token: accessToken, expires_at: expiresAt } = value as Record<string, unknown>;
    return typeof accessToken === "string" && typeof expiresAt === "number" ? { access_token: accessToken, expires_at: expiresAt } : null;
  } catch {
    return null;
  }
}

/**
 * What the account service says of an access token (GET /auth/v1/user, no refresh): its user;
 * `ended` when it refuses the token (401/403: expired, signed out, session or user gone —
 * GoTrue and the embedded service alike); `unavailable` for no answer, a 5xx, 429 or anything
 * that is not the service's.
 */
export type TokenUser = { kind: "user"; user: User } | { kind: "ended" } | { kind: "unavailable" };

export async function userOfAccessToken(endpoint: ServiceEndpoint, accessToken: string, timeoutMs: number): Promise<TokenUser> {
  try {
    const response = await endpoint.fetch(`${endpoint.url}/auth/v1/user`, {
      headers: { apikey: endpoint.key, Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const isJson = (response.headers.get("Content-Type") ?? "").includes("json");
    const body: unknown = isJson ? await response.json().catch(() => null) : null;
    if (!isJson) await response.body?.cancel();
    if (response.status === 200) {
      if (!isUser(body)) return { kind: "unavailable" };
      // A disabled account's token is refused here even where the service still answers it (a real Supabase project).
      return isDisabledUser(body, Date.now()) ? { kind: "ended" } : { kind: "user", user: body };
    }
    if ((response.status === 401 || response.status === 403) && typeof body === "object" && body !== null) return { kind: "ended" };
    return { kind: "unavailable" };
  } catch {
    return { kind: "unavailable" };
  }
}

/**
 * After a refresh that could not be made (refused, failed, no answer): while the stored access
 * token has not expired yet, it still proves who the visitor is — ask the service with it.
 */
export async function userFromStoredToken(session: RequestSession): Promise<User | null> {
  const stored = await storedSession(session);
  if (!stored || stored.expires_at * 1000 <= Date.now()) return null;
  const asked = await userOfAccessToken(session.endpoint, stored.access_token, session.timeoutMs);
  return asked.kind === "user" ? asked.user : null;
}

/**
 * The signed-in user of this request, refreshing an expiring session at most once (supabase-js
 * does it inside getUser). A transient failure (service down, timeout, 5xx, a refused refresh,
 * an answer that is not a user) keeps the cookies — and the visitor stays signed in while the
 * stored access token is valid; anything else that fails clears them.
 */
export async function currentUser(session: RequestSession): Promise<CurrentUser> {
  if (!session.hasCookie) return { user: null, transient: false };
  try {
    const outcome = await accountStep(session, session.client.auth.getUser());
    if (!outcome.done) {
      console.error("session: the account service did not answer in time, failed or refused the refresh");
      return transientUser(session);
    }
    const { data, error } = outcome.value;
    if (data.user && !error) {
      // A disabled account (the 管理后台) is signed out at its next request, whichever service answered.
      if (isUser(data.user) && isDisabledUser(data.user, Date.now())) {
        clearSessionCookies(session);
        return { user: null, transient: false };
      }
      if (isUser(data.user)) return { user: data.user, transient: false };
      console.error("session: the account service answered without a user id");
      return transientUser(session);
    }
    if (error && (isAuthRetryableFetchError(error) || (error.status ?? 0) >= 500 || error.status === 0 || error.status === 429)) {
      return transientUser(session);
    }
  } catch (error) {
    console.error("session: reading the user failed", error);
    return transientUser(session);
  }
  clearSessionCookies(session);
  return { user: null, transient: false };
}

async function transientUser(session: RequestSession): Promise<CurrentUser> {
  const user = await userFromStoredToken(session);
  return user ? { user, transient: false } : { user: null, transient: true };
}
