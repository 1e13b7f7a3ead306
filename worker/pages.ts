import type { AppContext } from "./app-env";
import { applySession, createRequestSession, currentUser, libraryOf, SESSION_COOKIE, toSessionUser } from "./auth/session";
import { visitorRedirect } from "../shared/routes/declare";
import { routeAt, slashlessPagePath } from "../shared/routes/route-at";
import { withPageCache } from "./page-cache";
import { siteConfigFor } from "./site-settings";
import { anonymousRootData, renderPage } from "./ssr";

/** A redirect that depends on who is signed in (a route's `visitor` rule): never stored by any cache. */
function privateRedirect(c: AppContext, location: string): Response {
  c.header("Cache-Control", "private, no-store");
  return c.redirect(location, 302);
}

/**
 * Every page: anonymous visitors (no session cookie) are rendered without any
 * account call; signed-in visitors get their state in the HTML (no flash of the
 * wrong header) and a private response. A page declared for signed-in (or signed-out) visitors
 * only sends the others on before any HTML (shared/routes/declare.ts `visitor`).
 */
export async function handlePage(c: AppContext): Promise<Response> {
  const { pathname: path, search } = new URL(c.req.url);
  // "/video/x/" is the page "/video/x": one URL per page, the one the edge cache keeps.
  const slashless = slashlessPagePath(path);
  if (slashless) {
    c.header("Cache-Control", "public, max-age=86400");
    return c.redirect(slashless + search, 301);
  }
  const route = routeAt(path)?.route;
  const root = anonymousRootData(c, await siteConfigFor(c));
  if (!(c.req.header("Cookie") ?? "").includes(SESSION_COOKIE)) {
    const to = route && visitorRedirect(route, false, path);
    if (to) return privateRedirect(c, to);
    return withPageCache(c, () => renderPage(c, root));
  }
  const session = createRequestSession(c);
  const { user } = await currentUser(session);
  if (user) {
    root.user = toSessionUser(user);
    root.library = libraryOf(user);
  }
  const to = route && visitorRedirect(route, !!user, path);
  if (to) return applySession(session, privateRedirect(c, to));
  const response = await renderPage(c, root);
  return applySession(session, response);
}
