-- Uploads of a video from the 管理后台 (docs/decisions/0080-browser-upload-publish.md): the browser
-- packs the file and sends each object through /api/admin/uploads/{id}/objects/{name}; the
-- worker writes it to R2 under the upload's own fresh media number and records it here once R2
-- has verified its SHA-256. Publishing checks every recorded object against R2 and every name the
-- playlists reference, then points the title (or episode) at the number in the same D1 batch.
--
-- Until then the number belongs to no title, and worker/media/visibility.ts hides the playlists
-- and /N.mp4 of a number whose upload is not published: nothing of an unfinished, failed or
-- abandoned upload is reachable (segments and sprites carry unguessable versions and are named
-- only by the hidden playlists). The cover waits under uploads/{id}/cover.webp (no route serves
-- it) and is copied to N.webp at publish.
CREATE TABLE IF NOT EXISTS media_uploads (
  id TEXT PRIMARY KEY,
  title_id TEXT NOT NULL,
  -- NULL: the title's own video (a film's, or episode 1 of a series); N: episode N (1-based).
  episode INTEGER,
  -- The media number the upload writes under: new, never a title's before publishing.
  number INTEGER NOT NULL UNIQUE,
  -- uploading | published | abandoned
  state TEXT NOT NULL DEFAULT 'uploading',
  -- The chosen file (name, size, lastModified): 继续上传 asks for the same one.
  source TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- When the objects of an abandoned upload were deleted (NULL: not yet).
  cleaned_at INTEGER
);
CREATE INDEX IF NOT EXISTS media_uploads_by_title ON media_uploads (title_id, state);
CREATE INDEX IF NOT EXISTS media_uploads_stale ON media_uploads (state, updated_at);

-- Each object of an upload once R2 holds it: its size and the SHA-256 R2 verified on the put.
CREATE TABLE IF NOT EXISTS media_upload_objects (
  upload_id TEXT NOT NULL,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  PRIMARY KEY (upload_id, name)
) WITHOUT ROWID;
