/**
 * 上传视频's objects over one request's limit (docs/decisions/0084-multipart-upload.md): the
 * progressive MP4 of a film longer than a few minutes goes up through an R2 multipart upload.
 *
 *   POST /api/admin/uploads/{id}/multipart/{name}           { size, sha256 } → the parts R2 has
 *   PUT  /api/admin/uploads/{id}/multipart/{name}/{part}    one part (Content-Length, X-Content-SHA256)
 *   POST /api/admin/uploads/{id}/multipart/{name}/complete  → the object, recorded like a single PUT
 *
 * The object is named by its size and its SHA-256 over the parts' SHA-256s (shared/upload/package.ts
 * `multipartSha256`, checked before R2 assembles anything, recorded like a single PUT's hash).
 * Starting again with the same size and SHA-256 (继续上传) returns the parts already there, so the
 * page sends only the rest; another file under the same name aborts the old multipart upload. Each
 * part is hashed as it streams (worker/admin/media-uploads.ts `verifiedBody`) and recorded with its
 * ETag in D1 (migrations/0020_media_upload_multipart.sql) only once R2 has it. 放弃上传 and the
 * stale sweep abort what is still open (media-uploads.ts `cleanUpload`).
 */
import {
  MULTIPART_MAX_BYTES,
  MULTIPART_PART_BYTES,
  multipartSha256,
  partCount,
  partSize,
  uploadObjectKey,
  uploadObjectKind,
  type UploadObjectKind,
} from "../../shared/upload/package";
import { refusal, SHA256_HEX, uploadRow, verifiedBody, type Result, type UploadedObject, type UploadRow } from "./media-uploads";

export interface UploadedPart {
  part: number;
  size: number;
  sha256: string;
}

export interface MultipartState {
  name: string;
  size: number;
  sha256: string;
  partBytes: number;
  /** The parts R2 holds already, by number. */
  parts: UploadedPart[];
}

interface MultipartRow {
  r2_upload_id: string;
  size: number;
  sha256: string;
}

const CONTENT_TYPES: Partial<Record<UploadObjectKind, string>> = { progressive: "video/mp4" };

/** The upload (still open) and the kind of `rawName`, or the refusal. */
async function target(env: Env, id: string, rawName: string): Promise<Result<{ row: UploadRow; kind: UploadObjectKind; max: number }>> {
  const kind = uploadObjectKind(rawName);
  if (!kind) return refusal(400, "bad_name", "文件名不合约定（只能是 docs/streaming.md 中的文件名、video.mp4 或 cover.webp）");
  const max = MULTIPART_MAX_BYTES[kind];
  if (max === undefined) return refusal(400, "not_multipart", `${rawName} 不能分片上传，请整个上传`);
  const row = await uploadRow(env.DB, id);
  if (!row) return refusal(404, "no_upload", "没有这个上传任务");
  if (row.state !== "uploading") return refusal(409, "upload_closed", row.state === "published" ? "此上传已发布，不能再写入" : "此上传已放弃，请重新上传");
  return { ok: true, value: { row, kind, max } };
}

async function multipartOf(db: D1Database, id: string, name: string): Promise<MultipartRow | null> {
  return db.prepare("SELECT r2_upload_id, size, sha256 FROM media_upload_multiparts WHERE upload_id = ? AND name = ?").bind(id, name).first<MultipartRow>();
}

async function partsOf(db: D1Database, id: string, name: string): Promise<Array<UploadedPart & { etag: string }>> {
  const { results } = await db
    .prepare("SELECT part, size, sha256, etag FROM media_upload_parts WHERE upload_id = ? AND name = ? ORDER BY part")
    .bind(id, name)
    .all<UploadedPart & { etag: string }>();
  return results;
}

/** Starts (or, for the same size and SHA-256, resumes) the multipart upload of one object. */
export async function startMultipart(env: Env, id: string, rawName: string, body: Record<string, unknown>, nowMs: number): Promise<Result<MultipartState>> {
  const found = await target(env, id, rawName);
  if (!found.ok) return found;
  const { row, kind, max } = found.value;
  const { size, sha256 } = body;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size <= 0) return refusal(400, "bad_length", "缺少文件大小");
  if (size > max) return refusal(413, "too_large", `${rawName} 超过 ${Math.round(max / 1024 / 1024 / 1024)} GB`);
  if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) return refusal(400, "bad_sha256", "缺少或错误的 SHA-256");
  const key = uploadObjectKey(id, row.number, rawName);
  const open = await multipartOf(env.DB, id, rawName);
  if (open && open.size === size && open.sha256 === sha256) {
    const parts = (await partsOf(env.DB, id, rawName)).map(({ part, size: bytes, sha256: hash }) => ({ part, size: bytes, sha256: hash }));
    return { ok: true, value: { name: rawName, size, sha256, partBytes: MULTIPART_PART_BYTES, parts } };
  }
  if (open) {
    // Another file under this name (a run whose encoder made other bytes): the old parts go.
    await env.MEDIA.resumeMultipartUpload(key, open.r2_upload_id)
      .abort()
      .catch((error: unknown) => console.warn(`admin upload: abort of ${rawName} (${id}) failed: ${(error as Error).message}`));
  }
  let created: R2MultipartUpload;
  try {
    const contentType = CONTENT_TYPES[kind];
    created = await env.MEDIA.createMultipartUpload(key, contentType ? { httpMetadata: { contentType } } : {});
  } catch (error) {
    console.warn(`admin upload: multipart ${key} not started: ${(error as Error).message}`);
    return refusal(503, "storage_unavailable", "存储暂时不可用，请稍后重试");
  }
  await env.DB.batch([
    env.DB.prepare("DELETE FROM media_upload_parts WHERE upload_id = ? AND name = ?").bind(id, rawName),
    env.DB.prepare("INSERT OR REPLACE INTO media_upload_multiparts (upload_id, name, r2_upload_id, size, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?)").bind(
      id,
      rawName,
      created.uploadId,
      size,
      sha256,
      nowMs,
    ),
    env.DB.prepare("UPDATE media_uploads SET updated_at = ? WHERE id = ?").bind(nowMs, id),
  ]);
  return { ok: true, value: { name: rawName, size, sha256, partBytes: MULTIPART_PART_BYTES, parts: [] } };
}

/** One part: exactly its size (MULTIPART_PART_BYTES, the last one the rest), checked against its SHA-256 on the way in. */
export async function putMultipartPart(
  env: Env,
  id: string,
  rawName: string,
  rawPart: string,
  headers: { length: string | undefined; sha256: string | undefined },
  body: ReadableStream<Uint8Array> | null,
  nowMs: number,
): Promise<Result<UploadedPart>> {
  const found = await target(env, id, rawName);
  if (!found.ok) return found;
  const open = await multipartOf(env.DB, id, rawName);
  if (!open) return refusal(409, "no_multipart", `${rawName} 的分片上传尚未开始`);
  const count = partCount(open.size);
  const part = /^[1-9][0-9]{0,4}$/.test(rawPart) ? Number(rawPart) : 0;
  if (part < 1 || part > count) return refusal(400, "bad_part", `分片编号只能是 1 到 ${count}`);
  if (headers.length === undefined) return refusal(411, "length_required", "缺少 Content-Length");
  const expected = partSize(open.size, part);
  if (headers.length !== String(expected)) return refusal(400, "bad_length", `第 ${part} 片应为 ${expected} 字节`);
  const sha256 = headers.sha256 ?? "";
  if (!SHA256_HEX.test(sha256)) return refusal(400, "bad_sha256", "缺少或错误的 X-Content-SHA256");
  const checked = verifiedBody(body, expected, sha256);
  let uploaded: R2UploadedPart;
  try {
    // A body that is shorter, longer or of another hash errors the stream before its end: R2 keeps no part.
    uploaded = await env.MEDIA.resumeMultipartUpload(uploadObjectKey(id, found.value.row.number, rawName), open.r2_upload_id).uploadPart(part, checked.stream);
  } catch (error) {
    const fault = checked.fault();
    if (fault) return refusal(400, "bad_body", fault);
    console.warn(`admin upload: part ${part} of ${rawName} (${id}) refused: ${(error as Error).message}`);
    return refusal(503, "storage_unavailable", "存储暂时不可用，请稍后重试");
  }
  await env.DB.batch([
    env.DB.prepare("INSERT OR REPLACE INTO media_upload_parts (upload_id, name, part, size, sha256, etag) VALUES (?, ?, ?, ?, ?, ?)").bind(
      id,
      rawName,
      part,
      expected,
      sha256,
      uploaded.etag,
    ),
    env.DB.prepare("UPDATE media_uploads SET updated_at = ? WHERE id = ?").bind(nowMs, id),
  ]);
  return { ok: true, value: { part, size: expected, sha256 } };
}

/** Completes the object once every part is there; then it is recorded like an object sent in one request. */
export async function completeMultipart(env: Env, id: string, rawName: string, nowMs: number): Promise<Result<UploadedObject>> {
  const found = await target(env, id, rawName);
  if (!found.ok) return found;
  const open = await multipartOf(env.DB, id, rawName);
  if (!open) return refusal(409, "no_multipart", `${rawName} 的分片上传尚未开始`);
  const parts = await partsOf(env.DB, id, rawName);
  const have = new Set(parts.map((p) => p.part));
  const missing = Array.from({ length: partCount(open.size) }, (_, i) => i + 1).filter((n) => !have.has(n));
  if (missing.length > 0)
    return refusal(
      409,
      "missing_parts",
      `${rawName} 还缺 ${missing.length} 片（第 ${missing.slice(0, 5).join("、")}${missing.length > 5 ? " 等" : ""} 片），请继续上传`,
    );
  const key = uploadObjectKey(id, found.value.row.number, rawName);
  // Only parts the worker verified, and exactly the file the page declared: else nothing is assembled and the parts go.
  if (
    (await multipartSha256(
      parts.map((p) => p.sha256),
      (data) => crypto.subtle.digest("SHA-256", data),
    )) !== open.sha256
  ) {
    await env.MEDIA.resumeMultipartUpload(key, open.r2_upload_id)
      .abort()
      .catch(() => {});
    await env.DB.batch([
      env.DB.prepare("DELETE FROM media_upload_parts WHERE upload_id = ? AND name = ?").bind(id, rawName),
      env.DB.prepare("DELETE FROM media_upload_multiparts WHERE upload_id = ? AND name = ?").bind(id, rawName),
    ]);
    return refusal(409, "bad_checksum", `${rawName} 的分片与声明的文件不符，已丢弃，请重新上传`);
  }
  let object: R2Object;
  try {
    object = await env.MEDIA.resumeMultipartUpload(key, open.r2_upload_id).complete(parts.map((p) => ({ partNumber: p.part, etag: p.etag })));
  } catch (error) {
    console.warn(`admin upload: multipart ${key} not completed: ${(error as Error).message}`);
    return refusal(503, "storage_unavailable", "存储暂时不可用，请稍后重试");
  }
  if (object.size !== open.size) return refusal(409, "bad_size", `${rawName} 合并后为 ${object.size} 字节，应为 ${open.size} 字节，请重新上传`);
  await env.DB.batch([
    env.DB.prepare("INSERT OR REPLACE INTO media_upload_objects (upload_id, name, size, sha256) VALUES (?, ?, ?, ?)").bind(id, rawName, open.size, open.sha256),
    env.DB.prepare("DELETE FROM media_upload_parts WHERE upload_id = ? AND name = ?").bind(id, rawName),
    env.DB.prepare("DELETE FROM media_upload_multiparts WHERE upload_id = ? AND name = ?").bind(id, rawName),
    env.DB.prepare("UPDATE media_uploads SET updated_at = ? WHERE id = ?").bind(nowMs, id),
  ]);
  return { ok: true, value: { name: rawName, size: open.size, sha256: open.sha256 } };
}
