/**
 * 上传视频 (docs/decisions/0080-browser-upload-publish.md): the browser packs a file into the
 * streaming contract and sends each object here as soon as it is made; the
 * worker writes it to R2 under the upload's own new media number with its SHA-256 (R2 checks it
 * before the object exists) and records it in D1 (migrations/0016_media_uploads.sql). 继续上传
 * reads that record and sends only what is missing. Publishing verifies every recorded object in
 * R2 (present, same size), follows the package from master.m3u8 (every name it references must be
 * recorded), copies the cover into place, and points the title or episode at the number in one
 * D1 batch with the upload's state and the audit row: the title goes live with a complete package
 * or not at all. An abandoned upload's objects are deleted; stale ones are swept later.
 */
import { TITLES_TABLE } from "../../shared/catalogue/import-plan";
import { fileEntry } from "../../shared/catalogue/publication";
import type { PublicationState, TitleEntry } from "../../shared/catalogue/schema";
import { applyEpisodeFound, parseEpisodeFound } from "../../shared/media/series-markers";
import { streamFileKind, type SubtitleLanguage } from "../../shared/stream/contract";
import { bytesToHex } from "../../shared/deploy/checksum";
import {
  catalogueDuration,
  COVER_NAME,
  FINGERPRINT_NAME,
  fingerprintKey,
  packageReferences,
  PROGRESSIVE_NAME,
  stagedCoverKey,
  UPLOAD_MAX_BYTES,
  uploadObjectKey,
  uploadObjectKind,
} from "../../shared/upload/package";
import type { AdminVisitor } from "./access";
import type { Refusal } from "./actions";

/** An answer of this module: a value, or a refusal (the request-body refusals 411 and 413 too). */
export type UploadRefusal = Omit<Refusal, "status"> & { status: Refusal["status"] | 411 | 413 };
export type Result<T> = { ok: true; value: T } | UploadRefusal;
import { auditStatement, prepared } from "./audit";
import { saveTitle } from "./titles";

/** Upload ids: 32 lower-case hex characters (128 random bits). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Browser uploads take media numbers from here up (the CLI's are below 200000: scripts/catalogue/add.ts). */
export const FIRST_UPLOAD_NUMBER = 200_000;
const LAST_MEDIA_NUMBER = 999_999;
/** An upload untouched for this long is abandoned and its objects deleted by the next sweep. */
export const STALE_UPLOAD_MS = 7 * 24 * 3600 * 1000;
/** Uploads a sweep cleans at most (it runs when an upload starts). */
const SWEEP_LIMIT = 2;

type UploadState = "uploading" | "published" | "abandoned";

export interface UploadRow {
  id: string;
  title_id: string;
  episode: number | null;
  number: number;
  state: UploadState;
  source: string;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface UploadSource {
  name: string;
  size: number;
  lastModified: number;
}

export interface UploadView {
  id: string;
  titleId: string;
  episode: number | null;
  number: number;
  state: UploadState;
  source: UploadSource;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface UploadedObject {
  name: string;
  size: number;
  sha256: string;
}

export const refusal = (status: UploadRefusal["status"], code: string, message: string): UploadRefusal => ({ ok: false, status, code, message });

const viewOf = (row: UploadRow): UploadView => ({
  id: row.id,
  titleId: row.title_id,
  episode: row.episode,
  number: row.number,
  state: row.state,
  source: JSON.parse(row.source) as UploadSource,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const actorOf = (actor: AdminVisitor) => ({ actorId: actor.userId, actorEmail: actor.email });

export async function uploadRow(db: D1Database, id: string): Promise<UploadRow | null> {
  if (!UPLOAD_ID.test(id)) return null;
  return db.prepare("SELECT * FROM media_uploads WHERE id = ?").bind(id).first<UploadRow>();
}

interface TitleRowLite {
  entry: string;
  state: PublicationState;
  publish_at: number;
  version: number;
}

async function titleEntry(db: D1Database, id: string): Promise<{ entry: TitleEntry; version: number } | null> {
  const row = await db.prepare(`SELECT entry, state, publish_at, version FROM ${TITLES_TABLE} WHERE id = ?`).bind(id).first<TitleRowLite>();
  return row ? { entry: fileEntry(JSON.parse(row.entry) as TitleEntry, row.state, row.publish_at), version: row.version } : null;
}

/** The episode an upload may target: null (the title's own video: a film's, or a series' episode 1) or, in a series, 1…episodes + 1 (a new one at the end). */
function episodeProblem(entry: TitleEntry, episode: number | null): string | null {
  if (episode === null) return null;
  const count = entry.episodes?.length ?? 0;
  if (count === 0) return "这是一部电影，没有剧集：请上传视频本身";
  if (!Number.isInteger(episode) || episode < 1 || episode > count + 1) return `集数只能是 1 到 ${count + 1}`;
  return null;
}

function sourceOf(raw: unknown): UploadSource | null {
  const { name, size, lastModified } = (raw ?? {}) as Record<string, unknown>;
  if (typeof name !== "string" || name.length === 0 || name.length > 200) return null;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size <= 0) return null;
  if (typeof lastModified !== "number" || !Number.isSafeInteger(lastModified) || lastModified < 0) return null;
  return { name, size, lastModified };
}

/** Unfinished uploads of a title (继续上传 offers them), newest first. */
export async function pendingUploads(db: D1Database, titleId: string): Promise<UploadView[]> {
  const { results } = await db
    .prepare("SELECT * FROM media_uploads WHERE title_id = ? AND state = 'uploading' ORDER BY created_at DESC LIMIT 20")
    .bind(titleId)
    .all<UploadRow>();
  return results.map(viewOf);
}

/** Starts an upload for a title (episode null) or one of its episodes: a new id and media number. */
export async function startUpload(env: Env, actor: AdminVisitor, body: Record<string, unknown>, nowMs: number): Promise<Result<UploadView>> {
  const titleId = typeof body.titleId === "string" ? body.titleId : "";
  const title = await titleEntry(env.DB, titleId);
  if (!title) return refusal(404, "not_found", `没有编号为 ${titleId || "（空）"} 的视频`);
  const episode = body.episode === null || body.episode === undefined ? null : Number(body.episode);
  const problem = episodeProblem(title.entry, episode);
  if (problem) return refusal(400, "bad_episode", problem);
  const source = sourceOf(body.source);
  if (!source) return refusal(400, "bad_source", "缺少所选文件的名称、大小或修改时间");
  await sweepStaleUploads(env, nowMs);
  const id = bytesToHex(crypto.getRandomValues(new Uint8Array(16)).buffer);
  // A number no title, no other upload and no object in R2 has (media added by the CLI may exist before its title).
  const top = await env.DB.prepare(
    "SELECT max(n) AS n FROM (SELECT max(number) AS n FROM media_uploads UNION ALL SELECT max(number) FROM title_media WHERE number >= ?1)",
  )
    .bind(FIRST_UPLOAD_NUMBER)
    .first<{ n: number | null }>();
  let number = Math.max(FIRST_UPLOAD_NUMBER, (top?.n ?? 0) + 1);
  while (
    number <= LAST_MEDIA_NUMBER &&
    ((await env.MEDIA.head(`${number}.mp4`)) || (await env.MEDIA.list({ prefix: `stream/${number}/`, limit: 1 })).objects.length)
  ) {
    number++;
  }
  if (number > LAST_MEDIA_NUMBER) return refusal(503, "no_media_number", "媒体编号已用完");
  const target = episode === null ? titleId : `${titleId} 第${episode}集`;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO media_uploads (id, title_id, episode, number, state, source, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, 'uploading', ?, ?, ?, ?)",
    ).bind(id, titleId, episode, number, JSON.stringify(source), actor.email, nowMs, nowMs),
    prepared(env.DB, auditStatement({ ...actorOf(actor), action: "media.upload", target, after: { upload: id, number, source } }, nowMs)),
  ]);
  return { ok: true, value: viewOf((await uploadRow(env.DB, id))!) };
}

/** An upload with the objects R2 already holds (继续上传 sends the rest). */
export async function uploadDetail(db: D1Database, id: string): Promise<Result<{ upload: UploadView; objects: UploadedObject[] }>> {
  const row = await uploadRow(db, id);
  if (!row) return refusal(404, "no_upload", "没有这个上传任务");
  const { results } = await db.prepare("SELECT name, size, sha256 FROM media_upload_objects WHERE upload_id = ? ORDER BY name").bind(id).all<UploadedObject>();
  return { ok: true, value: { upload: viewOf(row), objects: results } };
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A body checked on its way to R2: never read past `length`, failing before its end when longer, shorter or of another SHA-256. */
export function verifiedBody(
  body: ReadableStream<Uint8Array> | null,
  length: number,
  sha256: string,
): { stream: ReadableStream<Uint8Array>; fault: () => string | null } {
  let fault: string | null = null;
  let received = 0;
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  const writer = digest.getWriter();
  const hex = digest.digest.then(bytesToHex);
  hex.catch(() => {});
  const refuse = (why: string): never => {
    fault = why;
    throw new Error(why);
  };
  const check = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > length) refuse("请求体长于 Content-Length，未写入");
      await writer.write(chunk);
      controller.enqueue(chunk);
    },
    async flush() {
      if (received < length) refuse("请求体短于 Content-Length，未写入");
      await writer.close();
      if ((await hex) !== sha256) refuse("文件内容与 X-Content-SHA256 不符，未写入");
    },
  });
  const source = body ?? new Response(new Uint8Array(0)).body!;
  return { stream: source.pipeThrough(check).pipeThrough(new FixedLengthStream(length)), fault: () => fault };
}

/**
 * One object of an upload: `name` as it appears in the raw path (a contract name, `video.mp4` or
 * `cover.webp`: nothing else, no decoding), written under the upload's own number only.
 */
export async function putUploadObject(
  env: Env,
  id: string,
  rawName: string,
  headers: { length: string | undefined; sha256: string | undefined },
  body: ReadableStream<Uint8Array> | null,
  nowMs: number,
): Promise<Result<UploadedObject>> {
  const kind = uploadObjectKind(rawName);
  if (!kind) return refusal(400, "bad_name", "文件名不合约定（只能是 docs/streaming.md 中的文件名、video.mp4、cover.webp 或 audio.fp）");
  const row = await uploadRow(env.DB, id);
  if (!row) return refusal(404, "no_upload", "没有这个上传任务");
  if (row.state !== "uploading") return refusal(409, "upload_closed", row.state === "published" ? "此上传已发布，不能再写入" : "此上传已放弃，请重新上传");
  if (headers.length === undefined) return refusal(411, "length_required", "缺少 Content-Length");
  if (!/^[0-9]{1,15}$/.test(headers.length)) return refusal(400, "bad_length", "Content-Length 格式错误");
  const length = Number(headers.length);
  if (length === 0) return refusal(400, "bad_length", "文件不能为空");
  if (length > UPLOAD_MAX_BYTES[kind]) return refusal(413, "too_large", `${rawName} 超过 ${Math.round(UPLOAD_MAX_BYTES[kind] / 1024 / 1024)} MB`);
  const sha256 = headers.sha256 ?? "";
  if (!SHA256_HEX.test(sha256)) return refusal(400, "bad_sha256", "缺少或错误的 X-Content-SHA256");
  const key = uploadObjectKey(id, row.number, rawName);
  const checked = verifiedBody(body, length, sha256);
  const contentType = kind === "progressive" ? "video/mp4" : kind === "cover" ? "image/webp" : undefined;
  try {
    // R2 checks the SHA-256 as well before the object exists: a wrong body replaces nothing.
    await env.MEDIA.put(key, checked.stream, { sha256, ...(contentType ? { httpMetadata: { contentType } } : {}) });
  } catch (error) {
    const fault = checked.fault();
    if (fault) return refusal(400, "bad_body", fault);
    console.warn(`admin upload: ${key} refused: ${(error as Error).message}`);
    return refusal(503, "storage_unavailable", "存储暂时不可用，请稍后重试");
  }
  await env.DB.batch([
    env.DB.prepare("INSERT OR REPLACE INTO media_upload_objects (upload_id, name, size, sha256) VALUES (?, ?, ?, ?)").bind(id, rawName, length, sha256),
    env.DB.prepare("UPDATE media_uploads SET updated_at = ? WHERE id = ?").bind(nowMs, id),
  ]);
  return { ok: true, value: { name: rawName, size: length, sha256 } };
}

/** Every object R2 holds under the number (stream files and the progressive file), with sizes. */
async function storedSizes(bucket: R2Bucket, number: number): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: `stream/${number}/`, cursor, limit: 1000 });
    for (const o of page.objects) sizes.set(o.key, o.size);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  for (const key of [`${number}.mp4`, fingerprintKey(number)]) {
    const object = await bucket.head(key);
    if (object) sizes.set(object.key, object.size);
  }
  return sizes;
}

export interface PublishOutcome {
  titleId: string;
  episode: number | null;
  number: number;
  objects: number;
  bytes: number;
  duration: string;
  /** 片头 / 片尾 written from what the browser found (decision 0099). */
  markers: number;
  version: number;
}

/**
 * Publishes an upload: every recorded object is in R2 with its size, the package from
 * master.m3u8 names only recorded objects, the browser's count and bytes agree with the record;
 * then the cover is copied into place and ONE D1 batch points the title (or episode) at the number,
 * marks the upload published and writes the audit rows. Anything missing: 409, nothing changes.
 */
export async function publishUpload(env: Env, actor: AdminVisitor, id: string, body: Record<string, unknown>, nowMs: number): Promise<Result<PublishOutcome>> {
  const row = await uploadRow(env.DB, id);
  if (!row) return refusal(404, "no_upload", "没有这个上传任务");
  if (row.state !== "uploading") return refusal(409, "upload_closed", row.state === "published" ? "此上传已发布" : "此上传已放弃，请重新上传");
  const { results: objects } = await env.DB.prepare("SELECT name, size, sha256 FROM media_upload_objects WHERE upload_id = ?").bind(id).all<UploadedObject>();
  const recorded = new Map(objects.map((o) => [o.name, o]));
  if (!recorded.has(PROGRESSIVE_NAME)) return refusal(409, "incomplete", "缺少 video.mp4（兼容播放用的 MP4）");
  if (row.episode === null && !recorded.has(COVER_NAME)) return refusal(409, "incomplete", "缺少封面 cover.webp");
  // No playlist may point at an object that is not there (nor outside the contract).
  const refs = await packageReferences(async (name) => {
    if (!recorded.has(name)) return null;
    const object = await env.MEDIA.get(uploadObjectKey(id, row.number, name));
    return object ? object.text() : null;
  });
  if (refs.problem) return refusal(409, "bad_package", `视频包不完整：${refs.problem}`);
  for (const name of refs.names) if (!recorded.has(name)) return refusal(409, "missing_object", `${name} 尚未上传，请继续上传`);
  // The package: what the playlists reference, the progressive file, the cover, the link-preview frames
  // (fixed names: decision 0098) and the audio fingerprint (decision 0099). Objects of an earlier run that
  // nothing references (another encoder's versions) are left out and deleted after the switch.
  const used = objects.filter(
    (o) => refs.names.has(o.name) || o.name === PROGRESSIVE_NAME || o.name === COVER_NAME || o.name === FINGERPRINT_NAME || streamFileKind(o.name) === "frame",
  );
  const unused = objects.filter((o) => !used.includes(o));
  const bytes = used.reduce((sum, o) => sum + o.size, 0);
  if (body.objects !== used.length || body.bytes !== bytes) {
    return refusal(
      409,
      "incomplete",
      `服务器上的视频包有 ${used.length} 个文件（${bytes} 字节），与本页上传的 ${String(body.objects)} 个（${String(body.bytes)} 字节）不符，请继续上传`,
    );
  }
  // Every object of the package is in R2 with the recorded size (R2 verified its SHA-256 when it was put).
  const sizes = await storedSizes(env.MEDIA, row.number);
  const cover = recorded.has(COVER_NAME) ? await env.MEDIA.get(stagedCoverKey(id)) : null;
  for (const o of used) {
    const size = o.name === COVER_NAME ? cover?.size : sizes.get(uploadObjectKey(id, row.number, o.name));
    if (size !== o.size) return refusal(409, "missing_object", `${o.name} 不在存储中或大小不符，请继续上传`);
  }

  const title = await titleEntry(env.DB, row.title_id);
  if (!title) return refusal(404, "not_found", `视频 ${row.title_id} 已被删除`);
  const problem = episodeProblem(title.entry, row.episode);
  if (problem) return refusal(409, "bad_episode", `${problem}（剧集在上传期间有变动，请重新上传）`);
  const duration = catalogueDuration(refs.duration);
  const entry = withMedia(title.entry, row.episode, row.number, duration, recorded.has(COVER_NAME), refs.subtitleLanguages);
  const found = parseEpisodeFound(body.markers, entry.episodes?.length ?? 0);
  if (found === null) return refusal(400, "bad_markers", "找到的片头 / 片尾格式错误");
  // The 片头 / 片尾 the browser found by matching this episode's audio with its neighbours' (decision 0099): the operator's stay.
  const markers = applyEpisodeFound(entry, found);
  if (cover) await env.MEDIA.put(`${row.number}.webp`, cover.body, { httpMetadata: { contentType: "image/webp" } });
  const target = row.episode === null ? row.title_id : `${row.title_id} 第${row.episode}集`;
  const extra = (db: D1Database) => [
    db.prepare("UPDATE media_uploads SET state = 'published', updated_at = ? WHERE id = ? AND state = 'uploading'").bind(nowMs, id),
    db.prepare("SELECT json(CASE WHEN changes() = 1 THEN '1' ELSE 'upload closed meanwhile' END) AS guard"),
    prepared(
      db,
      auditStatement(
        { ...actorOf(actor), action: "media.publish", target, after: { upload: id, number: row.number, objects: objects.length, bytes, markers } },
        nowMs,
      ),
    ),
  ];
  const saved = await saveTitle(env, actor, entry, { id: row.title_id, version: title.version }, nowMs, extra);
  if (!saved.ok) return saved.status === 409 ? refusal(409, "title_changed", `${saved.message}`) : saved;
  if (unused.length > 0) {
    await env.MEDIA.delete(unused.map((o) => uploadObjectKey(id, row.number, o.name)));
    await env.DB.prepare("DELETE FROM media_upload_objects WHERE upload_id = ? AND name IN (SELECT value FROM json_each(?))")
      .bind(id, JSON.stringify(unused.map((o) => o.name)))
      .run();
  }
  return {
    ok: true,
    value: { titleId: row.title_id, episode: row.episode, number: row.number, objects: used.length, bytes, duration, markers, version: saved.value.version },
  };
}

/**
 * The entry with its video (or episode N) at media number n, with exactly the subtitle languages
 * of the new package (`[]` when it has none: the languages of the media it replaces, or the
 * zh-CN default, would name files the new number does not have).
 */
export function withMedia(entry: TitleEntry, episode: number | null, n: number, duration: string, cover: boolean, subtitles: SubtitleLanguage[]): TitleEntry {
  const next: TitleEntry = structuredClone(entry);
  const file = `/${n}.mp4`;
  if (cover) next.coverImage = `/${n}.webp`;
  const episodes = next.episodes ?? [];
  const own = episode === null || episode === 1;
  if (own) {
    next.videoFile = file;
    next.subtitles = [...subtitles];
  }
  if (episodes.length === 0) {
    next.duration = duration;
    return next;
  }
  const at = (episode ?? 1) - 1;
  episodes[at] = { ...episodes[at], videoFile: file, duration, subtitles: [...subtitles] };
  return next;
}

/** Deletes every object of an upload (its number's stream files, its progressive file, its staged cover, its fingerprint). */
async function deleteObjects(bucket: R2Bucket, id: string, number: number): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: `stream/${number}/`, cursor, limit: 1000 });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  await bucket.delete([`${number}.mp4`, `${number}.webp`, stagedCoverKey(id), fingerprintKey(number)]);
}

/** 放弃上传: the upload is closed at once (nothing of it can be published), its objects deleted. */
export async function abandonUpload(env: Env, actor: AdminVisitor, id: string, nowMs: number): Promise<Result<{ id: string }>> {
  const row = await uploadRow(env.DB, id);
  if (!row) return refusal(404, "no_upload", "没有这个上传任务");
  if (row.state === "published") return refusal(409, "upload_closed", "此上传已发布，不能放弃");
  const target = row.episode === null ? row.title_id : `${row.title_id} 第${row.episode}集`;
  await env.DB.batch([
    env.DB.prepare("UPDATE media_uploads SET state = 'abandoned', updated_at = ? WHERE id = ?").bind(nowMs, id),
    prepared(env.DB, auditStatement({ ...actorOf(actor), action: "media.abandon", target, after: { upload: id, number: row.number } }, nowMs)),
  ]);
  await cleanUpload(env, row, nowMs);
  return { ok: true, value: { id } };
}

async function cleanUpload(env: Env, row: Pick<UploadRow, "id" | "number">, nowMs: number): Promise<void> {
  await abortMultiparts(env, row);
  await deleteObjects(env.MEDIA, row.id, row.number);
  await env.DB.batch([
    env.DB.prepare("DELETE FROM media_upload_objects WHERE upload_id = ?").bind(row.id),
    env.DB.prepare("DELETE FROM media_upload_multiparts WHERE upload_id = ?").bind(row.id),
    env.DB.prepare("DELETE FROM media_upload_parts WHERE upload_id = ?").bind(row.id),
    env.DB.prepare("UPDATE media_uploads SET cleaned_at = ? WHERE id = ?").bind(nowMs, row.id),
  ]);
}

/** Aborts the R2 multipart uploads still open for an upload's objects (their parts are dropped by R2). */
async function abortMultiparts(env: Env, row: Pick<UploadRow, "id" | "number">): Promise<void> {
  const { results } = await env.DB.prepare("SELECT name, r2_upload_id FROM media_upload_multiparts WHERE upload_id = ?")
    .bind(row.id)
    .all<{ name: string; r2_upload_id: string }>();
  for (const open of results) {
    await env.MEDIA.resumeMultipartUpload(uploadObjectKey(row.id, row.number, open.name), open.r2_upload_id)
      .abort()
      .catch((error: unknown) => console.warn(`admin upload: abort of ${open.name} (${row.id}) failed: ${(error as Error).message}`));
  }
}

/**
 * The later clean-up: uploads untouched for STALE_UPLOAD_MS are abandoned, and abandoned uploads
 * whose objects are still there (a clean-up that failed) are cleaned — a few per call. Runs when
 * an upload starts, so no cron is needed; their numbers stay hidden meanwhile.
 */
export async function sweepStaleUploads(env: Env, nowMs: number): Promise<number> {
  const { results } = await env.DB.prepare(
    "SELECT id, number FROM media_uploads WHERE cleaned_at IS NULL AND (state = 'abandoned' OR (state = 'uploading' AND updated_at < ?)) ORDER BY updated_at LIMIT ?",
  )
    .bind(nowMs - STALE_UPLOAD_MS, SWEEP_LIMIT)
    .all<{ id: string; number: number }>();
  for (const row of results) {
    await env.DB.prepare("UPDATE media_uploads SET state = 'abandoned' WHERE id = ? AND state = 'uploading'").bind(row.id).run();
    await cleanUpload(env, row, nowMs);
  }
  return results.length;
}
