/**
 * Which declared route a URL's path names, for the worker before it renders (the page cache, GET
 * /api/page/…). Exact paths: "/latest/" is not /latest here (it renders the same page, uncached).
 */
import { isDataRoute, routeMatcher } from "./declare";
import { SITE_ROUTES } from "./site-routes";

/** The declared route a URL's path names exactly (the catch-all for anything else). */
export const routeAt = routeMatcher(SITE_ROUTES);

/** Whether GET /api/page{path} answers: a data page's path. */
export function isDataPagePath(pathname: string): boolean {
  const found = routeAt(pathname);
  return found !== undefined && isDataRoute(found.route);
}
