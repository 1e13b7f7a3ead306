/**
 * Whether the media number `n` may be served: not when it belongs only to titles a viewer may not
 * see (drafts, scheduled, taken down: the view `titles`, migrations/0013_live_catalogue.sql).
 * Media no title names (uploaded before its title is entered) are served as before. The stream's
 * playlists, subtitles and storyboard and the progressive `/N.mp4` ask; immutable segments do
 * not (their names come only from a playlist, and copies already fetched may stay in caches).
 */
export async function mediaHidden(db: D1Database, n: number): Promise<boolean> {
  const row = await db
    .prepare(
      "SELECT EXISTS (SELECT 1 FROM title_media WHERE number = ?1) AS owned, " +
        "EXISTS (SELECT 1 FROM title_media m JOIN titles t ON t.id = m.title_id WHERE m.number = ?1) AS visible",
    )
    .bind(n)
    .first<{ owned: number; visible: number }>();
  return row !== null && row.owned === 1 && row.visible === 0;
}
