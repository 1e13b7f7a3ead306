/**
 * Embedded account service (DESIGN.md §5): a Supabase-Auth-compatible subset backed by D1,
 * used when no real Supabase project is configured. The worker reaches it in-process by
 * giving supabase-js `global.fetch: accountServiceFetch(opts)`.
 */
import { createAccountService } from "./app";
import type { AccountServiceOptions } from "./app";
import { AuthServiceError, errorResponse } from "./errors";

export { createAccountService, BASE_PATH } from "./app";
export type { AccountServiceOptions } from "./app";
export { PBKDF2_ITERATIONS } from "./password";
export { RATE_LIMITS } from "./rate-limit";

/**
 * LOCAL DEVELOPMENT AND TESTS ONLY. Used as the JWT secret when AUTH_JWT_SECRET is not set.
 * It is public (it is in the repository), so anyone could forge access tokens with it:
 * production deployments must set the AUTH_JWT_SECRET secret (`wrangler secret put`).
 */
export const LOCAL_DEV_JWT_SECRET = "yingshi-local-dev-only-insecure-jwt-secret-change-me";

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
  return serviceFetch as typeof fetch;
}

/**
 * Options from the worker's bindings: D1 `DB`, `AUTH_JWT_SECRET` (else LOCAL_DEV_JWT_SECRET),
 * `AUTH_AUTO_CONFIRM` (anything but "false" means on), issuer = origin of `requestUrl`.
 */
export function accountServiceOptionsFromEnv(env: Env, requestUrl: string): AccountServiceOptions {
  let issuerBase = "http://localhost";
  try {
    issuerBase = new URL(requestUrl).origin;
  } catch {
    // keep the default
  }
  return {
    db: env.DB,
    jwtSecret: env.AUTH_JWT_SECRET || LOCAL_DEV_JWT_SECRET,
    issuerBase,
    autoConfirm: env.AUTH_AUTO_CONFIRM !== "false",
  };
}
