/**
 * Error responses of the embedded account service, in the shape GoTrue (Supabase Auth) uses
 * for API version 2024-01-01: body `{"code": "<error_code>", "message": "<text>"}` plus the
 * `X-Supabase-Api-Version` header. supabase-js (auth-js `lib/fetch.ts`, `handleError`) reads
 * `code` only when that header is present, and `message` for the error text.
 */

export const API_VERSION_HEADER = "X-Supabase-Api-Version";
export const API_VERSION = "2024-01-01";

/** Statuses this service answers with on failure. Never a retryable 5xx for client mistakes. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 422 | 429 | 500 | 503;

export class AuthServiceError extends Error {
  readonly status: ErrorStatus;
  readonly code: string;
  /** Extra top-level body fields (e.g. `weak_password`). */
  readonly extra: Record<string, unknown> | undefined;
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers: Record<string, string> | undefined;

  constructor(status: ErrorStatus, code: string, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.name = "AuthServiceError";
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

export function errorResponse(err: AuthServiceError): Response {
  const body = { code: err.code, message: err.message, ...err.extra };
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      [API_VERSION_HEADER]: API_VERSION,
      ...err.headers,
    },
  });
}

// ---- the errors of the contract ------------------------------------------------------------

export const validationFailed = (message: string) => new AuthServiceError(400, "validation_failed", message);

export const badJson = () => new AuthServiceError(400, "bad_json", "Could not parse request body as JSON");

export const requestTooLarge = (limit: number) => new AuthServiceError(413, "request_too_large", `Request body must not exceed ${limit} bytes`);

export const weakPassword = (minLength: number) =>
  new AuthServiceError(422, "weak_password", `Password should be at least ${minLength} characters.`, {
    weak_password: { reasons: ["length"] },
  });

export const rateLimited = (retryAfterSeconds: number) =>
  new AuthServiceError(429, "over_request_rate_limit", "Request rate limit reached", undefined, {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const invalidCredentials = (message = "Invalid login credentials") => new AuthServiceError(400, "invalid_credentials", message);

/** A disabled account (GoTrue: 400 at sign-in and refresh, 403 for an access token). */
export const userBanned = (status: 400 | 403) => new AuthServiceError(status, "user_banned", "User is banned");

export const noAuthorization = () => new AuthServiceError(401, "no_authorization", "This endpoint requires a valid Bearer token");

export const badJwt = (reason: string) => new AuthServiceError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${reason}`);

export const sessionNotFound = () => new AuthServiceError(403, "session_not_found", "Session from session_id claim in JWT does not exist");

export const refreshTokenNotFound = () => new AuthServiceError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");

export const refreshTokenAlreadyUsed = () => new AuthServiceError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");

export const unexpectedFailure = () => new AuthServiceError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");

/** Per-account throttling: the same answer for known and unknown addresses, whatever the password. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AuthServiceError(429, "too_many_attempts", "Too many sign-in attempts for this account, try again later", undefined, {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const emailRateLimited = (retryAfterSeconds: number) =>
  new AuthServiceError(429, "over_email_send_rate_limit", "For security purposes, you can only request this once every 60 seconds", undefined, {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const otpExpired = () => new AuthServiceError(403, "otp_expired", "Email link is invalid or has expired");

export const emailNotConfirmed = () => new AuthServiceError(400, "email_not_confirmed", "Email not confirmed");

export const userAlreadyExists = () => new AuthServiceError(422, "user_already_exists", "User already registered");

export const samePassword = () => new AuthServiceError(422, "same_password", "New password should be different from the old password.");

export const phoneDisabled = (what: string) => new AuthServiceError(400, "phone_provider_disabled", `${what} are disabled`);

export const methodNotAllowed = () => new AuthServiceError(405, "method_not_allowed", "Method not allowed");

/** The session passed its inactivity timeout or absolute lifetime (GoTrue's session_expired). */
export const sessionExpired = () => new AuthServiceError(400, "session_expired", "Invalid Refresh Token: Session Expired");
