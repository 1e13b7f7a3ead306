import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";

/** Longest URL the worker handles (a real link of the site is a few hundred bytes). */
export const MAX_URL_BYTES = 16 * 1024;
/** Largest total of request header names and values (cookies included). */
export const MAX_HEADER_BYTES = 128 * 1024;

const MESSAGES = {
  414: { code: "uri_too_long", message: "请求的网址过长" },
  431: { code: "headers_too_large", message: "请求头过大，请清除本站 Cookie 后重试" },
} as const;

/** Bytes of the request's headers as they were sent ("Name: value\r\n" each). */
export function headerBytes(headers: Headers): number {
  const encoder = new TextEncoder();
  let total = 0;
  headers.forEach((value, name) => {
    total += encoder.encode(name).byteLength + encoder.encode(value).byteLength + 4;
  });
  return total;
}

function refuse(path: string, status: keyof typeof MESSAGES): Response {
  const { code, message } = MESSAGES[status];
  const api = path.startsWith("/api/");
  return new Response(api ? JSON.stringify({ error: { code, message } }) : `${status} ${message}`, {
    status,
    headers: {
      "Content-Type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * First middleware of the worker: a request whose URL or headers are far larger
 * than anything the site produces gets a clear 4xx before any other work.
 * (The runtime may already refuse some of these itself, also with a 4xx.)
 */
export const requestLimits: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = c.req.url;
  if (url.length > MAX_URL_BYTES) return refuse(new URL(url).pathname, 414);
  if (headerBytes(c.req.raw.headers) > MAX_HEADER_BYTES) return refuse(new URL(url).pathname, 431);
  await next();
};
