/**
 * The 评论区's version of a title (`comment_titles.version`, raised by every post and delete:
 * worker/comments/store.ts) as the edge cache key of the title's pages carries it
 * (worker/page-cache.ts): after a post, the next anonymous request of /video/{id} misses and
 * renders the new first page. Read at most once per MEMO_MS per isolate and title, like the
 * content's tag (worker/content-version.ts); the isolate that wrote forgets it at once.
 */
import { MEMO_MS } from "../content-version";

/** Titles remembered per isolate; the oldest is dropped beyond this. */
const MEMO_TITLES = 500;

const memo = new Map<string, { version: number; readAt: number }>();

/** The title's comment version now (at most MEMO_MS old); 0 before its first comment. A failed read throws (the page cache treats it as storage failing). */
export async function commentVersion(db: D1Database, titleId: string, nowMs: number = Date.now()): Promise<number> {
  const known = memo.get(titleId);
  if (known && nowMs - known.readAt < MEMO_MS) return known.version;
  const version = (await db.prepare("SELECT version FROM comment_titles WHERE title_id = ?").bind(titleId).first<number>("version")) ?? 0;
  memo.delete(titleId);
  memo.set(titleId, { version, readAt: nowMs });
  if (memo.size > MEMO_TITLES) memo.delete(memo.keys().next().value as string);
  return version;
}

/** Forgets a title's version: the isolate that wrote renders the new first page on its next request. */
export function forgetCommentVersion(titleId: string): void {
  memo.delete(titleId);
}

/** The title whose comments a page shows: /video/{id} and /video/{id}/{n}; null for any other page. */
export function commentedTitleOf(pathname: string): string | null {
  return /^\/video\/([\w-]{1,40})(?:\/\d{1,4})?$/.exec(pathname)?.[1] ?? null;
}
