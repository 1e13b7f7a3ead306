/**
 * What a route of the site declares, once (docs/decisions/0015-route-declarations.md): each page is
 * one `shared/routes/{id}.route.ts` listed in `shared/routes/pages.ts`. The worker (render,
 * page cache, GET /api/page/…), the browser (router, page data, prefetch), the build's asset list
 * and the route-wide tests all read the declarations.
 */
import type { LoaderFunction, LoaderFunctionArgs } from "../router";
import type { CatalogueLoaders, NotFoundKind } from "../loaders";
import type { RankingData, RankingPeriod } from "../ranking";
import type { SessionUser } from "../session-user";

/** What differs between the worker and the browser. */
export interface RoutePlatform {
  /** Root data: the worker reads the request, the browser asks the worker. */
  rootLoader: LoaderFunction;
  /** The signed-in visitor, for the /auth and /profile guards. */
  sessionUser: (args: LoaderFunctionArgs) => SessionUser | null | Promise<SessionUser | null>;
  /**
   * A data page's loader, by its catalogue key: the worker queries D1 (worker/catalogue/loaders.ts),
   * the browser asks the worker for the same data (GET /api/page/…, client/page-data.ts).
   */
  pageData: (key: CatalogueKey) => LoaderFunction;
  /** 排行榜: the worker reads the play counts in D1, the browser asks the worker. */
  ranking: RankingRunner;
}

/** Reads a ranking: the worker queries D1, the browser asks the worker (GET /api/ranking). */
export type RankingRunner = (period: RankingPeriod, args: LoaderFunctionArgs) => Promise<RankingData>;

/** The catalogue loader that answers a data page's path. */
export type CatalogueKey = keyof CatalogueLoaders;

/** A page component, loaded as its own chunk (docs/decisions/0005-lazy-route-chunks.md). */
export type LazyPage = () => Promise<() => React.JSX.Element | null>;

/**
 * Who may keep a page's anonymous HTML: "edge" — stored in the Workers cache for a minute
 * (worker/page-cache.ts) and public; "public" — public, never stored by the worker (search: endless
 * keys, echoed input; forms); "private" — no cache at all (the page holds an e-mail link's token).
 * Signed-in visitors' pages are always private.
 */
export type HtmlCaching = "edge" | "public" | "private";

interface RouteBase {
  /** The file's name: shared/routes/{id}.route.ts. The build keys the page's chunks by it (virtual:client-assets `routes`). */
  id: string;
  /** The page component; null renders nothing of its own (the catch-all: its 404 page is the error boundary's). */
  page: LazyPage | null;
  html: HtmlCaching;
  /**
   * A page that plays a stream on its first view: worker/player-page.ts adds the stream-start
   * preloads (Link header), the player's chunks and the inline start scripts to its 200 answers.
   */
  player?: true;
  /**
   * Who the page is for: "signed-in" sends anyone else to sign in first and come back, "signed-out"
   * sends a signed-in visitor to 个人中心. The worker redirects before any HTML (worker/pages.ts),
   * the browser's loader before a navigation (create-routes.tsx): both through `visitorRedirect`.
   */
  visitor?: "signed-in" | "signed-out";
}

/** A catalogue data page: for each path (a route pattern under "/", "" for "/"), the loader that answers it. */
export interface DataRoute extends RouteBase {
  data: Readonly<Record<string, CatalogueKey>>;
}

/** Any other page: its paths and its loader, built for the platform. */
export interface PlainRoute extends RouteBase {
  paths: readonly string[];
  loader: (platform: RoutePlatform) => LoaderFunction;
}

export type RouteDeclaration = DataRoute | PlainRoute;

/**
 * A route's status rules, by example: addresses of its states (the ones the spec names) and what
 * each answers. The route-wide tests (accessibility, HTML validity, the JS budget, preloads,
 * caching, GET /api/page) visit them. A named export of the declaration's file next to its
 * default export, so no bundle includes it.
 */
export interface RouteSamples {
  /** Answer 200 to an anonymous visitor. */
  pages: readonly string[];
  /** Answer 404, by the kind of not-found page they show (shared/loaders.ts `notFound`). */
  missing?: Partial<Record<NotFoundKind, readonly string[]>>;
  /** Redirect an anonymous visitor. */
  redirects?: readonly string[];
}

/** Where a visitor who is not the page's kind goes instead of `path`, or null: they may stay. */
export function visitorRedirect(route: RouteDeclaration, signedIn: boolean, path: string): string | null {
  if (route.visitor === "signed-in" && !signedIn) return `/auth?next=${path}`;
  if (route.visitor === "signed-out" && signedIn) return "/profile";
  return null;
}

export function isDataRoute(route: RouteDeclaration): route is DataRoute {
  return "data" in route;
}

/** A route's paths (route patterns, shared/router/match.ts, under "/"; "" is "/", "*" anything else). */
export function pathsOf(route: RouteDeclaration): readonly string[] {
  return isDataRoute(route) ? Object.keys(route.data) : route.paths;
}

/** A path pattern as an exact test of a URL's (still percent-encoded) path: "video/:id" → /^\/video\/[^/]+$/. */
export function patternRegExp(path: string): RegExp {
  const segments = path.split("/").map((s) => (s === "*" ? ".*" : s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")));
  return new RegExp(`^/${segments.join("/")}$`);
}

/**
 * The route and path pattern a URL's path names exactly (no trailing "/"): the catch-all only when
 * nothing else does. For the worker (page cache, GET /api/page); the browser matches with its router.
 */
export function routeMatcher(routes: readonly RouteDeclaration[]): (pathname: string) => { route: RouteDeclaration; path: string } | undefined {
  const tests = routes.flatMap((route) => pathsOf(route).map((path) => ({ route, path, regExp: patternRegExp(path) })));
  tests.sort((a, b) => Number(a.path === "*") - Number(b.path === "*"));
  return (pathname) => {
    const found = tests.find((t) => t.regExp.test(pathname));
    return found && { route: found.route, path: found.path };
  };
}
