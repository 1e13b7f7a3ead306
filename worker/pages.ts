import type { AppContext } from "./app-env";
import { applySession, createRequestSession, currentUser, libraryOf, SESSION_COOKIE, toSessionUser } from "./auth/session";
import { withPageCache } from "./page-cache";
import { anonymousRootData, renderPage } from "./ssr";

/** Where a signed-out visitor of /profile goes: sign in, then back to /profile. */
export const PROFILE_SIGN_IN = "/auth?next=/profile";

/** A redirect that depends on who is signed in (/auth ↔ /profile): never stored by any cache. */
function privateRedirect(c: AppContext, location: string): Response {
  c.header("Cache-Control", "private, no-store");
  return c.redirect(location, 302);
}

/**
 * Every page: anonymous visitors (no session cookie) are rendered without any
 * account call; signed-in visitors get their state in the HTML (no flash of the
 * wrong header) and a private response. /profile and /auth redirect before any HTML.
 */
export async function handlePage(c: AppContext): Promise<Response> {
  const path = new URL(c.req.url).pathname;
  const root = anonymousRootData(c);
  if (!(c.req.header("Cookie") ?? "").includes(SESSION_COOKIE)) {
    if (path === "/profile") return privateRedirect(c, PROFILE_SIGN_IN);
    return withPageCache(c, () => renderPage(c, root));
  }
  const session = createRequestSession(c);
  const { user } = await currentUser(session);
  if (user) {
    root.user = toSessionUser(user);
    root.library = libraryOf(user);
  }
  if (path === "/profile" && !user) return applySession(session, privateRedirect(c, PROFILE_SIGN_IN));
  if (path === "/auth" && user) return applySession(session, privateRedirect(c, "/profile"));
  const response = await renderPage(c, root);
  return applySession(session, response);
}
