import { createServerClient, parseCookieHeader, type CookieOptions } from "@supabase/ssr";
import type { SupabaseClient, User } from "@supabase/supabase-js";
import { isAuthRetryableFetchError } from "@supabase/supabase-js";
import { parseLibrary, type Library } from "../../shared/library";
import type { SessionUser } from "../../shared/session-user";
import { accountServiceFetch, accountServiceOptionsFromEnv } from "../account-service/index";
import type { AppContext } from "../app-env";

/** Name of the session cookie (chunked by @supabase/ssr as NAME.0, NAME.1, … when long). */
export const SESSION_COOKIE = "yingshi-auth";
/**
 * A call to the account service that takes longer than this is treated as a failure; it is
 * also the most one request waits for the account service in all (retries included).
 * Overridden by the ACCOUNT_SERVICE_TIMEOUT_MS variable (milliseconds).
 */
export const ACCOUNT_SERVICE_TIMEOUT_MS = 8000;

/** The account-service budget of a request: ACCOUNT_SERVICE_TIMEOUT_MS from the env, else 8000. */
export function accountServiceTimeoutMs(env: Env): number {
  const value = Number(env.ACCOUNT_SERVICE_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : ACCOUNT_SERVICE_TIMEOUT_MS;
}

interface PendingCookie {
  name: string;
  value: string;
  options: CookieOptions;
}

/** One request's view of the visitor's session: a server-side supabase client over the cookies. */
export interface RequestSession {
  client: SupabaseClient;
  /** Whether the request carried a session cookie at all (no cookie = no account call). */
  hasCookie: boolean;
  /** Cookies and headers to put on the response (refreshed or cleared session). */
  pendingCookies: PendingCookie[];
  pendingHeaders: Record<string, string>;
  cookieNames: string[];
  secure: boolean;
  /**
   * Settles (never rejects) once an account-service call of this request failed (no answer,
   * timeout, 5xx or an HTML page). supabase-js retries a failed token refresh with back-off for
   * up to 30 s; a request gives up at the first failure instead (see accountStep).
   */
  unavailable: Promise<void>;
  /** The most this request waits for one account step (ms). */
  timeoutMs: number;
  /** Aborted when the request stops waiting for the service: no further calls are made. */
  stop: AbortController;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
}

/** The visitor's address, passed on to the account service's rate limiter. */
export function visitorIp(c: AppContext): string {
  return c.req.header("CF-Connecting-IP") ?? c.req.header("X-Forwarded-For")?.split(",")[0]?.trim() ?? "local";
}

/** Rejects when the signal aborts, for calls that do not watch the signal themselves. */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** Path of an account-service URL (relative to /auth/v1), for judging its answers. */
function endpointOf(input: RequestInfo | URL): string {
  const url = input instanceof Request ? input.url : String(input);
  try {
    return new URL(url).pathname.replace(/^.*\/auth\/v1/, "");
  } catch {
    return "";
  }
}

/**
 * Does a 2xx/4xx JSON body look like what the account service sends? A proxy's page, `{}` from
 * /token or a user without an id is not an answer: trusting it would sign the visitor out.
 */
function isServiceAnswer(endpoint: string, status: number, body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  if (status !== 200) return true;
  const value = body as Record<string, unknown>;
  const hasId = (v: unknown) => typeof v === "object" && v !== null && typeof (v as { id?: unknown }).id === "string";
  if (endpoint === "/token") return typeof value.access_token === "string" && typeof value.refresh_token === "string";
  if (endpoint === "/user") return hasId(value);
  if (endpoint === "/signup") return typeof value.access_token === "string" || hasId(value) || hasId(value.user);
  return true;
}

/**
 * Every account-service call of a request: at most `timeoutMs`; none at all once the request
 * stopped waiting for the service (`stop`); and a call that gets no answer, a 5xx, or a body
 * that is not the service's JSON reports the service as unavailable for this request.
 */
function guardedFetch(inner: typeof fetch, timeoutMs: number, stop: AbortSignal, onFailure: () => void): typeof fetch {
  const guarded = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stop, ...(init?.signal ? [init.signal] : [])]);
    try {
      const response = await Promise.race([inner(input, { ...init, signal }), whenAborted(signal)]);
      if (response.status >= 500) {
        onFailure();
        return response;
      }
      if (response.status === 204 || (response.status >= 300 && response.status < 400)) return response;
      const text = await Promise.race([response.text(), whenAborted(signal)]);
      let body: unknown = null;
      if ((response.headers.get("Content-Type") ?? "").includes("json")) {
        try {
          body = JSON.parse(text);
        } catch {
          body = null;
        }
      }
      if (!isServiceAnswer(endpointOf(input), response.status, body)) onFailure();
      const headers = new Headers(response.headers);
      headers.delete("Content-Length");
      headers.delete("Content-Encoding");
      return new Response(text, { status: response.status, statusText: response.statusText, headers });
    } catch (error) {
      onFailure();
      throw error;
    }
  };
  return guarded as typeof fetch;
}

/** The fetch supabase-js uses: the embedded service in-process, or the real one over the network. */
function accountFetch(c: AppContext): { url: string; key: string; fetch: typeof fetch } {
  const ip = visitorIp(c);
  if (c.env.SUPABASE_URL && c.env.SUPABASE_ANON_KEY) {
    // Looked up per call, so that a test can stand in for the network.
    const remote = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init);
    return { url: c.env.SUPABASE_URL, key: c.env.SUPABASE_ANON_KEY, fetch: remote as typeof fetch };
  }
  const embedded = accountServiceFetch(accountServiceOptionsFromEnv(c.env, c.req.url));
  const withIp = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set("CF-Connecting-IP", ip);
    return embedded(request);
  };
  return { url: new URL(c.req.url).origin, key: "embedded-anon-key", fetch: withIp as typeof fetch };
}

export function createRequestSession(c: AppContext): RequestSession {
  const url = new URL(c.req.url);
  const secure = url.protocol === "https:" || !isLoopback(url.hostname);
  const cookies = parseCookieHeader(c.req.header("Cookie") ?? "");
  const cookieNames = cookies.map((k) => k.name).filter((n) => n === SESSION_COOKIE || n.startsWith(`${SESSION_COOKIE}.`) || n.startsWith(`${SESSION_COOKIE}-`));
  const timeoutMs = accountServiceTimeoutMs(c.env);
  const stop = new AbortController();
  let failed = false;
  let reportUnavailable = () => {};
  const unavailable = new Promise<void>((resolve) => (reportUnavailable = resolve));
  const onFailure = () => {
    failed = true;
    reportUnavailable();
  };
  const { url: serviceUrl, key, fetch: rawFetch } = accountFetch(c);
  const serviceFetch = guardedFetch(rawFetch, timeoutMs, stop.signal, onFailure);
  const session: RequestSession = {
    client: undefined as unknown as SupabaseClient,
    hasCookie: cookieNames.length > 0,
    pendingCookies: [],
    pendingHeaders: {},
    cookieNames,
    secure,
    unavailable,
    timeoutMs,
    stop,
  };
  session.client = createServerClient(serviceUrl, key, {
    cookieOptions: { name: SESSION_COOKIE, httpOnly: true, secure, sameSite: "lax", path: "/" },
    cookies: {
      getAll: () => cookies.map(({ name, value }) => ({ name, value: value ?? "" })),
      setAll(toSet, headers) {
        // Once the service failed in this request, supabase-js's reaction (dropping the session
        // after a refresh it could not make) is not the visitor's state: keep the cookies as sent.
        if (failed || stop.signal.aborted) return;
        for (const cookie of toSet) {
          session.pendingCookies = session.pendingCookies.filter((p) => p.name !== cookie.name);
          session.pendingCookies.push({ name: cookie.name, value: cookie.value, options: { ...cookie.options, httpOnly: true, secure, sameSite: "lax", path: "/" } });
        }
        Object.assign(session.pendingHeaders, headers);
      },
    },
    global: { fetch: serviceFetch },
    auth: { flowType: "pkce" },
  });
  return session;
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
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? "/"}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.maxAge === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  parts.push("SameSite=Lax");
  return parts.join("; ");
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
    const outcome = await Promise.race([step.then((value) => ({ done: true as const, value })), session.unavailable.then(() => ({ done: false as const })), deadline]);
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

/**
 * The signed-in user of this request, refreshing an expiring session at most
 * once (supabase-js does it inside getUser). A transient failure (service down,
 * timeout, 5xx, an answer that is not a user) keeps the cookies; anything else
 * that fails clears them.
 */
export async function currentUser(session: RequestSession): Promise<CurrentUser> {
  if (!session.hasCookie) return { user: null, transient: false };
  try {
    const outcome = await accountStep(session, session.client.auth.getUser());
    if (!outcome.done) {
      console.error("session: the account service did not answer in time or failed");
      return { user: null, transient: true };
    }
    const { data, error } = outcome.value;
    if (data.user && !error) {
      if (isUser(data.user)) return { user: data.user, transient: false };
      console.error("session: the account service answered without a user id");
      return { user: null, transient: true };
    }
    if (error && (isAuthRetryableFetchError(error) || (error.status ?? 0) >= 500 || error.status === 0)) {
      return { user: null, transient: true };
    }
  } catch (error) {
    console.error("session: reading the user failed", error);
    return { user: null, transient: true };
  }
  clearSessionCookies(session);
  return { user: null, transient: false };
}
