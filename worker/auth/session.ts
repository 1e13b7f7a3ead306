import { createServerClient, parseCookieHeader, type CookieOptions } from "@supabase/ssr";
import type { SupabaseClient, User } from "@supabase/supabase-js";
import { isAuthRetryableFetchError } from "@supabase/supabase-js";
import { parseLibrary, type Library } from "../../shared/library";
import type { SessionUser } from "../../shared/session-user";
import { accountServiceFetch, accountServiceOptionsFromEnv } from "../account-service/index";
import type { AppContext } from "../app-env";

/** Name of the session cookie (chunked by @supabase/ssr as NAME.0, NAME.1, … when long). */
export const SESSION_COOKIE = "yingshi-auth";
/** A call to the account service that takes longer than this is treated as a failure. */
export const ACCOUNT_SERVICE_TIMEOUT_MS = 8000;

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
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
}

/** The visitor's address, passed on to the account service's rate limiter. */
export function visitorIp(c: AppContext): string {
  return c.req.header("CF-Connecting-IP") ?? c.req.header("X-Forwarded-For")?.split(",")[0]?.trim() ?? "local";
}

/** The fetch supabase-js uses: the embedded service in-process, or the real one with a timeout. */
function accountFetch(c: AppContext): { url: string; key: string; fetch: typeof fetch } {
  const ip = visitorIp(c);
  if (c.env.SUPABASE_URL && c.env.SUPABASE_ANON_KEY) {
    const timed = (input: RequestInfo | URL, init?: RequestInit) =>
      fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(ACCOUNT_SERVICE_TIMEOUT_MS)]) : AbortSignal.timeout(ACCOUNT_SERVICE_TIMEOUT_MS) });
    return { url: c.env.SUPABASE_URL, key: c.env.SUPABASE_ANON_KEY, fetch: timed as typeof fetch };
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
  const { url: serviceUrl, key, fetch: serviceFetch } = accountFetch(c);
  const session: RequestSession = {
    client: undefined as unknown as SupabaseClient,
    hasCookie: cookieNames.length > 0,
    pendingCookies: [],
    pendingHeaders: {},
    cookieNames,
    secure,
  };
  session.client = createServerClient(serviceUrl, key, {
    cookieOptions: { name: SESSION_COOKIE, httpOnly: true, secure, sameSite: "lax", path: "/" },
    cookies: {
      getAll: () => cookies.map(({ name, value }) => ({ name, value: value ?? "" })),
      setAll(toSet, headers) {
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

export type CurrentUser = { user: User; transient: false } | { user: null; transient: boolean };

/**
 * The signed-in user of this request, refreshing an expiring session at most
 * once (supabase-js does it inside getUser). A transient failure (service down,
 * timeout, 5xx) keeps the cookies; anything else that fails clears them.
 */
export async function currentUser(session: RequestSession): Promise<CurrentUser> {
  if (!session.hasCookie) return { user: null, transient: false };
  try {
    const { data, error } = await session.client.auth.getUser();
    if (data.user && !error) return { user: data.user, transient: false };
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
