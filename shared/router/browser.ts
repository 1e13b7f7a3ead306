/**
 * The browser's router (docs/decisions/0018-own-router.md): the page's state from the worker's
 * hydration data, then one navigation at a time — push, replace, back/forward (popstate) and
 * revalidation. A navigation matches the URL, loads every matched route's loader and component
 * (shared/router/load.ts) and only then changes the address and the page; a newer navigation
 * aborts an older one (its data requests too); a loader's redirect navigates on (a push stays a push,
 * anything else replaces).
 * A change of the hash alone loads nothing. A push to another page scrolls to the top (unless
 * `preventScrollReset`); back and forward leave the scroll position to the browser.
 */
import { loadMatches, loadRouteComponents, type HydrationData } from "./load";
import { matchRoutes, type RouteMatch, type RouteObject } from "./match";
import type { Location, NavigateOptions, RouterSource, RouterState } from "./react";
import { ErrorResponse } from "./responses";

/** The browser's router: its state, navigation and revalidation (sign-in and sign-out reload the root data). */
export interface BrowserRouter extends RouterSource {
  revalidate(): Promise<void>;
}

/** How a navigation changes the history: a new entry, the current one, none (back/forward moved already, or a revalidation). */
export type NavigationKind = "push" | "replace" | "pop" | "revalidate";

/** At most this many redirects in a row before the browser loads the page itself. */
const MAX_REDIRECTS = 10;

interface HistoryEntry {
  usr?: unknown;
  key?: string;
  idx?: number;
}

/** Route errors as the worker serialised them, back as what the boundaries read (an ErrorResponse, an Error). */
export function revivedErrors(errors: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(errors)) {
    const error = value as { __type?: string; status?: number; statusText?: string; data?: unknown; internal?: boolean; message?: string };
    if (error?.__type === "RouteErrorResponse") out[id] = new ErrorResponse(error.status ?? 500, error.statusText ?? "", error.data, error.internal === true);
    else if (error?.__type === "Error") out[id] = new Error(error.message);
    else out[id] = value;
  }
  return out;
}

/** Whether going from `from` to `to` changes only the hash (to a non-empty one): nothing to load. */
export function isHashChangeOnly(from: Pick<Location, "pathname" | "search" | "hash">, to: Pick<Location, "pathname" | "search" | "hash">): boolean {
  return from.pathname === to.pathname && from.search === to.search && to.hash !== "" && from.hash !== to.hash;
}

/** How a navigation to `to` from `here` changes the history: replace when asked, or when it goes to the page itself. */
export function navigationKind(here: Pick<Location, "pathname" | "search" | "hash">, to: URL, replace: boolean | undefined): "push" | "replace" {
  if (replace !== undefined) return replace ? "replace" : "push";
  return to.pathname + to.search + to.hash === here.pathname + here.search + here.hash ? "replace" : "push";
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function entry(): HistoryEntry {
  return (window.history.state ?? {}) as HistoryEntry;
}

function windowLocation(): Location {
  const { pathname, search, hash } = window.location;
  const { usr, key } = entry();
  return { pathname, search, hash, state: usr ?? null, key: key ?? "default" };
}

/**
 * The router of this page. The matched routes' components must be loaded before the first render
 * (`loadRouteComponents`), so that hydration renders what the worker rendered.
 */
export function createBrowserRouter(routes: RouteObject[], hydration: HydrationData | undefined): BrowserRouter {
  const listeners = new Set<(state: RouterState) => void>();
  let index = entry().idx ?? 0;
  if (entry().idx === undefined) window.history.replaceState({ ...entry(), idx: index }, "");
  let state: RouterState = {
    location: windowLocation(),
    matches: matchRoutes(routes, window.location.pathname) ?? [],
    loaderData: hydration?.loaderData ?? {},
    errors: revivedErrors(hydration?.errors),
  };
  let pending: { controller: AbortController; again: () => Promise<void> } | null = null;

  const commit = (next: RouterState) => {
    state = next;
    for (const listener of listeners) listener(state);
  };

  async function load(url: URL, kind: NavigationKind, options: NavigateOptions, redirects = 0): Promise<void> {
    pending?.controller.abort();
    const controller = new AbortController();
    const mine = { controller, again: () => load(url, kind, options, redirects) };
    pending = mine;
    const matches: RouteMatch[] = matchRoutes(routes, url.pathname) ?? [];
    const outcome = await loadMatches(matches, new Request(url.href, { signal: controller.signal }));
    if (pending !== mine) return; // a newer navigation took over
    pending = null;
    if (outcome instanceof Response) {
      const to = new URL(outcome.headers.get("Location") ?? "/", url);
      if (to.origin !== window.location.origin || redirects >= MAX_REDIRECTS) return window.location.assign(to.href);
      return load(to, kind === "push" ? "push" : "replace", {}, redirects + 1);
    }
    const key = kind === "revalidate" ? state.location.key : kind === "pop" ? windowLocation().key : newKey();
    const locationState = kind === "revalidate" ? state.location.state : kind === "pop" ? windowLocation().state : (options.state ?? null);
    const href = url.pathname + url.search + url.hash;
    if (kind === "push") window.history.pushState({ usr: locationState, key, idx: ++index }, "", href);
    if (kind === "replace") window.history.replaceState({ usr: locationState, key, idx: index }, "", href);
    commit({
      location: { pathname: url.pathname, search: url.search, hash: url.hash, state: locationState, key },
      matches,
      loaderData: outcome.loaderData,
      errors: outcome.errors,
    });
    // A new page opens at its top, as a full page load does (not an episode switch that asks to
    // stay, nor a link to an anchor); back and forward keep the browser's own restoration.
    if (kind === "push" && !options.preventScrollReset && !url.hash) window.scrollTo(0, 0);
  }

  window.addEventListener("popstate", () => {
    index = entry().idx ?? index;
    const here = windowLocation();
    if (isHashChangeOnly(state.location, here)) {
      pending?.controller.abort();
      pending = null;
      return commit({ ...state, location: here });
    }
    void load(new URL(window.location.href), "pop", {});
  });

  return {
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async navigate(to, options = {}) {
      if (typeof to === "number") return window.history.go(to);
      const here = state.location;
      const url = new URL(to, window.location.origin + here.pathname + here.search + here.hash);
      if (url.origin !== window.location.origin) return window.location.assign(url.href);
      const kind = navigationKind(here, url, options.replace);
      if (isHashChangeOnly(here, url)) {
        pending?.controller.abort();
        pending = null;
        const key = newKey();
        const locationState = options.state ?? null;
        if (kind === "push") window.history.pushState({ usr: locationState, key, idx: ++index }, "", url.href);
        else window.history.replaceState({ usr: locationState, key, idx: index }, "", url.href);
        return commit({ ...state, location: { pathname: url.pathname, search: url.search, hash: url.hash, state: locationState, key } });
      }
      return load(url, kind, options);
    },
    revalidate() {
      // During a navigation its loads start again (they may have read the old session).
      if (pending) return pending.again();
      const { pathname, search, hash } = state.location;
      return load(new URL(pathname + search + hash, window.location.origin), "revalidate", {});
    },
  };
}

export { loadRouteComponents, type HydrationData };
