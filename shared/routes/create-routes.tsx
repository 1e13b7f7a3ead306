import { matchRoutes, redirect, type LoaderFunction, type RouteObject } from "../router";
import { loadRouteComponents } from "../router/load";
import { Layout } from "../components/Layout";
import { PageError } from "../pages/NotFoundPages";
import { ROOT_ROUTE_ID } from "../root-data";
import { isDataRoute, pathsOf, visitorRedirect, type RouteDeclaration, type RoutePlatform } from "./declare";
import { SITE_ROUTES } from "./site-routes";

export type { RoutePlatform } from "./declare";

/** Resolves the lazy routes among `matches` (before hydration, so the first render matches the HTML). */
export const loadLazyMatches = loadRouteComponents;

/** The declaration of a matched route (its `handle`; the layout routes have none). */
export function declarationOf(route: { handle?: unknown }): RouteDeclaration | undefined {
  return route.handle as RouteDeclaration | undefined;
}

/**
 * Whether a URL's path shows a data page of these routes (its loader data is GET /api/page/…,
 * worker/catalogue/api.ts): what the browser prefetches. A path with a trailing "/" is not one.
 */
export function isDataPageIn(routes: RouteObject[], pathname: string): boolean {
  if (pathname.length > 1 && pathname.endsWith("/")) return false;
  const declaration = declarationOf(matchRoutes(routes, pathname)?.at(-1)?.route ?? {});
  return declaration !== undefined && isDataRoute(declaration);
}

/** The route's loader, after its visitor rule (a page for signed-in visitors only, or signed-out ones only). */
function guarded(route: RouteDeclaration, platform: RoutePlatform, loader: LoaderFunction): LoaderFunction {
  if (!route.visitor) return loader;
  return async (args) => {
    const to = visitorRedirect(route, !!(await platform.sessionUser(args)), new URL(args.request.url).pathname);
    if (to) throw redirect(to);
    return loader(args);
  };
}

/** A declared page's route objects, one per path; each carries its declaration as `handle`. */
function pageRoutes(route: RouteDeclaration, platform: RoutePlatform): RouteObject[] {
  const { page } = route;
  // Every page component is its own chunk: a route loads only its page (the player only on /video, …).
  const view = page ? { lazy: page } : { element: null };
  // Ids from the declaration, not from the list's order: the worker's hydration data and the browser's router agree by name.
  return pathsOf(route).map((path, i) => ({
    id: i === 0 ? route.id : `${route.id}-${i}`,
    ...(path === "" ? { index: true as const } : { path }),
    loader: guarded(route, platform, isDataRoute(route) ? platform.pageData(route.data[path]) : route.loader(platform)),
    ...view,
    handle: route,
  }));
}

/**
 * The one route table of the site, used by the worker (shared/router/load.ts `query`) and the browser
 * (shared/router/browser.ts): the layout and its error boundary around the declared pages (shared/routes/site-routes.ts).
 */
export function createRoutes(platform: RoutePlatform): RouteObject[] {
  return [
    {
      // No custom shouldRevalidate: the browser's root loader only reads the account
      // client's memory, and the router's default rule also reloads it when a
      // sign-in/sign-out revalidation is interrupted by a navigation (sign in, then
      // go to /), which a stricter rule skipped, leaving a stale header.
      id: ROOT_ROUTE_ID,
      path: "/",
      loader: platform.rootLoader,
      element: <Layout />,
      errorElement: (
        <Layout>
          <PageError />
        </Layout>
      ),
      children: [
        {
          id: "pages",
          errorElement: <PageError />,
          children: SITE_ROUTES.flatMap((route) => pageRoutes(route, platform)),
        },
      ],
    },
  ];
}
