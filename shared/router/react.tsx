/**
 * The router's React side (docs/decisions/0018-own-router.md): the matched branch rendered route
 * by route (`<Outlet />` renders the child), error boundaries for loader and render errors, and the
 * hooks and links the pages use — named and shaped as React Router's, which the site used before.
 * The worker renders a loaded branch once (`RouterView`); the browser's `RouterProvider` follows
 * its router (shared/router/browser.ts).
 */
import {
  Component,
  createContext,
  startTransition,
  useContext,
  useLayoutEffect,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from "react";
import type { RouteMatch } from "./match";

/** Where the page is: the URL's parts (the path still percent-encoded), the navigation's state and its key ("default" for the first page). */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

/** What a render shows: the location, its matched branch, each route's data, and the errors by boundary route id. */
export interface RouterState {
  location: Location;
  matches: RouteMatch[];
  loaderData: Record<string, unknown>;
  errors: Record<string, unknown> | null;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  /** Carried in the history entry (`useLocation().state`). */
  state?: unknown;
  /** Stay at the current scroll position (a push otherwise opens the new page at its top: docs/decisions/0018-own-router.md). */
  preventScrollReset?: boolean;
}

/** Navigates to a path (resolved against the current URL: "?page=2" stays on the page) or through history (-1 = back). */
export type NavigateFunction = (to: string | number, options?: NavigateOptions) => Promise<void>;

interface RouterContextValue {
  state: RouterState;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterContextValue | null>(null);
const RouteContext = createContext<{ id: string | null; outlet: ReactNode }>({ id: null, outlet: null });
const RouteErrorContext = createContext<unknown>(undefined);

function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error("A router hook outside the router");
  return router;
}

/** Catches a render error below a route with an error boundary; a new location clears it. */
class RenderErrorBoundary extends Component<{ location: Location; fallback: ReactNode; children: ReactNode }, { error: unknown; location: Location }> {
  override state = { error: undefined as unknown, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { location: Location }, state: { error: unknown; location: Location }) {
    return props.location === state.location ? null : { error: undefined, location: props.location };
  }

  override componentDidCatch(error: unknown) {
    console.error("A page failed to render", error);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <RouteErrorContext.Provider value={this.state.error}>{this.props.fallback}</RouteErrorContext.Provider>;
  }
}

/** The branch as elements: each route renders its component (or element) with the next one as its outlet, down to the first route showing an error. */
function renderBranch({ matches, errors, location }: RouterState): ReactNode {
  const errorIndex = errors ? matches.findIndex((m) => errors[m.route.id] !== undefined) : -1;
  const shown = errorIndex >= 0 ? matches.slice(0, errorIndex + 1) : matches;
  return shown.reduceRight<ReactNode>((outlet, { route }, i) => {
    let children: ReactNode;
    if (i === errorIndex) children = <RouteErrorContext.Provider value={errors?.[route.id]}>{route.errorElement}</RouteErrorContext.Provider>;
    else if (route.Component) children = <route.Component />;
    else children = route.element !== undefined ? route.element : outlet;
    if (route.errorElement !== undefined && i !== errorIndex) {
      children = (
        <RenderErrorBoundary location={location} fallback={route.errorElement}>
          {children}
        </RenderErrorBoundary>
      );
    }
    return <RouteContext.Provider value={{ id: route.id, outlet }}>{children}</RouteContext.Provider>;
  }, null);
}

/** Renders a router state: the worker's one render of a page, and the browser's current one. */
export function RouterView({ state, navigate }: { state: RouterState; navigate: NavigateFunction }) {
  return <RouterContext.Provider value={{ state, navigate }}>{renderBranch(state)}</RouterContext.Provider>;
}

/** What the browser's router offers its provider (shared/router/browser.ts). */
export interface RouterSource {
  readonly state: RouterState;
  subscribe(listener: (state: RouterState) => void): () => void;
  navigate: NavigateFunction;
}

/** The browser's router in React: each new state renders in a transition (the old page stays until the new one is ready), as React Router did. */
export function RouterProvider({ router }: { router: RouterSource }) {
  const [state, setState] = useState(router.state);
  useLayoutEffect(() => {
    const follow = (next: RouterState) => startTransition(() => setState(next));
    // A navigation that ended while the page hydrated (before this subscription) is shown now.
    follow(router.state);
    return router.subscribe(follow);
  }, [router]);
  return <RouterView state={state} navigate={router.navigate} />;
}

/** The matched child route's elements (inside a layout route). */
export function Outlet() {
  return useContext(RouteContext).outlet;
}

export function useLocation(): Location {
  return useRouter().state.location;
}

export function useNavigate(): NavigateFunction {
  return useRouter().navigate;
}

/** The data of the route this component renders in. */
export function useLoaderData<T = unknown>(): T {
  const { id } = useContext(RouteContext);
  return useRouter().state.loaderData[id ?? ""] as T;
}

/** The data of a route of the branch by its id (the root's: shared/components/useRootData.ts). */
export function useRouteLoaderData<T = unknown>(routeId: string): T | undefined {
  return useRouter().state.loaderData[routeId] as T | undefined;
}

/** The error an error boundary shows. */
export function useRouteError(): unknown {
  return useContext(RouteErrorContext);
}

/** A path as the address bar writes it ("/category/电影" → "/category/%E7%94%B5%E5%BD%B1"), with its query and hash. */
function hrefOf(to: string, here: Location): URL {
  return new URL(to, "http://router.invalid" + here.pathname + here.search + here.hash);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  replace?: boolean;
  state?: unknown;
  preventScrollReset?: boolean;
  /** Let the browser load the page (no client navigation). */
  reloadDocument?: boolean;
};

function isPlainClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    !event.defaultPrevented && event.button === 0 && (!target || target === "_self") && !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

/**
 * A link that navigates in the page on a plain left click (the link's own onClick runs first and
 * may prevent it); a link to the page itself replaces the history entry.
 */
export function Link({ to, replace, state, preventScrollReset, reloadDocument, onClick, target, children, ...rest }: LinkProps) {
  const router = useRouter();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (reloadDocument || !isPlainClick(event, target)) return;
    event.preventDefault();
    const here = router.state.location;
    const url = hrefOf(to, here);
    const same = url.pathname + url.search + url.hash === here.pathname + here.search + here.hash;
    void router.navigate(to, { replace: replace ?? same, state, preventScrollReset });
  };
  return (
    <a {...rest} href={to} target={target} onClick={handleClick}>
      {children}
    </a>
  );
}

/** Whether a link's path is the page's or one of its parents' ("/category/电影" is active on /category/电影/…), case-insensitive. */
export function isActivePath(to: string, here: Location, end = false): boolean {
  const target = hrefOf(to, here).pathname.toLowerCase();
  const current = here.pathname.toLowerCase();
  const length = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  return current === target || (!end && current.startsWith(target) && current.charAt(length) === "/");
}

/** A navigation link that marks the current page's: class "active" and aria-current="page". */
export function NavLink({ end, className, ...props }: LinkProps & { end?: boolean }) {
  const active = isActivePath(props.to, useLocation(), end);
  return (
    <Link {...props} className={[className, active ? "active" : null].filter(Boolean).join(" ") || undefined} aria-current={active ? "page" : undefined} />
  );
}
