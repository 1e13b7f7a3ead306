/**
 * The fetch supabase-js uses inside one request: to the embedded service in-process (with the
 * visitor's address, country and browser forwarded), or to a real Supabase project over the
 * network — guarded so that the request never waits longer than its budget, never acts on an
 * answer that is not the service's, and retries a refused token refresh with back-off.
 */
import { clientAddress, clientCountry } from "../client-address";
import { configOf } from "../config";
import { accountServiceFetch, accountServiceOptions } from "../account-service/index";
import { DEVICE_HEADER } from "../account-service/known-devices";
import { knownDeviceToken } from "./known-device";
import type { AppContext } from "../app-env";

/** Statuses after which a token refresh is tried again (spec: 502, 503, 504; and a rate limit). */
export const REFRESH_RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** The first wait before a retried refresh; each further wait doubles (spec: 200 ms doubling). */
export const REFRESH_FIRST_DELAY_MS = 200;

export interface ServiceEndpoint {
  url: string;
  key: string;
  fetch: typeof fetch;
}

/** Rejects when the signal aborts, for calls that do not watch the signal themselves. */
export async function whenAborted(signal: AbortSignal): Promise<never> {
  if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  throw signal.reason; // whatever the signal was aborted with, as fetch itself rejects
}

function urlOf(input: RequestInfo | URL): string {
  return input instanceof Request ? input.url : String(input);
}

/** Path of an account-service URL (relative to /auth/v1), for judging its answers. */
function endpointOf(input: RequestInfo | URL): string {
  try {
    return new URL(urlOf(input)).pathname.replace(/^.*\/auth\/v1/, "");
  } catch {
    return "";
  }
}

function isRefresh(input: RequestInfo | URL): boolean {
  return endpointOf(input) === "/token" && urlOf(input).includes("grant_type=refresh_token");
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
  if (endpoint === "/token" || endpoint === "/verify") return typeof value.access_token === "string" && typeof value.refresh_token === "string";
  if (endpoint === "/user") return hasId(value);
  if (endpoint === "/signup") return typeof value.access_token === "string" || hasId(value) || hasId(value.user);
  return true;
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms)), whenAborted(signal)]);
}

/**
 * A refresh refused with 429/502/503/504 is tried again after 200 ms, 400 ms, 800 ms … while the
 * waits stay within half of the request's budget; other calls are made once.
 */
async function withRefreshRetries(call: () => Promise<Response>, input: RequestInfo | URL, budgetMs: number, signal: AbortSignal): Promise<Response> {
  let response = await call();
  if (!isRefresh(input)) return response;
  let waited = 0;
  for (let delay = REFRESH_FIRST_DELAY_MS; REFRESH_RETRY_STATUSES.has(response.status) && waited + delay <= budgetMs / 2; delay *= 2) {
    await response.body?.cancel();
    await pause(delay, signal);
    waited += delay;
    response = await call();
  }
  return response;
}

/**
 * Every account-service call of a request: at most `timeoutMs`; none at all once the request
 * stopped waiting for the service (`stop`); and a call that gets no answer, a 5xx or 429, or a
 * body that is not the service's JSON reports the service as unavailable for this request.
 */
export function guardedFetch(inner: typeof fetch, timeoutMs: number, stop: AbortSignal, onFailure: () => void): typeof fetch {
  const guarded = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stop, ...(init?.signal ? [init.signal] : [])]);
    try {
      const call = () => Promise.race([inner(input, { ...init, signal }), whenAborted(signal)]);
      const response = await withRefreshRetries(call, input, timeoutMs, signal);
      if (response.status >= 500 || (response.status === 429 && isRefresh(input))) {
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
  return guarded;
}

/** Key the embedded service is reached with (it checks none). */
const EMBEDDED_KEY = "embedded-anon-key";

/**
 * The account service for the site at `siteUrl` (whose origin is the embedded service's issuer),
 * without a visitor: the real one over the network when configured, else the embedded one
 * in-process. Also for calls made outside a visitor's request (a 弹幕 room's session checks).
 */
export function accountEndpoint(env: Env, siteUrl: string): ServiceEndpoint {
  const config = configOf(env);
  if (config.SUPABASE_URL && config.SUPABASE_ANON_KEY) {
    // Looked up per call, so that a test can stand in for the network.
    const remote = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init);
    return { url: config.SUPABASE_URL, key: config.SUPABASE_ANON_KEY, fetch: remote };
  }
  return { url: new URL(siteUrl).origin, key: EMBEDDED_KEY, fetch: accountServiceFetch(accountServiceOptions(env, config, siteUrl)) };
}

/** The account service of this request: the embedded one in-process (with the visitor forwarded), or the real one over the network. */
export function serviceEndpoint(c: AppContext): ServiceEndpoint {
  const endpoint = accountEndpoint(c.env, c.req.url);
  if (endpoint.key !== EMBEDDED_KEY) return endpoint;
  const embedded = endpoint.fetch;
  const visitor = c.req.raw.headers;
  const forwarded: Record<string, string> = { "CF-Connecting-IP": clientAddress(visitor) };
  const country = clientCountry(visitor, (c.req.raw as { cf?: { country?: unknown } }).cf);
  if (country) forwarded["CF-IPCountry"] = country;
  const userAgent = visitor.get("User-Agent");
  if (userAgent) forwarded["User-Agent"] = userAgent.slice(0, 512);
  // The device token (its cookie), so that a device that signed in before is not held by the account's lock.
  const device = knownDeviceToken(c);
  if (device) forwarded[DEVICE_HEADER] = device;
  const withVisitor = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    for (const [name, value] of Object.entries(forwarded)) request.headers.set(name, value);
    return embedded(request);
  };
  return { ...endpoint, fetch: withVisitor };
}
