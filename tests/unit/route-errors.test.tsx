import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, data, Outlet, StaticRouterProvider, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { serializeRouteErrors } from "../../worker/route-errors";

/**
 * The worker writes the hydration data itself (worker/ssr.tsx), with route errors serialised by
 * worker/route-errors.ts in React Router's private format. These tests pin that format against the
 * installed React Router: its own StaticRouterProvider serialises the same errors, and ours must
 * match it (except the message of a server error, which never reaches the page).
 */

const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    element: <Outlet />,
    errorElement: <p>root error</p>,
    children: [
      {
        id: "missing",
        path: "missing",
        loader: () => {
          throw data({ kind: "video" }, { status: 404, statusText: "Not Found" });
        },
        element: <p>never</p>,
        errorElement: <p>not found</p>,
      },
      {
        id: "broken",
        path: "broken",
        loader: () => {
          throw new Error("secret server detail");
        },
        element: <p>never</p>,
        errorElement: <p>broken</p>,
      },
      {
        id: "typed",
        path: "typed",
        loader: () => {
          throw new TypeError("another secret");
        },
        element: <p>never</p>,
        errorElement: <p>typed</p>,
      },
    ],
  },
];

const handler = createStaticHandler(routes);

async function errorsOf(path: string) {
  const context = await handler.query(new Request("https://yingshi.test" + path));
  if (context instanceof Response) throw new Error("unexpected redirect");
  // React Router's own serialisation: the hydration script StaticRouterProvider writes.
  const html = renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate />);
  const literal = /window\.__staticRouterHydrationData = JSON\.parse\(("(?:[^"\\]|\\.)*")\);/.exec(html)?.[1];
  if (!literal) throw new Error("React Router wrote no hydration data: its format changed");
  const theirs = (JSON.parse(JSON.parse(literal) as string) as { errors: Record<string, Record<string, unknown>> | null }).errors;
  const ours = serializeRouteErrors(context.errors) as Record<string, Record<string, unknown>> | null;
  return { theirs, ours };
}

describe("route errors in the hydration data (worker/route-errors.ts)", () => {
  it("a thrown data() response is serialised exactly as React Router serialises it", async () => {
    const { theirs, ours } = await errorsOf("/missing");
    expect(theirs?.missing).toMatchObject({ __type: "RouteErrorResponse", status: 404, statusText: "Not Found", data: { kind: "video" } });
    expect(ours).toEqual(theirs);
  });

  it("a thrown Error has React Router's shape, without the server's message", async () => {
    for (const [path, id] of [
      ["/broken", "broken"],
      ["/typed", "typed"],
    ] as const) {
      const { theirs, ours } = await errorsOf(path);
      expect(theirs?.[id]?.__type).toBe("Error");
      expect(ours?.[id]).toEqual({ __type: "Error", message: "页面加载失败" });
      // Every field we send is one React Router sends (its hydration reads no other).
      for (const key of Object.keys(ours?.[id] ?? {})) expect(theirs?.[id]).toHaveProperty(key);
      expect(JSON.stringify(ours)).not.toContain("secret");
    }
  });

  it("no errors → null, like React Router", async () => {
    expect(serializeRouteErrors(null)).toBeNull();
    const context = await handler.query(new Request("https://yingshi.test/"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    expect(serializeRouteErrors(context.errors)).toBeNull();
  });
});
