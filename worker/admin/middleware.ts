/**
 * What every /admin page and /api/admin/* answer gets, before any route (worker/admin/api.ts,
 * worker/admin/pages.tsx): `Cache-Control: no-store` and `X-Robots-Tag: noindex` on every answer
 * (errors too; the site's CSP comes from worker/security.ts for the whole worker), the session
 * cookies a refresh rewrote, the origin check on every write (a missing Origin is refused too:
 * worker/auth/csrf.ts), a body limit, and the visitor's access (worker/admin/access.ts).
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { applySession, createRequestSession, type RequestSession } from "../auth/session";
import { limitBody } from "../request-body";
import { adminAccess, type AdminAccess } from "./access";

export interface AdminEnv {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { adminSession: RequestSession; adminAccess: AdminAccess; siteName: string };
}

export type AdminContext = Context<AdminEnv>;

export const NO_STORE = "no-store";
export const NOINDEX = "noindex, nofollow";

/** The answer's cache and robots headers, and the session's cookie changes. */
export const adminAnswers: MiddlewareHandler<AdminEnv> = async (c, next) => {
  await next();
  const session = c.get("adminSession") as RequestSession | undefined;
  const res = session ? applySession(session, c.res) : new Response(c.res.body, c.res);
  res.headers.set("Cache-Control", NO_STORE);
  res.headers.set("X-Robots-Tag", NOINDEX);
  c.res = undefined;
  c.res = res;
};

const isWrite = (method: string) => method !== "GET" && method !== "HEAD";

/** Refuses a write from another site (or without an Origin) with `refuse(c)`. */
export function sameSiteWrites(refuse: (c: AdminContext) => Response): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    if (isWrite(c.req.method) && !isFromThisSite(c.req.raw, c.env)) return refuse(c);
    await next();
  };
}

/** Bodies of 视频管理 (a whole entry, up to 9,999 episodes; a cover) and 弹幕管理's word list: larger than a form's. */
export const LARGE_BODY_BYTES = 2 * 1024 * 1024;

/** Paths whose bodies may be LARGE_BODY_BYTES (under /admin or /api/admin). */
const LARGE_BODY_PATH = /^\/(?:api\/)?admin\/(?:titles(?:\/|$)|danmaku\/words$)/;

/**
 * The objects of 上传视频 (PUT, up to 64 MiB) and the parts of larger ones: the route itself requires
 * a Content-Length within its kind's (or the part's) limit and never reads past it
 * (worker/admin/media-uploads.ts, worker/admin/media-multipart.ts).
 */
const UPLOAD_OBJECT_PATH = /^\/api\/admin\/uploads\/[^/]+\/(?:objects|multipart)\//;

export function adminBodyLimit(tooLarge: (c: AdminContext) => Response): MiddlewareHandler<AdminEnv> {
  const small = limitBody((c) => tooLarge(c as AdminContext)) as MiddlewareHandler<AdminEnv>;
  const large = bodyLimit({ maxSize: LARGE_BODY_BYTES, onError: (c) => tooLarge(c as AdminContext) }) as MiddlewareHandler<AdminEnv>;
  return (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (c.req.method === "PUT" && UPLOAD_OBJECT_PATH.test(path)) return next();
    return LARGE_BODY_PATH.test(path) ? large(c, next) : small(c, next);
  };
}

/** Reads the visitor's access once per request (c.get("adminAccess")). */
export const readAccess: MiddlewareHandler<AdminEnv> = async (c, next) => {
  const session = createRequestSession(c as unknown as Context<AppEnv>);
  c.set("adminSession", session);
  c.set("adminAccess", await adminAccess(c as unknown as Context<AppEnv>, session));
  await next();
};
