import { isRouteErrorResponse } from "../shared/router";

/**
 * Route errors in the shape the browser router's hydration reads (`__type` "RouteErrorResponse" /
 * "Error", shared/router/browser.ts `revivedErrors`; the format React Router used): a server
 * error's message never reaches the page. tests/unit/route-errors.test.tsx holds the two ends together.
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
