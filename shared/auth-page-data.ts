import { safeRedirectPath } from "./safe-redirect";

/** What the /auth page shows, from its URL (mode, error of the no-JavaScript path, notice, next). */
export type AuthMode = "signin" | "signup";

export interface AuthPageData {
  mode: AuthMode;
  /** An error code from the no-JavaScript form path (?error=…). */
  errorCode: string | null;
  /** ?notice=signed-up after a no-JavaScript sign-up that needs confirmation. */
  notice: string | null;
  /** Where to go after signing in (?next=…, same-origin paths only; "/" otherwise). */
  next: string;
}

export function authPageData(url: URL): AuthPageData {
  return {
    mode: url.searchParams.get("mode") === "signup" ? "signup" : "signin",
    errorCode: url.searchParams.get("error")?.slice(0, 64) ?? null,
    notice: url.searchParams.get("notice") === "signed-up" ? "signed-up" : null,
    next: safeRedirectPath(url.searchParams.get("next")),
  };
}
