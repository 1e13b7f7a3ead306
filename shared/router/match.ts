/**
 * Which routes a URL's path shows (docs/decisions/0018-own-router.md): the route table is a tree
 * (the layout, its pathless error boundary, the declared pages); a match is the branch from the
 * root to the page whose pattern fits the whole path, ranked as React Router ranks them (static
 * segments before parameters before the catch-all), case-insensitive, a trailing "/" allowed.
 * Pure: the worker and the browser match with it.
 */
import type { LoaderFunction, Params } from "./responses";

/** A route of the table (shared/routes/create-routes.tsx builds them from the declarations). */
export interface RouteObject {
  id: string;
  /** A pattern relative to the parent's ("video/:id", "*"); "/" for the root; none for a pathless layout. */
  path?: string;
  /** The parent's own path ("/" under the root). */
  index?: true;
  loader?: LoaderFunction;
  /** What the route renders (an `<Outlet />` inside renders the matched child). */
  element?: React.ReactNode;
  /** The route's component, once loaded (`lazy` fills it in). */
  Component?: (() => React.ReactNode) | null;
  /** Loads the route's component (its own chunk). */
  lazy?: () => Promise<() => React.ReactNode>;
  /** Shown instead of the route (and its children) when a loader or a render below it fails. */
  errorElement?: React.ReactNode;
  children?: RouteObject[];
  /** Whatever the table attaches (the page's declaration). */
  handle?: unknown;
}

export interface RouteMatch<R extends RouteObject = RouteObject> {
  route: R;
  params: Params;
}

interface Branch {
  routes: RouteObject[];
  pattern: string;
  score: number;
}

function flatten(routes: readonly RouteObject[], parents: RouteObject[] = [], parentPattern = ""): Branch[] {
  return routes.flatMap((route) => {
    const chain = [...parents, route];
    const own = route.index ? "" : (route.path ?? "");
    const pattern = own.startsWith("/") ? own : joinPaths(parentPattern, own);
    const children = route.children?.length ? flatten(route.children, chain, pattern) : [];
    // A pathless route (the pages' error boundary) matches only through one of its children.
    const alone = route.path !== undefined || route.index || !route.children?.length;
    return alone ? [...children, { routes: chain, pattern, score: scoreOf(pattern, route.index === true) }] : children;
  });
}

function joinPaths(a: string, b: string): string {
  if (b === "") return a;
  return (a.endsWith("/") ? a : a + "/") + b;
}

/** React Router's ranking: static segments 10, parameters 3, "*" −2 (and the whole path on top of each other), an index route 2 more. */
export function scoreOf(pattern: string, index: boolean): number {
  const segments = pattern.split("/").filter(Boolean);
  let score = segments.length + (index ? 2 : 0);
  if (segments.includes("*")) score -= 2;
  for (const segment of segments) {
    if (segment === "*") continue;
    score += segment.startsWith(":") ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

/**
 * A path with each segment decoded ("/category/%E7%94%B5%E5%BD%B1" → "/category/电影"), an
 * encoded "/" kept as "%2F"; a path that does not decode stays as it came (its parameters then
 * hold the escapes: shared/loaders.ts `isUndecodable`).
 */
export function decodePath(pathname: string): string {
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}

/** The parameters of a decoded path under a pattern, or null when it does not fit. */
export function matchPattern(pattern: string, pathname: string): Params | null {
  const names: string[] = [];
  let source = "^";
  for (const segment of pattern.split("/").filter(Boolean)) {
    if (segment === "*") {
      names.push("*");
      source += "(?:/(.*))?";
    } else if (segment.startsWith(":")) {
      names.push(segment.slice(1));
      source += "/([^/]+)";
    } else {
      source += "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  source += names.at(-1) === "*" ? "$" : "/*$";
  const found = new RegExp(source, "i").exec(pathname);
  if (!found) return null;
  const params: Record<string, string | undefined> = {};
  names.forEach((name, i) => {
    const value = found[i + 1];
    params[name] = name === "*" ? (value ?? "") : value?.replace(/%2F/g, "/");
  });
  return params;
}

/** The matched branch, root first, for a URL's path (still percent-encoded) or a location; null when nothing fits. */
export function matchRoutes<R extends RouteObject>(routes: readonly R[], location: string | { pathname: string }): RouteMatch<R>[] | null {
  const pathname = decodePath(typeof location === "string" ? location : location.pathname);
  for (const branch of branchesOf(routes)) {
    const params = matchPattern(branch.pattern, pathname);
    if (params) return branch.routes.map((route) => ({ route: route as R, params }));
  }
  return null;
}

const ranked = new WeakMap<readonly RouteObject[], Branch[]>();

/** A table's branches, best ranked first (computed once per table). */
function branchesOf(routes: readonly RouteObject[]): Branch[] {
  let branches = ranked.get(routes);
  if (!branches) {
    // A stable sort: among equal scores the table's order decides.
    branches = flatten(routes).sort((a, b) => b.score - a.score);
    ranked.set(routes, branches);
  }
  return branches;
}
