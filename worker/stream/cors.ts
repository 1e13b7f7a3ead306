/**
 * CORS for /stream/ and the progressive `/N.mp4` (worker/index.ts): players on other origins
 * (apps, embeds, 投屏 receivers) fetch playlists, segments and the MP4 with XHR/fetch, so every GET / HEAD answer allows any origin and
 * exposes the headers a player reads; OPTIONS preflights are answered here (204) without
 * touching R2. No credentials: nothing under /stream/ depends on cookies.
 */
import { cors } from "hono/cors";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

/** Methods that exist under /stream/. */
export const STREAM_METHODS = ["GET", "HEAD", "OPTIONS"] as const;

/** Request headers a player may send (Range for byte ranges, validators for revalidation). */
export const STREAM_ALLOWED_HEADERS = ["Range", "If-None-Match", "If-Modified-Since", "If-Range"] as const;

/** Response headers a cross-origin player may read. */
export const STREAM_EXPOSED_HEADERS = ["Content-Length", "Content-Range", "Accept-Ranges", "ETag", "Last-Modified"] as const;

/** How long a browser may reuse a preflight answer, in seconds (one day). */
export const STREAM_PREFLIGHT_MAX_AGE = 86400;

export const streamCors: MiddlewareHandler<AppEnv> = cors({
  origin: "*",
  allowMethods: [...STREAM_METHODS],
  allowHeaders: [...STREAM_ALLOWED_HEADERS],
  exposeHeaders: [...STREAM_EXPOSED_HEADERS],
  maxAge: STREAM_PREFLIGHT_MAX_AGE,
});
