-- 上传视频's objects over one request's limit (docs/decisions/0084-multipart-upload.md): the
-- progressive MP4 of a long film goes up through an R2 multipart upload. R2's binding cannot list
-- the parts of an open multipart upload, so the worker records here which one an upload's object
-- is using and each part R2 has taken (its ETag, and the SHA-256 the worker checked on the way
-- in): 继续上传 sends only the missing parts, completion hands R2 the recorded list, and 放弃上传
-- (or the stale sweep) aborts what is still open. Once complete, the object is an ordinary row of
-- media_upload_objects and these rows go.
CREATE TABLE IF NOT EXISTS media_upload_multiparts (
  upload_id TEXT NOT NULL,
  name TEXT NOT NULL,
  -- R2's id of the multipart upload of this object's key.
  r2_upload_id TEXT NOT NULL,
  -- The whole object's size and SHA-256 as the page declared them: a different file (another
  -- encoder run) starts a new multipart upload.
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (upload_id, name)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS media_upload_parts (
  upload_id TEXT NOT NULL,
  name TEXT NOT NULL,
  part INTEGER NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  etag TEXT NOT NULL,
  PRIMARY KEY (upload_id, name, part)
) WITHOUT ROWID;
