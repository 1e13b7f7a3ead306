/**
 * The bindings a request works with (docs/decisions/0067-read-replication.md,
 * docs/decisions/0068-outside-call-deadlines.md), set once at the top of the app:
 *
 * - D1 through a session of D1's read replication (the Sessions API): reads go to the nearest
 *   replica that is recent enough. A visitor who wrote carries the session's bookmark in a cookie
 *   for a few minutes, so their next requests read at least what they wrote; everyone else starts
 *   "first-unconstrained" (any replica). Without replication (local workerd, a database where it is
 *   off) a session is the primary, and the code is the same.
 * - D1, R2 and the Durable Object namespaces under a deadline on every call (worker/outside-calls.ts).
 */
import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "./app-env";
import { configResultOf, withBindings } from "./config";
import { guardedD1, guardedNamespace, guardedR2, STORAGE_TIMEOUT_MS } from "./outside-calls";

/** The cookie that carries a visitor's D1 bookmark after a write. */
export const BOOKMARK_COOKIE = "d1_bookmark";
/** How long a bookmark is carried: replicas catch up within seconds; after this any replica will do. */
export const BOOKMARK_SECONDS = 300;
/** Where a session without a bookmark starts: the first query may go to any replica. */
export const UNCONSTRAINED = "first-unconstrained";

/** D1 bookmarks are opaque, lexicographically sortable text of hex digits and dashes; anything else is ignored. */
export function bookmarkFrom(value: string | undefined): string | null {
  return value && value.length <= 200 && /^[0-9a-zA-Z-]+$/.test(value) ? value : null;
}

/**
 * Whether the request may have written what the visitor will read back: a POST, PUT, PATCH or
 * DELETE that succeeded (a refused or failed one, whatever it counted, changed nothing of theirs).
 * The account flows are not among them: the account service reads from the primary first
 * (worker/account-service/index.ts), and their answers stay the same whoever asks.
 */
function wrote(method: string, status: number, path: string): boolean {
  if (method === "GET" || method === "HEAD" || status >= 400) return false;
  return !path.startsWith("/api/auth/") && !path.startsWith("/auth/");
}

export const requestBindings: MiddlewareHandler<AppEnv> = async (c, next) => {
  const raw = c.env;
  const config = configResultOf(raw);
  const ms = config.ok ? config.config.STORAGE_TIMEOUT_MS : STORAGE_TIMEOUT_MS;
  const session = raw.DB.withSession(bookmarkFrom(getCookie(c, BOOKMARK_COOKIE)) ?? UNCONSTRAINED);
  c.env = withBindings(raw, {
    DB: guardedD1(raw.DB, ms, session),
    MEDIA: guardedR2(raw.MEDIA, ms),
    DANMAKU: guardedNamespace(raw.DANMAKU, ms, "DANMAKU"),
    DANMAKU_LIMIT: guardedNamespace(raw.DANMAKU_LIMIT, ms, "DANMAKU_LIMIT"),
    DANMAKU_SHARD: guardedNamespace(raw.DANMAKU_SHARD, ms, "DANMAKU_SHARD"),
    PLAYS: guardedNamespace(raw.PLAYS, ms, "PLAYS"),
    WATCH: guardedNamespace(raw.WATCH, ms, "WATCH"),
  });
  await next();
  const url = new URL(c.req.url);
  const bookmark = wrote(c.req.method, c.res.status, url.pathname) ? bookmarkFrom(session.getBookmark() ?? undefined) : null;
  if (!bookmark) return;
  // An answer's headers may be immutable (a fetch's, the cache's): copy it before adding the cookie.
  c.res = new Response(c.res.body, c.res);
  setCookie(c, BOOKMARK_COOKIE, bookmark, { path: "/", httpOnly: true, sameSite: "Lax", secure: url.protocol === "https:", maxAge: BOOKMARK_SECONDS });
};
