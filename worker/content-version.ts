/**
 * Versions of run-time content (docs/decisions/0075-cache-invalidation.md): a named counter per
 * kind of content in D1 (`content_versions`, migrations/0013_live_catalogue.sql) that every
 * write of that kind raises in the same batch, and a tag made of them that every edge cache key of
 * an answer derived from such content carries (worker/page-cache.ts, worker/edge-answers.ts).
 * A write therefore changes the keys: the next request misses and renders from D1, and the old
 * entries are never read again (they expire by themselves).
 *
 * The tag is read from D1 at most once per MEMO_MS per isolate (a cached page must not cost a
 * D1 round trip every time); the isolate that writes forgets its memo at once. So an edit
 * reaches every viewer within MEMO_MS plus the browser's max-age of the answer (≤ 45 s).
 *
 * The catalogue's tag also carries the time of the latest scheduled publication that has come
 * (定时发布 goes live with no write at all: the keys change when it does).
 */

/** The kinds of run-time content with a version. A new kind is a row of content_versions. */
export type ContentKind = "catalogue" | "ratings";

/** How long an isolate trusts the tag it read. */
export const MEMO_MS = 5_000;

let memo: { tag: string; readAt: number } | null = null;

const TAG_SQL =
  "SELECT (SELECT group_concat(kind || version, '.') FROM (SELECT kind, version FROM content_versions ORDER BY kind)) AS versions, " +
  "(SELECT max(publish_at) FROM catalogue_titles WHERE state = 'published' AND publish_at <= unixepoch() * 1000) AS live";

/** The tag of the content as it is now (at most MEMO_MS old). A failed read gives "" (answers are still served, keyed by the build). */
export async function contentTag(db: D1Database, nowMs: number = Date.now()): Promise<string> {
  if (memo && nowMs - memo.readAt < MEMO_MS) return memo.tag;
  try {
    const row = await db.prepare(TAG_SQL).first<{ versions: string | null; live: number | null }>();
    const tag = `${row?.versions ?? ""}~${row?.live ?? 0}`;
    memo = { tag, readAt: nowMs };
    return tag;
  } catch (error) {
    console.error("content version: read failed", error);
    return "";
  }
}

/** Forgets the memo: the isolate that wrote serves its own write on its next request. */
export function forgetContentTag(): void {
  memo = null;
}

/** The statement that raises `kind`'s version: run it in the same batch as the write. */
export function bumpContentVersion(db: D1Database, kind: ContentKind): D1PreparedStatement {
  return db.prepare("INSERT INTO content_versions (kind, version) VALUES (?1, 1) ON CONFLICT (kind) DO UPDATE SET version = version + 1").bind(kind);
}
