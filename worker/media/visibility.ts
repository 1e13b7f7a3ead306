/**
 * Whether the media number `n` may be served: not when it belongs only to titles a viewer may not
 * see (drafts, scheduled, taken down: the view `titles`, migrations/0013_live_catalogue.sql).
 * Media no title names (uploaded before its title is entered) are served as before, except a number
 * whose 管理后台 upload is not published (migrations/0016_media_uploads.sql: unfinished, failed or
 * abandoned uploads are never reachable). The stream's
 * playlists, subtitles and storyboard and the progressive `/N.mp4` ask; immutable segments do
 * not (their names come only from a playlist, and copies already fetched may stay in caches).
 *
 * A D1 outage does not stop what is playing (docs/decisions/0063-degrade-dont-fail.md): each
 * isolate remembers the answer for a number for VISIBILITY_MEMO_MS (at most VISIBILITY_MEMO_SIZE
 * numbers), with the content version it was read under. When D1 cannot answer, a remembered
 * answer stands in, unless the content version can be read and has changed since (a title
 * unpublished since then stops at once). A number never seen in this isolate answers 503 as before.
 */
import { contentTag } from "../content-version";
import { isStorageFault } from "../fault-answers";

/** How long a remembered answer may stand in for D1. */
export const VISIBILITY_MEMO_MS = 10 * 60_000;
/** How many media numbers an isolate remembers (the oldest are forgotten first). */
export const VISIBILITY_MEMO_SIZE = 2_000;

interface Known {
  hidden: boolean;
  /** The content version it was read under ("" when that could not be read). */
  tag: string;
  readAt: number;
}

const known = new Map<number, Known>();

function remember(n: number, answer: Known): void {
  known.delete(n);
  known.set(n, answer);
  if (known.size > VISIBILITY_MEMO_SIZE) {
    const oldest = known.keys().next();
    if (!oldest.done) known.delete(oldest.value);
  }
}

/** Forgets every remembered answer (tests). */
export function forgetMediaVisibility(): void {
  known.clear();
}

/** Whether `n` may not be served: from D1, or during a D1 outage from this isolate's memo (see above). */
export async function mediaHidden(db: D1Database, n: number, nowMs: number = Date.now()): Promise<boolean> {
  // Read alongside, so that an outage costs one deadline, not two; contentTag never rejects.
  const tagRead = contentTag(db, nowMs);
  try {
    const hidden = await readHidden(db, n);
    remember(n, { hidden, tag: await tagRead, readAt: nowMs });
    return hidden;
  } catch (error) {
    if (!isStorageFault(error)) throw error;
    const memo = known.get(n);
    const tag = await tagRead;
    const stands = memo !== undefined && nowMs - memo.readAt < VISIBILITY_MEMO_MS && (tag === "" || tag === memo.tag);
    if (!stands) throw error;
    console.warn(`media ${n}: D1 unavailable, visibility from this isolate's memo (read ${Math.round((nowMs - memo.readAt) / 1000)} s ago)`);
    return memo.hidden;
  }
}

async function readHidden(db: D1Database, n: number): Promise<boolean> {
  const row = await db
    .prepare(
      "SELECT EXISTS (SELECT 1 FROM title_media WHERE number = ?1) AS owned, " +
        "EXISTS (SELECT 1 FROM title_media m JOIN titles t ON t.id = m.title_id WHERE m.number = ?1) AS visible, " +
        "EXISTS (SELECT 1 FROM media_uploads WHERE number = ?1 AND state != 'published') AS pending",
    )
    .bind(n)
    .first<{ owned: number; visible: number; pending: number }>();
  return row !== null && (row.pending === 1 || (row.owned === 1 && row.visible === 0));
}
