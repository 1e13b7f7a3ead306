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

export const streamRoutes = new Hono<AppEnv>();

streamRoutes.use("*", streamCors);
streamRoutes.on(["GET", "HEAD"], "*", serveStream());
streamRoutes.all("*", () => textResponse(405, "不支持的请求方法", { Allow: STREAM_METHODS.join(", ") }));
