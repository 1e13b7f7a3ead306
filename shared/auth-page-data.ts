import { safeRedirectPath } from "./safe-redirect";

/** What the /auth page shows, from its URL (mode, error of the no-JavaScript path, notice, next). */
export type AuthMode = "signin" | "signup" | "forgot";

/** Notices a page can show after a no-JavaScript form post (?notice=…). */
export const AUTH_NOTICES = ["signed-up", "reset-sent", "confirmation-sent"] as const;
export type AuthNotice = (typeof AUTH_NOTICES)[number];

export interface AuthPageData {
  mode: AuthMode;
  /** An error code from the no-JavaScript form path (?error=…). */
  errorCode: string | null;
  /** ?notice=… after a no-JavaScript form post (sign-up needing confirmation, reset e-mail sent). */
  notice: AuthNotice | null;
  /** Where to go after signing in (?next=…, same-origin paths only; "/" otherwise). */
  next: string;
}

export function authPageData(url: URL): AuthPageData {
  return {
    mode: modeOf(url.searchParams.get("mode")),
    errorCode: url.searchParams.get("error")?.slice(0, 64) ?? null,
    notice: AUTH_NOTICES.find((n) => n === url.searchParams.get("notice")) ?? null,
    next: safeRedirectPath(url.searchParams.get("next")),
  };
}

function modeOf(value: string | null): AuthMode {
  return value === "signup" || value === "forgot" ? value : "signin";
}

/** What the /auth/reset page (new password from an e-mail link) shows. */
export interface ResetPageData {
  tokenHash: string;
  errorCode: string | null;
}

export function resetPageData(url: URL): ResetPageData {
  return {
    tokenHash: (url.searchParams.get("token_hash") ?? "").slice(0, 256),
    errorCode: url.searchParams.get("error")?.slice(0, 64) ?? null,
  };
}
