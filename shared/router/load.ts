/**
 * Loading a matched branch (docs/decisions/0018-own-router.md): every matched route's loader and
 * its component's chunk, in parallel; a redirect ends the load, an error goes to the nearest
 * route with an error boundary, and the page's status follows React Router's rules (a thrown
 * `data(…, { status })` gives its status, any other error 500, a returned `data(…, { status })`
 * its status). The worker (`query`) and the browser router (shared/router/browser.ts) both load with it.
 */
import { matchRoutes, type RouteMatch, type RouteObject } from "./match";
import { DataWithResponseInit, ErrorResponse, isRedirect, isRouteErrorResponse } from "./responses";

/** What a load gives a render: each route's data and the errors by the id of the route whose boundary shows them. */
export interface LoadedBranch {
  matches: RouteMatch[];
  loaderData: Record<string, unknown>;
  errors: Record<string, unknown> | null;
  statusCode: number;
}

/** What the worker writes for the browser's router (window.__routerHydrationData, worker/ssr.tsx). */
export interface HydrationData {
  loaderData: Record<string, unknown>;
  /** By boundary route id, serialised (worker/route-errors.ts); shared/router/browser.ts revives them. */
  errors: Record<string, unknown> | null;
}

/** A load ends in a branch to render, or a redirect answer. */
export type LoadOutcome = LoadedBranch | Response;

/** Loads a route's component chunk once (before the first render of a hydrating page, too). */
export async function loadRouteComponent(route: RouteObject): Promise<void> {
  const lazy = route.lazy;
  if (!lazy) return;
  const Component = await lazy();
  route.Component = Component;
  route.lazy = undefined;
}

/** Loads the components of a branch (the browser does it before hydrating, so the first render matches the HTML). */
export async function loadRouteComponents(matches: readonly RouteMatch[] | null): Promise<void> {
  await Promise.all((matches ?? []).map((m) => loadRouteComponent(m.route)));
}

/** A thrown value as the error boundary sees it: `data(…, { status })` becomes an ErrorResponse. */
function routeError(thrown: unknown): unknown {
  if (thrown instanceof DataWithResponseInit) return new ErrorResponse(thrown.init?.status ?? 500, thrown.init?.statusText ?? "", thrown.data);
  if (thrown instanceof Response) return new ErrorResponse(thrown.status, thrown.statusText, null);
  return thrown;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

async function settle(match: RouteMatch, request: Request, context: unknown): Promise<Settled> {
  try {
    const [, value] = await Promise.all([loadRouteComponent(match.route), match.route.loader?.({ request, params: match.params, context })]);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The route whose error boundary shows an error of `matches[index]`: itself or its nearest parent with one, else the root. */
export function boundaryOf(matches: readonly RouteMatch[], index: number): RouteMatch {
  for (let i = index; i >= 0; i--) if (matches[i].route.errorElement !== undefined) return matches[i];
  return matches[0];
}

/** Runs a branch's loaders (and loads its components) for a request. */
export async function loadMatches(matches: RouteMatch[], request: Request, context?: unknown): Promise<LoadOutcome> {
  const results = await Promise.all(matches.map((match) => settle(match, request, context)));
  const loaderData: Record<string, unknown> = {};
  let errors: Record<string, unknown> | null = null;
  let statusCode = 200;
  let errorStatus: number | null = null;
  for (const [i, result] of results.entries()) {
    const id = matches[i].route.id;
    const value = result.ok ? result.value : result.error;
    if (isRedirect(value)) return value;
    if (result.ok) {
      if (value instanceof DataWithResponseInit) {
        loaderData[id] = value.data;
        if (value.init?.status) statusCode = value.init.status;
      } else if (matches[i].route.loader) loaderData[id] = value;
      continue;
    }
    const error = routeError(result.error);
    const boundary = boundaryOf(matches, i).route.id;
    errors ??= {};
    if (!(boundary in errors)) errors[boundary] = error;
    errorStatus ??= isRouteErrorResponse(error) ? error.status : 500;
  }
  return { matches, loaderData, errors, statusCode: errorStatus ?? statusCode };
}

/**
 * The worker's render of a request: the matched branch loaded, or the redirect a loader answered.
 * A path no route matches (the site's table has a catch-all) is a 404 at the root.
 */
export async function query(routes: RouteObject[], request: Request, context?: unknown): Promise<LoadOutcome> {
  const matches = matchRoutes(routes, new URL(request.url).pathname);
  if (!matches) {
    const root = routes[0];
    return { matches: [{ route: root, params: {} }], loaderData: {}, errors: { [root.id]: new ErrorResponse(404, "Not Found", null, true) }, statusCode: 404 };
  }
  return loadMatches(matches, request, context);
}

/**
 * The data of the page a request's path shows, from its own route's loader alone (GET /api/page,
 * worker/catalogue/api.ts). Throws what the loader throws, a `data(…, { status })` as an ErrorResponse.
 */
export async function queryRoute(routes: RouteObject[], request: Request, context?: unknown): Promise<unknown> {
  const leaf = matchRoutes(routes, new URL(request.url).pathname)?.at(-1);
  if (!leaf) throw new ErrorResponse(404, "Not Found", null, true);
  try {
    const value: unknown = await leaf.route.loader?.({ request, params: leaf.params, context });
    return value instanceof DataWithResponseInit ? value.data : value;
  } catch (thrown) {
    throw routeError(thrown);
  }
}
