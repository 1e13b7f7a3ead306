/**
 * What a visitor or an app gets when the site's storage fails (D1 erring or hanging, a Durable
 * Object or R2 unreachable) or when a request hits a bug: never a stack trace, a blank page or
 * an answer a cache keeps. A storage fault is a 503 with Retry-After (the request may work again
 * soon); anything else a 500. Each kind of route answers in its own format: the Chinese error page
 * for pages, JSON for the APIs, plain text for media and feeds. docs/decisions/0063-degrade-dont-fail.md.
 */
import type { HtmlEscapedString } from "hono/utils/html";
import type { AppContext } from "./app-env";
import { siteConfigOf } from "./config";
import { DeadlineError } from "./deadline";
import { errorPageHtml } from "./error-page";
import { MEDIA_UNAVAILABLE, RETRY_AFTER_SECONDS, textResponse } from "./http/plain-answers";

/**
 * Whether `error` is storage being unavailable rather than a bug: a deadline passed, or D1, a
 * Durable Object or the runtime's network reporting that it could not answer. D1_TYPE_ERROR and
 * D1_COLUMN_NOTFOUND-like errors are bugs in our queries: they stay 500s.
 */
export function isStorageFault(error: unknown): boolean {
  if (error instanceof DeadlineError) return true;
  if (!(error instanceof Error)) return false;
  const message = `${error.name}: ${error.message}`;
  if (/D1_TYPE_ERROR|no such (table|column)|SQLITE_ERROR/i.test(message)) return false;
  return /D1_ERROR|D1_EXEC_ERROR|D1 DB|Network connection lost|overloaded|storage|timed? ?out|unavailable|internal error|Durable Object/i.test(message);
}

/** The message of a JSON API's 503 and 500. */
export const SERVICE_UNAVAILABLE = "服务暂时不可用，请稍后重试";
export const SERVER_ERROR = "服务器出错了，请稍后重试";

type Format = "page" | "json" | "media" | "text";

/** How the route at `path` answers: its pages with HTML, its APIs with JSON, media and feeds with text. */
export function faultFormat(path: string): Format {
  if (path.startsWith("/api/") || path.startsWith("/api.php/")) return "json";
  if (path.startsWith("/stream/") || /^\/[^/]+\.(?:mp4|webp)$/.test(path)) return "media";
  if (/^\/[^/]+\.(?:xml|txt|json)$/.test(path)) return "text";
  return "page";
}

/** The answer to `error` on `path` (the error is logged here, once, with the path). */
export function faultAnswer(path: string, error: unknown, siteName: string): Response {
  const fault = isStorageFault(error);
  console.error(`${fault ? "storage fault" : "server error"} on ${path}`, error);
  const status = fault ? 503 : 500;
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (fault) headers["Retry-After"] = String(RETRY_AFTER_SECONDS);
  const format = faultFormat(path);
  if (format === "media") return textResponse(status, fault ? MEDIA_UNAVAILABLE : SERVER_ERROR, headers);
  if (format === "text") return textResponse(status, fault ? SERVICE_UNAVAILABLE : SERVER_ERROR, headers);
  if (format === "json") {
    const body = { error: { code: fault ? "unavailable" : "internal", message: fault ? SERVICE_UNAVAILABLE : SERVER_ERROR } };
    return new Response(JSON.stringify(body), { status, headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
  }
  return new Response(errorPageHtml(siteName) as HtmlEscapedString, { status, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}

/** Hono's onError for the whole app (the site's name from its configuration, not the 站点设置 in D1). */
export function onAppError(error: Error, c: AppContext): Response {
  return faultAnswer(new URL(c.req.url).pathname, error, siteConfigOf(c.env, c.req.url).siteName);
}
