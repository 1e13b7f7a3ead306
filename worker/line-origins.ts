/**
 * The hosts the site's 线路 read from (docs/decisions/0088-line-origins-in-the-csp.md): every
 * mirror and external URL of a visible title or episode (shared/playback/lines.ts), whose origins
 * the pages' CSP allows in media-src and connect-src (worker/security.ts) — and no other host.
 * Read from D1 once per content version (worker/content-version.ts) per isolate: an edit of the
 * lines reaches the CSP with the next version, like every cached answer.
 */
import type { MiddlewareHandler } from "hono";
import { originOf } from "../shared/playback/lines";
import type { AppEnv } from "./app-env";
import { contentTag } from "./content-version";

const ORIGINS_SQL =
  "SELECT json_extract(l.value, '$.mirror') AS mirror, json_extract(l.value, '$.url') AS url FROM titles t, json_each(t.entry, '$.lines') l " +
  "UNION SELECT json_extract(l.value, '$.mirror'), json_extract(l.value, '$.url') FROM titles t, json_each(t.entry, '$.episodes') e, json_each(e.value, '$.lines') l";

let memo: { tag: string; origins: string[] } | null = null;

/** Every other origin a line of a visible title reads from, sorted. A failed read gives none (the CSP stays 'self'). */
export async function lineOrigins(db: D1Database): Promise<string[]> {
  const tag = await contentTag(db);
  if (memo && tag !== "" && memo.tag === tag) return memo.origins;
  try {
    const { results } = await db.prepare(ORIGINS_SQL).all<{ mirror: string | null; url: string | null }>();
    const origins = new Set<string>();
    for (const row of results) {
      const origin = originOf(row.mirror ?? row.url ?? "");
      if (origin) origins.add(origin);
    }
    memo = { tag, origins: [...origins].sort() };
    return memo.origins;
  } catch (error) {
    console.error("line origins: read failed", error);
    return [];
  }
}

/** Paths whose answers are never documents (their CSP does not matter): no D1 read for them. */
const NOT_DOCUMENTS = /^\/(?:api\/|api\.php\/|stream\/|mirror\/|assets\/|[0-9]+\.(?:mp4|webp)$)/;

/** Puts the line origins on page requests, for the CSP (worker/security.ts) to read. */
export const lineOriginsForPages: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method;
  if ((method === "GET" || method === "HEAD") && !NOT_DOCUMENTS.test(new URL(c.req.url).pathname)) {
    c.set("lineOrigins", await lineOrigins(c.env.DB));
  }
  await next();
};
