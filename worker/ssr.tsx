import { renderToReadableStream } from "react-dom/server.node";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type LoaderFunctionArgs } from "react-router";
import clientAssets from "virtual:client-assets";
import { Document, playerPageScripts, type DocumentAssets } from "../shared/Document";
import { serializeForScript } from "../shared/hydration";
import { pageBootScript } from "../shared/player/page-scripts";
import { streamStartLinkHeader } from "../shared/playback/stream-start";
import type { VideoData } from "../shared/loaders";
import type { RootData } from "../shared/root-data";
import { createRoutes, type LazyHandle } from "../shared/routes";
import type { AppContext } from "./app-env";
import { siteConfigOf } from "./config";
import { isCrawler } from "./crawler";
import { errorPageHtml } from "./error-page";
import { ANONYMOUS_HTML_CACHE, noteRenderOutcome } from "./page-cache";
import { serializeRouteErrors } from "./route-errors";
import { catalogueLoaders } from "./catalogue/loaders";
import { rankingOf } from "./plays/ranking";

/** What the worker hands to the loaders of one request. */
export interface ServerLoaderContext {
  root: RootData;
  /** The catalogue (and accounts) database. */
  db: D1Database;
  /** The worker's bindings (the 排行榜 reads D1 through the feed source). */
  env: Env;
}

function serverRootLoader({ context }: LoaderFunctionArgs): RootData {
  return (context as unknown as ServerLoaderContext).root;
}

/** The site's route handler in the worker: loaders read the request context (root data, D1). */
export const siteHandler = createStaticHandler(
  createRoutes({
    rootLoader: serverRootLoader,
    sessionUser: ({ context }) => (context as unknown as ServerLoaderContext).root.user,
    catalogue: catalogueLoaders(({ context }) => (context as unknown as ServerLoaderContext).db),
    ranking: (period, { context }) => {
      const { env } = context as unknown as ServerLoaderContext;
      return rankingOf(env.DB, period, Date.now());
    },
  }),
);

/** Root data of an anonymous request. */
export function anonymousRootData(c: AppContext): RootData {
  return { config: siteConfigOf(c.env, c.req.url), user: null, library: null };
}

/** A React Router static handler (the site's, or a test's). */
export type PageHandler = ReturnType<typeof createStaticHandler>;

/** HTML that closes a page whose stream broke after the shell was sent (never a silent cut). */
const STREAM_BROKEN_HTML =
  '<div class="not-found" role="alert"><h1 class="not-found-title">页面加载失败</h1><p class="not-found-text">抱歉，页面出现了问题，请刷新页面或稍后重试。</p></div></body></html>';

/** The most one read takes from React's stream (a page's HTML is 10–60 KB). */
const READ_BYTES = 64 * 1024;

/**
 * The page stream as sent: if React's stream fails after the shell (a fatal error, not one that
 * a Suspense boundary already turned into its fallback), the page still ends with a message and
 * `</html>`, and the failure is logged with the path.
 *
 * React writes its HTML in 4 KB pieces, fourteen for the home page, each of which the runtime
 * would carry as a chunk of its own. A BYOB read takes everything React has written so far in
 * one piece (a byte stream fills the reader's buffer from its queue), so a page goes out in two
 * or three chunks, each as soon as React has written it (docs/decisions/0056).
 */
function closedOnError(stream: ReadableStream<Uint8Array>, path: string): ReadableStream<Uint8Array> {
  const reader = stream.getReader({ mode: "byob" });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read(new Uint8Array(READ_BYTES));
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        console.error(`SSR stream failed after the shell on ${path}`, error);
        controller.enqueue(new TextEncoder().encode(STREAM_BROKEN_HTML));
        controller.close();
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Route modules whose page plays a stream (the detail page's player). */
const STREAM_PAGES = new Set(["shared/pages/VideoPage.tsx"]);
/** The hls.js build the player imports (shared/player/load-hls.ts, loadHls). */
/** Pages whose HTML holds an e-mail link's token (/auth/confirm, /auth/reset): never stored anywhere. */
const CARRIES_LINK_TOKEN = /^\/auth\/(?:confirm|reset)\/?$/;

const HLS_MODULE = "node_modules/hls.js/dist/hls.light.mjs";
/** The player island (shared/player/PlayerIsland.tsx): it takes over the early hls.js playback when it hydrates. */
const PLAYER_MODULE = "shared/player/VideoPlayer.tsx";

/**
 * The client files of this page: the entry, plus the chunks of the lazy routes it matched
 * (preloaded), and on a page that plays a stream the hls.js and player chunks and the early
 * hls.js start, which its inline scripts fetch only where the browser will play it with hls.js
 * (shared/Document.tsx, shared/player/page-scripts.ts).
 */
type RouteMatch = { route: { id: string; handle?: unknown } };

/** The source module of a matched lazy route ("" for others). */
const moduleOf = (match: RouteMatch) => (match.route.handle as LazyHandle | undefined)?.module ?? "";

/** The matched route whose page plays a stream, when the page answers 200. */
function streamPageMatch(matches: readonly RouteMatch[], status: number): RouteMatch | undefined {
  return status === 200 ? matches.find((match) => STREAM_PAGES.has(moduleOf(match))) : undefined;
}

let earlyHlsFiles: string[] | null = null;
/** The early hls.js start's files and the hls.js chunk, computed once per isolate (the manifest does not change). */
function earlyHlsStart(): string[] {
  earlyHlsFiles ??= [...new Set([...clientAssets.hlsStart, ...(clientAssets.lazy[HLS_MODULE] ?? [])])];
  return earlyHlsFiles;
}

function assetsFor(matches: readonly RouteMatch[], status: number): DocumentAssets {
  const extra = matches.flatMap((match) => clientAssets.lazy[moduleOf(match)] ?? []);
  const preloads = [...new Set([...clientAssets.preloads, ...extra])];
  const streams = streamPageMatch(matches, status) !== undefined;
  const streamChunks = [...(clientAssets.lazy[HLS_MODULE] ?? []), ...(clientAssets.lazy[PLAYER_MODULE] ?? [])].filter((file) => !preloads.includes(file));
  return {
    scripts: clientAssets.scripts,
    styles: clientAssets.styles,
    preloads,
    ...(streams && streamChunks.length > 0 ? { streamChunks, hlsStart: earlyHlsStart() } : {}),
  };
}

/**
 * The `Link` header of a page that plays a stream: the player's first two playlists, preloaded
 * from the response headers (shared/playback/stream-start.ts). Null on other pages.
 */
function streamStartLinks(matches: readonly RouteMatch[], loaderData: Record<string, unknown>, status: number, url: URL): string | null {
  const match = streamPageMatch(matches, status);
  const data = match ? (loaderData[match.route.id] as VideoData | undefined) : undefined;
  return data?.video ? streamStartLinkHeader(data.video, data.episode, url.searchParams.get("engine")) : null;
}

/** An escaped control character (C0 or DEL) in a path. */
const ESCAPED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

/**
 * The request with escaped control characters in its path escaped once more, so that the router
 * matches them as text ("%09") and renders the not-found page: decoded, "/%09/" becomes "/\t/",
 * which the URL parser reads as "//" (a URL without a host) and the router could not render.
 */
export function withControlCharactersKept(request: Request): Request {
  const url = new URL(request.url);
  if (!ESCAPED_CONTROL.test(url.pathname)) return request;
  url.pathname = url.pathname.replace(new RegExp(ESCAPED_CONTROL, "gi"), (escape) => "%25" + escape.slice(1));
  return new Request(url.toString(), request);
}

/**
 * Server-side render with a given route handler, streamed, with the status of the matched route.
 * An error before the shell is complete gives the Chinese 500 page; an error after it (inside a
 * Suspense boundary) is logged with the path and the boundary's fallback stays in the HTML.
 */
export async function renderWithHandler(pageHandler: PageHandler, c: AppContext, root: RootData): Promise<Response> {
  const request = withControlCharactersKept(c.req.raw);
  const url = new URL(request.url);
  const path = url.pathname;
  let renderFailed = false;
  try {
    const context = await pageHandler.query(request, { requestContext: { root, db: c.env.DB, env: c.env } satisfies ServerLoaderContext });
    if (context instanceof Response) return context; // a loader redirect

    const router = createStaticRouter(pageHandler.dataRoutes, context);
    const hydration = {
      loaderData: context.loaderData,
      actionData: context.actionData,
      errors: serializeRouteErrors(context.errors),
    };
    const nonce = c.get("secureHeadersNonce");
    const assets = assetsFor(context.matches, context.statusCode);
    const playerScripts = playerPageScripts(assets);
    const stream = await renderToReadableStream(
      <Document assets={assets} nonce={nonce}>
        <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
      </Document>,
      {
        nonce,
        // On a page with a player the page's modules are started by an inline script after the
        // hydration data (shared/player/page-scripts.ts, pageBootScript), elsewhere by React's bootstrap module.
        bootstrapScriptContent:
          `window.__staticRouterHydrationData=${serializeForScript(hydration)};window.__ASSETS__=${serializeForScript(assets)};` +
          (playerScripts ? pageBootScript(playerScripts) : ""),
        ...(playerScripts ? {} : { bootstrapModules: clientAssets.scripts }),
        // A completed Suspense boundary (the player island) is written in place, never moved out of
        // the shell: React otherwise outlines every boundary once the shell passes this size (12.8 KB
        // by default), and the <video> then reaches the document only through an inline script that
        // waits for the stylesheet — its stream starting one round trip and the CSS later.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        signal: request.signal,
        onError(error) {
          renderFailed = true;
          console.error(`SSR render error on ${path}`, error);
        },
      },
    );
    if (isCrawler(request.headers.get("user-agent"))) await stream.allReady;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    // Pages that carry an e-mail link's token (and a signed-in visitor's pages) are kept by no cache.
    headers.set("Cache-Control", root.user || CARRIES_LINK_TOKEN.test(path) ? "private, no-store" : ANONYMOUS_HTML_CACHE);
    if (root.user) headers.set("Vary", "Cookie");
    const links = streamStartLinks(context.matches, context.loaderData, context.statusCode, url);
    if (links) headers.set("Link", links);
    const response = new Response(request.method === "HEAD" ? null : closedOnError(stream, path), { status: context.statusCode, headers });
    // A page whose render failed after the shell must not be kept by the edge cache.
    noteRenderOutcome(
      response,
      stream.allReady.then(
        () => !renderFailed,
        () => false,
      ),
    );
    return response;
  } catch (error) {
    if (!renderFailed) console.error(`SSR error before the shell on ${path}`, error);
    return c.html(errorPageHtml(root.config.siteName), 500, { "Cache-Control": "no-store" });
  }
}

/** Server-side render of any page of the site. */
export function renderPage(c: AppContext, root: RootData = anonymousRootData(c)): Promise<Response> {
  return renderWithHandler(siteHandler, c, root);
}
