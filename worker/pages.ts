import type { AppContext } from "./app-env";
import { applySession, createRequestSession, currentUser, libraryOf, SESSION_COOKIE, toSessionUser } from "./auth/session";
import { anonymousRootData, renderPage } from "./ssr";

/**
 * Every page: anonymous visitors (no session cookie) are rendered without any
 * account call; signed-in visitors get their state in the HTML (no flash of the
 * wrong header) and a private response. /profile and /auth redirect before any HTML.
 */
export async function handlePage(c: AppContext): Promise<Response> {
  const path = new URL(c.req.url).pathname;
  const root = anonymousRootData(c);
  if (!(c.req.header("Cookie") ?? "").includes(SESSION_COOKIE)) {
    if (path === "/profile") return c.redirect("/auth", 302);
    return renderPage(c, root);
  }
  const session = createRequestSession(c);
  const { user } = await currentUser(session);
  if (user) {
    root.user = toSessionUser(user);
    root.library = libraryOf(user);
  }
  if (path === "/profile" && !user) return applySession(session, c.redirect("/auth", 302));
  if (path === "/auth" && user) return applySession(session, c.redirect("/profile", 302));
  const response = await renderPage(c, root);
  return applySession(session, response);
}
