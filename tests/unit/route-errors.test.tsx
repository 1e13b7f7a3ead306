import { renderToString } from "react-dom/server";
import { data, isRouteErrorResponse, Outlet, RouterView, type RouteObject } from "../../shared/router";
import { revivedErrors } from "../../shared/router/browser";
import { query } from "../../shared/router/load";
import { describe, expect, it } from "vitest";
import { serializeRouteErrors } from "../../worker/route-errors";

/**
 * The worker writes the hydration data itself (worker/ssr.tsx), with route errors serialised by
 * worker/route-errors.ts; the browser's router revives them (shared/router/browser.ts). These
 * tests hold the two ends together, and keep a server error's message out of the page.
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

async function errorsOf(path: string) {
  const context = await query(routes, new Request("https://yingshi.test" + path));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const sent = serializeRouteErrors(context.errors);
  // What the page reads: the hydration script's JSON, revived by the browser's router.
  const revived = revivedErrors(JSON.parse(JSON.stringify(sent)) as Record<string, unknown> | null);
  return { sent, revived };
}

describe("route errors in the hydration data (worker/route-errors.ts → shared/router/browser.ts)", () => {
  it("a thrown data() response reaches the browser's boundary as the same status answer", async () => {
    const { sent, revived } = await errorsOf("/missing");
    expect(sent?.missing).toMatchObject({ __type: "RouteErrorResponse", status: 404, statusText: "Not Found", data: { kind: "video" } });
    const error = revived?.missing;
    expect(isRouteErrorResponse(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, statusText: "Not Found", data: { kind: "video" } });
  });

  it("a thrown Error reaches the browser as an Error, without the server's message", async () => {
    for (const [path, id] of [
      ["/broken", "broken"],
      ["/typed", "typed"],
    ] as const) {
      const { sent, revived } = await errorsOf(path);
      expect(sent?.[id]).toEqual({ __type: "Error", message: "页面加载失败" });
      expect(JSON.stringify(sent)).not.toContain("secret");
      expect(revived?.[id]).toBeInstanceOf(Error);
      expect((revived?.[id] as Error).message).toBe("页面加载失败");
    }
  });

  it("the server renders the boundary of the failed route, with its status", async () => {
    const context = await query(routes, new Request("https://yingshi.test/missing"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    expect(context.statusCode).toBe(404);
    const location = { pathname: "/missing", search: "", hash: "", state: null, key: "default" };
    const html = renderToString(<RouterView state={{ location, ...context }} navigate={() => Promise.resolve()} />);
    expect(html).toBe("<p>not found</p>");
  });

  it("no errors → null", async () => {
    expect(serializeRouteErrors(null)).toBeNull();
    const context = await query(routes, new Request("https://yingshi.test/"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    expect(serializeRouteErrors(context.errors)).toBeNull();
  });
});
