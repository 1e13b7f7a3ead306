/**
 * Whether the media number `n` may be served: not when it belongs only to titles a viewer may not
 * see (drafts, scheduled, taken down: the view `titles`, migrations/0013_live_catalogue.sql).
 * Media no title names (uploaded before its title is entered) are served as before, except a number
 * whose 管理后台 upload is not published (migrations/0016_media_uploads.sql: unfinished, failed or
 * abandoned uploads are never reachable). The stream's
 * playlists, subtitles and storyboard and the progressive `/N.mp4` ask; immutable segments do
 * not (their names come only from a playlist, and copies already fetched may stay in caches).
 */
export async function mediaHidden(db: D1Database, n: number): Promise<boolean> {
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
