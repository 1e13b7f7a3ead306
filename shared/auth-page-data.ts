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

/** After an e-mail link was used while the browser is signed in as another account (?notice=other-account). */
export type LinkNotice = "other-account";

function linkNoticeOf(url: URL): LinkNotice | null {
  return url.searchParams.get("notice") === "other-account" ? "other-account" : null;
}

/** What the /auth/reset page (new password from an e-mail link) shows. */
export interface ResetPageData {
  tokenHash: string;
  errorCode: string | null;
  notice: LinkNotice | null;
}

export function resetPageData(url: URL): ResetPageData {
  return {
    tokenHash: (url.searchParams.get("token_hash") ?? "").slice(0, 256),
    errorCode: url.searchParams.get("error")?.slice(0, 64) ?? null,
    notice: linkNoticeOf(url),
  };
}

/** The page an e-mail link of sign-up confirmation or e-mail change opens; its button POSTs /api/auth/verify. */
export const CONFIRM_PATH = "/auth/confirm";

/** The e-mail links that sign in when used. */
export type LinkType = "signup" | "email_change";

export function isLinkType(value: unknown): value is LinkType {
  return value === "signup" || value === "email_change";
}

/** What the /auth/confirm page shows. */
export interface ConfirmPageData {
  tokenHash: string;
  type: LinkType | null;
  errorCode: string | null;
  notice: LinkNotice | null;
}

export function confirmPageData(url: URL): ConfirmPageData {
  const type = url.searchParams.get("type");
  return {
    tokenHash: (url.searchParams.get("token_hash") ?? "").slice(0, 256),
    type: isLinkType(type) ? type : null,
    errorCode: url.searchParams.get("error")?.slice(0, 64) ?? null,
    notice: linkNoticeOf(url),
  };
}
