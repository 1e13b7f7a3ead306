/** Answers of the account API (/api/auth/*): JSON errors with Chinese messages, form redirects, the per-address limits. */
import type { AuthError } from "@supabase/supabase-js";
import { authErrorMessage } from "../../shared/auth-messages";
import { safeRedirectPath } from "../../shared/safe-redirect";
import { enforceRateLimit, type RateLimitRule } from "../account-service/rate-limit";
import type { AppContext } from "../app-env";
import { clientAddress } from "../client-address";
import { applySession, type RequestSession } from "./session";

/**
 * Per-visitor limits of the worker (a real account service sees only the worker's address):
 * password sign-ins and sign-ups share Supabase's default, 30 per 5 minutes per address; e-mail
 * requests (reset, resend) the same. Token refreshes are never limited per address.
 */
export const API_RATE_LIMITS = {
  password: { bucket: "api_password", limit: 30, windowMs: 300_000 },
  email: { bucket: "api_email", limit: 30, windowMs: 300_000 },
} as const satisfies Record<string, RateLimitRule>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 429 | 501 | 503;

export function jsonError(c: AppContext, status: ErrorStatus, code: string, message = authErrorMessage(code)): Response {
  return c.json({ error: { code, message } }, status, { "Cache-Control": "no-store" });
}

/** The account service is down, slow or answering nonsense: 503 with the generic message. */
export function unavailable(c: AppContext, why: string): Response {
  console.error("account service unavailable:", why);
  return jsonError(c, 503, "service_unavailable", authErrorMessage(null));
}

export function isUnavailable(error: AuthError): boolean {
  const status = error.status ?? 0;
  return status === 0 || status >= 500 || error.name === "AuthRetryableFetchError";
}

/** An account-service error as the form should show it, with a status our API answers. */
export function serviceError(c: AppContext, error: AuthError): Response {
  const status = error.status ?? 0;
  if (isUnavailable(error)) return unavailable(c, error.message);
  const code = error.code ?? (status === 429 ? "over_request_rate_limit" : "unknown");
  return jsonError(c, status === 429 ? 429 : status === 401 || status === 403 ? 401 : 400, code);
}

/** No-JavaScript form posts get a redirect back to a page instead of JSON. */
export function formRedirect(c: AppContext, session: RequestSession, location: string): Response {
  return applySession(session, c.redirect(location, 303));
}

/** The form's hidden `next` (where to go after signing in): a same-origin path, "/" otherwise. */
export function formNext(value: Record<string, unknown>): string {
  return safeRedirectPath(typeof value.next === "string" ? value.next : null);
}

/** `&next=…` for a redirect back to the form, when the form had somewhere to go. */
export function nextParam(next: string): string {
  return next === "/" ? "" : `&next=${encodeURIComponent(next)}`;
}

/** Counts one request of the visitor against `rule`; true once over the limit (a limiter failure lets it through). */
export async function limited(c: AppContext, rule: RateLimitRule): Promise<boolean> {
  try {
    await enforceRateLimit(c.env.DB, rule, clientAddress(c.req.raw.headers), Date.now());
    return false;
  } catch (error) {
    if ((error as { status?: number }).status === 429) return true;
    console.error("rate limiter unavailable", error);
    return false;
  }
}
