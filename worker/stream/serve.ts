/**
 * GET / HEAD `/stream/{n}/{name}`: the files of the streaming contract
 * (shared/stream/contract.ts, docs/streaming.md) from R2 key `stream/{n}/{name}`, through the
 * edge cache (worker/http/cached-files.ts). The key comes only from the strict parse of the raw path:
 * any other path under /stream/ is a 404 without an R2 read.
 */
import type { Handler } from "hono";
import { cacheControlFor, isCompressedTextFile, isImmutable, parseStreamPath, STREAM_CONTENT_TYPES } from "../../shared/stream/contract";
import type { AppEnv } from "../app-env";
import { serveThroughEdgeCache } from "../http/cached-files";
import { mediaEdgeCache } from "../http/edge-cache";
import { notFound, RETRY_AFTER_SECONDS } from "../http/plain-answers";
import { loadWholeObject } from "../http/r2-answers";
import { mediaHidden } from "../media/visibility";
import { encodeTextAnswer } from "./text-encoding";

export interface StreamOptions {
  /**
   * The edge cache in front of R2. Default: `caches.default`, or null (read R2 on every
   * request, store nothing) when the `MEDIA_CACHE` variable is "off".
   */
  cache?: (env: Env) => Cache | null;
  /** Retry-After (seconds) of the 503 sent when R2 fails. Default: 30. */
  retryAfterSeconds?: number;
  /** A path before /stream/ that serves the same tree ("/mirror": the built-in 线路2, docs/streaming.md). Default: none. */
  pathPrefix?: string;
}

/**
 * The handler of stream files.
 *
 * @example
 * app.on(["GET", "HEAD"], "/stream/*", serveStream());
 */
export function serveStream(options: StreamOptions = {}): Handler<AppEnv> {
  const cache = options.cache ?? mediaEdgeCache;
  const retryAfterSeconds = options.retryAfterSeconds ?? RETRY_AFTER_SECONDS;
  const prefix = options.pathPrefix ?? "";
  return async (c) => {
    // The raw (undecoded) path: `%2F`, `%2e` and upper-case variants never match a name.
    const pathname = new URL(c.req.url).pathname;
    const file = pathname.startsWith(prefix) ? parseStreamPath(pathname.slice(prefix.length)) : null;
    if (!file) return notFound();
    // A title that is not published: its playlists (and so its stream) are gone, before any cache.
    if (!isImmutable(file.kind) && (await mediaHidden(c.env.DB, Number(file.n)))) return notFound();
    const loadWhole = () =>
      loadWholeObject(c.env.MEDIA, file.key, {
        contentType: STREAM_CONTENT_TYPES[file.kind],
        cacheControl: cacheControlFor(file.kind),
        retryAfterSeconds,
      });
    const answer = serveThroughEdgeCache(c, { loadWhole }, { cache: cache(c.env) });
    // Playlists and WebVTT (but the start path's two) go out compressed where the client accepts it (./text-encoding.ts).
    return isCompressedTextFile(file.kind, file.name) ? encodeTextAnswer(c.req.raw, await answer) : answer;
  };
}
