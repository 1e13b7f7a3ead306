/**
 * The site's router (docs/decisions/0018-own-router.md), in place of React Router's data router:
 * the same names for what the pages, loaders and components use. The browser's router is
 * shared/router/browser.ts, the worker's load `query` (shared/router/load.ts).
 */
export { matchRoutes, type RouteMatch, type RouteObject } from "./match";
export { data, isRouteErrorResponse, redirect, type LoaderFunction, type LoaderFunctionArgs, type Params } from "./responses";
export {
  Link,
  NavLink,
  Outlet,
  RouterProvider,
  RouterView,
  useLoaderData,
  useLocation,
  useNavigate,
  useRouteError,
  useRouteLoaderData,
  type Location,
  type NavigateFunction,
  type NavigateOptions,
  type RouterState,
} from "./react";
