/**
 * Which declared route a URL's path names, for the worker before it renders (the page cache, GET
 * /api/page/…). Exact paths: "/latest/" is not /latest here (the worker sends it there: `slashlessPagePath`).
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

/**
 * The page a path with trailing slashes names, when only its slashless form is a declared route
 * ("/video/x/" → "/video/x"): the worker answers such a path with a 301 there, so each page has
 * one URL (the one its canonical link gives and the edge cache keeps). Null for any other path.
 */
export function slashlessPagePath(pathname: string): string | null {
  if (!pathname.endsWith("/") || pathname.startsWith("//")) return null;
  const slashless = pathname.replace(/\/+$/, "");
  if (slashless === "" || routeAt(pathname)?.path !== "*") return null;
  const found = routeAt(slashless);
  return found && found.path !== "*" ? slashless : null;
}
