/**
 * CORS of the 弹幕 API (decisions/0040-danmaku.md): the public reads (DPlayer's v3 read and the
 * time window) are public data, so any origin may GET them — DPlayer embeds on other sites, fan
 * pages and apps' web views read with a cross-origin XHR — like /stream/ (worker/stream/cors.ts)
 * and the provide API. Never with credentials: `*` keeps browsers from sending cookies, and a
 * read does not depend on them.
 *
 * Writes stay same-site (worker/auth/csrf.ts, `requireOrigin`): a preflight asking for any other
 * method than GET/HEAD is refused with 403 and DPlayer's refusal body, so the browser never sends
 * the write, and a write that arrives anyway from another origin gets the same 403 (readable
 * cross-origin, so the page can tell why).
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { DANMAKU_MESSAGES } from "../../shared/danmaku/model";

/** Methods another origin may use on the 弹幕 reads. */
export const DANMAKU_CORS_METHODS = ["GET", "HEAD", "OPTIONS"] as const;

/** How long a browser may reuse a preflight answer, in seconds (one day, like /stream/). */
export const DANMAKU_PREFLIGHT_MAX_AGE = 86400;

/** Adds the CORS headers of a public read (or of a refusal another origin may read) to `response`. */
export function allowAnyOrigin(response: Response): Response {
  response.headers.set("Access-Control-Allow-Origin", "*");
  return response;
}

/**
 * The answer to `OPTIONS` on a 弹幕 read path: 204 allowing GET/HEAD from any origin, or 403 with
 * DPlayer's refusal `{"code":1,"msg":"禁止跨站请求"}` when the preflight asks for a write.
 */
export function danmakuPreflight(c: Context<AppEnv>): Response {
  const asked = (c.req.header("Access-Control-Request-Method") ?? "GET").toUpperCase();
  if (asked !== "GET" && asked !== "HEAD") return allowAnyOrigin(c.json({ code: 1, msg: DANMAKU_MESSAGES.foreign }, 403, { "Cache-Control": "no-store" }));
  const headers: Record<string, string> = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": DANMAKU_CORS_METHODS.join(", "),
    "Access-Control-Max-Age": String(DANMAKU_PREFLIGHT_MAX_AGE),
    "Cache-Control": "no-store",
  };
  const requested = c.req.header("Access-Control-Request-Headers");
  // Reads need no custom header; echoing what was asked (a player's X-Requested-With …) costs nothing on a read.
  if (requested) {
    headers["Access-Control-Allow-Headers"] = requested;
    headers.Vary = "Access-Control-Request-Headers";
  }
  return c.body(null, 204, headers);
}
