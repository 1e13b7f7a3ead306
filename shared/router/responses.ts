/**
 * What a loader returns or throws, and what it is given (docs/decisions/0018-own-router.md): the
 * same names and shapes as React Router's, which the site used before, so the loaders did not change.
 * Pure: the worker, the browser and the pure shared code (types only) read it.
 */

/** A path's parameters (`:id` → `params.id`), decoded. */
export type Params = Readonly<Record<string, string | undefined>>;

/** What a route's loader is given: the request (its URL, its abort signal), the path's parameters and the platform's context. */
export interface LoaderFunctionArgs {
  request: Request;
  params: Params;
  /** The worker's request context (worker/ssr.tsx, ServerLoaderContext); undefined in the browser. */
  context?: unknown;
}

/** A route's loader: its page's data, or it throws `redirect(…)`, `data(…, { status })` or an Error. */
export type LoaderFunction = (args: LoaderFunctionArgs) => unknown;

/** A loader's data with the HTTP status (and headers) of its answer: `data(value, { status: 404 })`. */
export class DataWithResponseInit<D = unknown> {
  readonly type = "DataWithResponseInit";
  constructor(
    readonly data: D,
    readonly init: ResponseInit | null,
  ) {}
}

/** Data with a status: returned, the page answers with that status; thrown, the error boundary shows it. */
export function data<D>(value: D, init?: number | ResponseInit): DataWithResponseInit<D> {
  return new DataWithResponseInit(value, typeof init === "number" ? { status: init } : (init ?? null));
}

/** A redirect answer (302 unless told), thrown or returned by a loader. */
export function redirect(url: string, init: number | ResponseInit = 302): Response {
  const responseInit = typeof init === "number" ? { status: init } : { status: 302, ...init };
  const headers = new Headers(responseInit.headers);
  headers.set("Location", url);
  return new Response(null, { ...responseInit, headers });
}

/** A thrown `data(…, { status })`, as the error boundary sees it (and the hydration data carries it). */
export class ErrorResponse {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly data: unknown,
    /** True for the router's own answers (no route matched), as in React Router. */
    readonly internal = false,
  ) {}
}

/** Whether a route error is a status answer (`data(…, { status })` thrown by a loader), not an Error. */
export function isRouteErrorResponse(error: unknown): error is ErrorResponse {
  if (typeof error !== "object" || error === null) return false;
  const e = error as Partial<ErrorResponse>;
  return typeof e.status === "number" && typeof e.statusText === "string" && typeof e.internal === "boolean" && "data" in e;
}

/** Whether a loader's result is a redirect answer. */
export function isRedirect(value: unknown): value is Response {
  return value instanceof Response && value.status >= 300 && value.status < 400 && value.headers.has("Location");
}
