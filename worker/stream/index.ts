/**
 * Everything under /stream/ (adaptive streaming, docs/streaming.md), mounted by
 * worker/index.ts with `app.route("/stream", streamRoutes)`:
 *
 * - OPTIONS → CORS preflight, 204 (./cors.ts);
 * - GET / HEAD → the contract's files from R2 through the edge cache (./serve.ts);
 * - any other method → 405 with `Allow: GET, HEAD, OPTIONS`.
 *
 * Security headers for these paths are `streamSecurityHeaders` (worker/security.ts):
 * Cross-Origin-Resource-Policy `cross-origin`, so players on other origins may load them.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { textResponse } from "../http/plain-answers";
import { STREAM_METHODS, streamCors } from "./cors";
import { serveStream } from "./serve";

export { serveStream, type StreamOptions } from "./serve";

/** The /stream/ tree's routes; `pathPrefix` serves the same tree under another path (a mirror). */
function streamTree(pathPrefix = ""): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use("*", streamCors);
  routes.on(["GET", "HEAD"], "*", serveStream({ pathPrefix }));
  routes.all("*", () => textResponse(405, "不支持的请求方法", { Allow: STREAM_METHODS.join(", ") }));
  return routes;
}

export const streamRoutes = streamTree();

/**
 * The same tree under /mirror/stream/: the built-in catalogue's 线路2 (catalogue/titles.json,
 * `"mirror": "/mirror"`), a mirror this site serves itself so that 线路 and their failover can be
 * tried offline (docs/decisions/0086-play-lines.md). The same files, answers and cache rules.
 */
export const MIRROR_PREFIX = "/mirror";
export const mirrorStreamRoutes = streamTree(MIRROR_PREFIX);
