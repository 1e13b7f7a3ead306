import { renderToReadableStream } from "react-dom/server";
import { createStaticHandler, createStaticRouter, isRouteErrorResponse, StaticRouterProvider, type LoaderFunctionArgs } from "react-router";
import clientAssets from "virtual:client-assets";
import { Document } from "../shared/Document";
import { serializeForScript } from "../shared/hydration";
import type { RootData } from "../shared/root-data";
import { createRoutes } from "../shared/routes";
import { siteConfigFrom } from "../shared/site-config";
import type { AppContext } from "./app-env";
import { isCrawler } from "./crawler";
import { errorPageHtml } from "./error-page";
import { ANONYMOUS_HTML_CACHE } from "./page-cache";

/** What the worker hands to the loaders of one request. */
interface ServerLoaderContext {
  root: RootData;
}

function serverRootLoader({ context }: LoaderFunctionArgs): RootData {
  return (context as unknown as ServerLoaderContext).root;
}

const handler = createStaticHandler(
  createRoutes({
    rootLoader: serverRootLoader,
    sessionUser: ({ context }) => (context as unknown as ServerLoaderContext).root.user,
  }),
);

/** Route errors in the shape the browser router's hydration expects. */
function serializeErrors(errors: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [routeId, error] of Object.entries(errors)) {
    if (isRouteErrorResponse(error)) out[routeId] = { ...error, __type: "RouteErrorResponse" };
    else if (error instanceof Error) out[routeId] = { message: "页面加载失败", __type: "Error" };
    else out[routeId] = error;
  }
  return out;
}

/** Root data of an anonymous request. */
export function anonymousRootData(c: AppContext): RootData {
  return { config: siteConfigFrom(c.env, new URL(c.req.url).origin), user: null, library: null };
}

/** Server-side render of any page, streamed, with the status of the matched route. */
export async function renderPage(c: AppContext, root: RootData = anonymousRootData(c)): Promise<Response> {
  const request = c.req.raw;
  const context = await handler.query(request, { requestContext: { root } satisfies ServerLoaderContext });
  if (context instanceof Response) return context; // a loader redirect

  const router = createStaticRouter(handler.dataRoutes, context);
  const hydration = {
    loaderData: context.loaderData,
    actionData: context.actionData,
    errors: serializeErrors(context.errors),
  };
  const nonce = c.get("secureHeadersNonce");
  let renderFailed = false;
  try {
    const stream = await renderToReadableStream(
      <Document assets={clientAssets}>
        <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
      </Document>,
      {
        nonce,
        bootstrapScriptContent: `window.__staticRouterHydrationData=${serializeForScript(hydration)};window.__ASSETS__=${serializeForScript(clientAssets)};`,
        bootstrapModules: clientAssets.scripts,
        signal: request.signal,
        onError(error) {
          renderFailed = true;
          console.error("SSR render error", error);
        },
      },
    );
    if (isCrawler(request.headers.get("user-agent"))) await stream.allReady;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    headers.set("Cache-Control", root.user ? "private, no-store" : ANONYMOUS_HTML_CACHE);
    if (root.user) headers.set("Vary", "Cookie");
    void renderFailed;
    return new Response(request.method === "HEAD" ? null : stream, { status: context.statusCode, headers });
  } catch (error) {
    console.error("SSR shell error", error);
    return c.html(errorPageHtml(), 500, { "Cache-Control": "no-store" });
  }
}
