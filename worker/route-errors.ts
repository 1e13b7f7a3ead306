import { isRouteErrorResponse } from "react-router";

/**
 * Route errors in the shape the browser router's hydration reads (`__type` "RouteErrorResponse" /
 * "Error"): the format of React Router's own StaticRouterProvider, which the worker does not let
 * serialise the hydration data because it would send a server error's message to the page. Not a
 * public API of React Router: tests/unit/route-errors.test.tsx pins it against the installed version.
 */
export function serializeRouteErrors(errors: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [routeId, error] of Object.entries(errors)) {
    if (isRouteErrorResponse(error)) out[routeId] = { ...error, __type: "RouteErrorResponse" };
    else if (error instanceof Error) out[routeId] = { message: "页面加载失败", __type: "Error" };
    else out[routeId] = error;
  }
  return out;
}
