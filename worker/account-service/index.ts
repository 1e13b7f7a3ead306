/**
 * Embedded account service (docs/decisions/0010-embedded-accounts.md): a Supabase-Auth-compatible subset backed by D1,
 * used when no real Supabase project is configured. The worker reaches it in-process by
 * giving supabase-js `global.fetch: accountServiceFetch(opts)`.
 */
import { mailLinkOrigin, type Config } from "../config";
import { mailerFor } from "../mail/index";
import { createAccountService } from "./app";
import type { AccountServiceOptions } from "./app";
import { AuthServiceError, errorResponse } from "./errors";
import { primaryFirst } from "../outside-calls";

export { createAccountService, BASE_PATH } from "./app";
export type { AccountServiceOptions } from "./app";
export { PBKDF2_ITERATIONS } from "./password";
export { RATE_LIMITS } from "./rate-limit";

/**
 * An in-process `fetch` for supabase-js's `global.fetch` option: requests whose path starts
 * with /auth/v1/ are handed to the service app; anything else gets a 404 JSON error.
 */
export function accountServiceFetch(opts: AccountServiceOptions): typeof fetch {
  const app = createAccountService(opts);
  const serviceFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (!new URL(request.url).pathname.startsWith("/auth/v1/")) {
      return errorResponse(new AuthServiceError(404, "not_found", "Not found"));
    }
    return app.fetch(request);
  };
  return serviceFetch;
}

const DAY_MS = 86_400_000;

/**
 * Options from the worker's bindings and parsed configuration: D1 `DB`, AUTH_JWT_SECRET (unset →
 * a random key kept in D1, never a key from the repository), AUTH_AUTO_CONFIRM, the session
 * timeouts, the mail adapter; the issuer is the origin of `requestUrl`, the links in e-mails are
 * on SITE_URL (or a local request's origin; worker/config.ts `mailLinkOrigin`), never on its Host.
 */
export function accountServiceOptions(env: Env, config: Config, requestUrl: string): AccountServiceOptions {
  let issuerBase = "http://localhost";
  try {
    issuerBase = new URL(requestUrl).origin;
  } catch {
    // keep the default
  }
  return {
    // Sessions and tokens written by one request are read by the next: from the primary first (docs/decisions/0067-read-replication.md).
    db: primaryFirst(env.DB),
    jwtSecret: config.AUTH_JWT_SECRET,
    issuerBase,
    linkOrigin: mailLinkOrigin(config, requestUrl),
    autoConfirm: config.AUTH_AUTO_CONFIRM,
    sessionPolicy: { inactivityMs: config.AUTH_SESSION_INACTIVITY_DAYS * DAY_MS, lifetimeMs: config.AUTH_SESSION_LIFETIME_DAYS * DAY_MS },
    mailer: mailerFor(env, config, issuerBase),
    siteName: config.SITE_NAME,
  };
}
