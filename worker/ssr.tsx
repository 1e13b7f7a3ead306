import { renderToReadableStream } from "react-dom/server.node";
import { isRouteErrorResponse, RouterView, type LoaderFunctionArgs, type RouteObject } from "../shared/router";
import { query, type HydrationData } from "../shared/router/load";
import clientAssets from "virtual:client-assets";
import { Document, type DocumentAssets } from "../shared/Document";
import { serializeForScript } from "../shared/hydration";
import type { VideoData } from "../shared/loaders";
import type { RootData } from "../shared/root-data";
import type { SiteConfig } from "../shared/site-config";
import { createRoutes, declarationOf } from "../shared/routes/create-routes";
import type { RouteDeclaration } from "../shared/routes/declare";

import type { AppContext } from "./app-env";
import { siteConfigOf } from "./config";
import { isCrawler } from "./crawler";
import { errorPageHtml } from "./error-page";
import { isStorageFault } from "./fault-answers";
import { RETRY_AFTER_SECONDS } from "./http/plain-answers";
import { ANONYMOUS_HTML_CACHE, noteRenderOutcome } from "./page-cache";
import { serializeRouteErrors } from "./route-errors";
import { catalogueLoaders } from "./catalogue/loaders";
import { playerPage } from "./player-page";
import { CommentsSection } from "../shared/components/comments/CommentsSection";
import { renderCommentsWith } from "../shared/components/comments/CommentsSlot";
import { renderStructuredDataWith } from "../shared/pages/VideoPage";
import { videoStructuredData } from "../shared/pages/video-structured-data";
import { rankingOf } from "./plays/ranking";

// The 评论区's first page is the worker's to render: the browser keeps that HTML until its client loads (shared/components/comments/CommentsSlot.tsx).
renderCommentsWith(CommentsSection);
// So is the video page's structured data (shared/pages/VideoPage.tsx keeps the server's JSON-LD).
renderStructuredDataWith(videoStructuredData);

/** What the worker hands to the loaders of one request. */
export interface ServerLoaderContext {
  root: RootData;
  /** The catalogue (and accounts) database. */
  db: D1Database;
  /** The worker's bindings (the 排行榜 reads D1 through the feed source). */
  env: Env;
}

function serverRootLoader({ context }: LoaderFunctionArgs): RootData {
  return (context as ServerLoaderContext).root;
}

const serverCatalogue = catalogueLoaders(({ context }) => (context as ServerLoaderContext).db);

/** The site's route table in the worker: loaders read the request context (root data, D1). */
export const siteRoutes: RouteObject[] = createRoutes({
  rootLoader: serverRootLoader,
  sessionUser: ({ context }) => (context as ServerLoaderContext).root.user,
  pageData: (key) => serverCatalogue[key],
  ranking: (period, { context }) => {
    const { env } = context as ServerLoaderContext;
    return rankingOf(env.DB, period, Date.now());
  },
});

/** Root data of an anonymous request (`config`: the site's texts with the 站点设置 applied, worker/site-settings.ts). */
export function anonymousRootData(c: AppContext, config: SiteConfig = siteConfigOf(c.env, c.req.url)): RootData {
  return { config, user: null, library: null };
}

/** The worker never navigates: a page's render has one location (a call during render does nothing, as React Router's static router). */
const staticNavigate = (): Promise<void> => Promise.resolve();

/** HTML that closes a page whose stream broke after the shell was sent (never a silent cut). */
const STREAM_BROKEN_HTML =
  '<div class="not-found" role="alert"><h1 class="not-found-title">页面加载失败</h1><p class="not-found-text">抱歉，页面出现了问题，请刷新页面或稍后重试。</p></div></body></html>';

/**
 * A page slower than this (ms) to its shell or to its last byte is logged with its stage: a page
 * renders in tens of milliseconds, so a slow one is a storage call near its deadline or a stream
 * that stopped (what took the time is in the log line).
 */
const SLOW_PAGE_MS = 3_000;

/**
 * How long a page's render may take in all (ms). Past it React stops waiting: a Suspense boundary
 * still pending goes out as its fallback for the browser to render, and the page ends with
 * `</html>` (a stream that never ends would hold the visitor and the edge cache's copy forever).
 */
export const RENDER_DEADLINE_MS = 10_000;

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
function closedOnError(stream: ReadableStream<Uint8Array>, path: string, startedAt: number): ReadableStream<Uint8Array> {
  const reader = stream.getReader({ mode: "byob" });
  let reads = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const readAt = Date.now();
        const { done, value } = await reader.read(new Uint8Array(READ_BYTES));
        reads++;
        const now = Date.now();
        if (now - readAt > SLOW_PAGE_MS || (done && now - startedAt > SLOW_PAGE_MS))
          console.warn(`SSR slow on ${path}: read ${reads} took ${now - readAt} ms, ${now - startedAt} ms since the request${done ? " (the end)" : ""}`);
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

type RouteMatch = { route: { id: string; handle?: unknown } };

/** The declared page a render matched (its leaf route), with the id of its route object. */
function matchedPage(matches: readonly RouteMatch[]): { declaration: RouteDeclaration; routeId: string } | undefined {
  for (const match of [...matches].reverse()) {
    const declaration = declarationOf(match.route);
    if (declaration) return { declaration, routeId: match.route.id };
  }
  return undefined;
}

/** The client files of a page: the entry and its imports, plus the chunks of the declared page it matched (preloaded). */
function pageAssets(page: RouteDeclaration | undefined): DocumentAssets {
  const own = page ? (clientAssets.routes[page.id] ?? []) : [];
  return { scripts: clientAssets.scripts, styles: clientAssets.styles, preloads: [...new Set([...clientAssets.preloads, ...own])] };
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
 * Server-side render with a given route table (the site's, or a test's), streamed, with the status of the matched route.
 * An error before the shell is complete gives the Chinese 500 page; an error after it (inside a
 * Suspense boundary) is logged with the path and the boundary's fallback stays in the HTML, as it
 * does for a boundary still pending at `deadlineMs` after the request (RENDER_DEADLINE_MS).
 */
export async function renderWithRoutes(
  routes: RouteObject[],
  c: AppContext,
  root: RootData,
  { deadlineMs = RENDER_DEADLINE_MS }: { deadlineMs?: number } = {},
): Promise<Response> {
  const request = withControlCharactersKept(c.req.raw);
  const url = new URL(request.url);
  const path = url.pathname;
  let renderFailed = false;
  const startedAt = Date.now();
  try {
    const context = await query(routes, request, { root, db: c.env.DB, env: c.env } satisfies ServerLoaderContext);
    if (context instanceof Response) return context; // a loader redirect
    // A loader that failed renders the route's error element (页面加载失败): a 503 with Retry-After
    // when storage failed (D1 erring or past its deadline), else a 500 — never kept by a cache.
    const failed = context.statusCode >= 500;
    const storageFault = failed && Object.values(context.errors ?? {}).some((e) => !isRouteErrorResponse(e) && isStorageFault(e));

    const hydration: HydrationData = { loaderData: context.loaderData, errors: serializeRouteErrors(context.errors) };
    const location = { pathname: url.pathname, search: url.search, hash: "", state: null, key: "default" };
    const nonce = c.get("secureHeadersNonce");
    const matched = matchedPage(context.matches);
    // A page that plays a stream (worker/player-page.ts), when it answers 200 (not its 404 page).
    const player =
      matched?.declaration.player && context.statusCode === 200
        ? playerPage(pageAssets(matched.declaration), context.loaderData[matched.routeId] as VideoData | undefined, url)
        : null;
    const assets = player ? player.assets : pageAssets(matched?.declaration);
    const stream = await renderToReadableStream(
      <Document assets={assets} nonce={nonce}>
        <RouterView state={{ location, matches: context.matches, loaderData: context.loaderData, errors: context.errors }} navigate={staticNavigate} />
      </Document>,
      {
        nonce,
        // On a page with a player the page's modules are started by an inline script after the
        // hydration data (worker/player-page.ts, shared/player/page-scripts.ts), elsewhere by React's bootstrap module.
        bootstrapScriptContent:
          `window.__routerHydrationData=${serializeForScript(hydration)};window.__ASSETS__=${serializeForScript(assets)};` + (player?.bootScript ?? ""),
        ...(player?.bootScript ? {} : { bootstrapModules: clientAssets.scripts }),
        // A completed Suspense boundary (the player island) is written in place, never moved out of
        // the shell: React otherwise outlines every boundary once the shell passes this size (12.8 KB
        // by default), and the <video> then reaches the document only through an inline script that
        // waits for the stylesheet — its stream starting one round trip and the CSS later.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        signal: AbortSignal.any([request.signal, AbortSignal.timeout(Math.max(1, deadlineMs - (Date.now() - startedAt)))]),
        onError(error) {
          renderFailed = true;
          console.error(`SSR render error on ${path}`, error);
        },
      },
    );
    if (Date.now() - startedAt > SLOW_PAGE_MS) console.warn(`SSR slow on ${path}: the shell after ${Date.now() - startedAt} ms`);
    if (isCrawler(request.headers.get("user-agent"))) await stream.allReady;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    // Pages that carry an e-mail link's token (declared `html: "private"`) and a signed-in visitor's pages are kept by no cache.
    headers.set("Cache-Control", failed ? "no-store" : root.user || matched?.declaration.html === "private" ? "private, no-store" : ANONYMOUS_HTML_CACHE);
    if (storageFault) headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    if (root.user) headers.set("Vary", "Cookie");
    if (player?.link) headers.set("Link", player.link);
    const response = new Response(request.method === "HEAD" ? null : closedOnError(stream, path, startedAt), {
      status: storageFault ? 503 : context.statusCode,
      headers,
    });
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
  return renderWithRoutes(siteRoutes, c, root);
}
