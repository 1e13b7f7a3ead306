/**
 * The media upload endpoint (docs/decisions/0052-media-upload-path.md): `npm run deploy` and
 * `npm run catalogue -- add --remote` write media into the MEDIA bucket through the worker itself,
 * so local and remote uploads take one code path.
 *
 *   GET    /api/media/objects?prefix=&cursor=           list keys with size and verified checksum
 *   PUT    /api/media/objects/{key}                     one object (Content-Length, X-Content-MD5: hex)
 *   POST   /api/media/uploads/{key}?size=               start a multipart upload → { uploadId }
 *   PUT    /api/media/uploads/{key}?uploadId=&part=N    one part (Content-Length, X-Content-MD5: the part's)
 *                                                       → { partNumber, etag, size, md5, receipt }
 *   POST   /api/media/uploads/{key}?uploadId=&complete  { size, checksum, parts } → the object
 *   DELETE /api/media/uploads/{key}?uploadId=           abort: the parts are dropped
 *
 * Off (404, like any unknown API) unless the secret MEDIA_UPLOAD_TOKEN is set. Every request needs
 * `Authorization: Bearer <token>`, compared in constant time (401 otherwise); keys must be media
 * keys of the catalogue (shared/deploy/media-keys.ts, 400 otherwise) within their kind's size
 * (413). Every body needs its Content-Length (411) and is never read past it (./body.ts).
 *
 * Nothing wrong ever replaces an object: a single put reaches R2 with its MD5, which R2 checks
 * before the object becomes visible; a multipart upload is completed only from parts the worker
 * verified itself (length and MD5, ./receipt.ts) that add up to the declared size and multipart
 * checksum (shared/deploy/checksum.ts) — any refusal aborts the upload, so its parts are dropped.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env";
import { configOf } from "../config";
import { bytesToHex, concatenatedDigests, isChecksum, MULTIPART_CHECKSUM, multipartChecksum, partBytes, partCount } from "../../shared/deploy/checksum";
import { MD5_HEX, MULTIPART_MAX_PARTS, MULTIPART_PART_BYTES, parseMediaKey, SINGLE_PUT_MAX_BYTES, type MediaKey } from "../../shared/deploy/media-keys";
import { checkedBody, readBoundedText, type BodyFault } from "./body";
import { partReceipts, type VerifiedPart } from "./receipt";

type Ctx = Context<AppEnv>;

const NO_STORE = { "Cache-Control": "no-store" } as const;

type RefusalStatus = 400 | 401 | 404 | 411 | 413 | 503;

function refuse(status: RefusalStatus, code: string, message: string): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="media-upload"';
  if (status === 503) headers["Retry-After"] = "5";
  return Response.json({ error: { code, message } }, { status, headers });
}

const BODY_FAULTS: Readonly<Record<BodyFault, [code: string, message: string]>> = {
  too_long: ["bad_length", "请求体长于 Content-Length，未写入"],
  too_short: ["bad_length", "请求体短于 Content-Length，未写入"],
  md5_mismatch: ["bad_md5", "文件内容与 X-Content-MD5 不符，未写入"],
};

function refuseBody(fault: BodyFault): Response {
  const [code, message] = BODY_FAULTS[fault];
  return refuse(400, code, message);
}

const storageUnavailable = () => refuse(503, "storage_unavailable", "存储暂时不可用，请稍后重试");

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

/** Compares the bearer token with the secret in constant time (both hashed first: equal lengths). */
export async function tokenMatches(header: string | undefined, secret: string): Promise<boolean> {
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header ?? "");
  const [given, wanted] = await Promise.all([sha256(match ? match[1] : ""), sha256(secret)]);
  // workerd's SubtleCrypto extension (the DOM lib's type does not declare it).
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean };
  return subtle.timingSafeEqual(given, wanted) && match !== null;
}

/** The raw key after `prefix` in the request's undecoded path. */
function rawKey(c: Ctx, prefix: string): string {
  const path = new URL(c.req.url).pathname;
  return path.startsWith(prefix) ? path.slice(prefix.length) : "";
}

/** The declared body length, at most `max` bytes; a refusal when it is missing (411), malformed (400) or over `max` (413). */
function bodyLength(c: Ctx, max: number, tooLarge: string): number | Response {
  const raw = c.req.header("Content-Length");
  if (raw === undefined) return refuse(411, "length_required", "缺少 Content-Length");
  if (!/^[0-9]{1,15}$/.test(raw)) return refuse(400, "bad_length", "Content-Length 格式错误");
  const length = Number(raw);
  return length > max ? refuse(413, "too_large", tooLarge) : length;
}

/** The checksum the listing reports: R2's own (the MD5 of a single put, the multipart ETag of an upload in parts), which the endpoint verified before the object became visible. */
function verifiedChecksum(object: R2Object): string | null {
  return isChecksum(object.etag) ? object.etag : null;
}

const noSuchUpload = (error: unknown) => /\(10024\)/.test((error as Error).message);

async function abortQuietly(upload: R2MultipartUpload): Promise<void> {
  try {
    await upload.abort();
  } catch (error) {
    console.warn(`media upload: aborting ${upload.key} (${upload.uploadId}) failed: ${(error as Error).message}`);
  }
}

export const uploadApi = new Hono<AppEnv>();

// Off unless the secret is set; then every request must carry it.
uploadApi.use("*", async (c, next) => {
  const secret = configOf(c.env).MEDIA_UPLOAD_TOKEN;
  if (!secret) return refuse(404, "not_found", "接口不存在");
  if (!(await tokenMatches(c.req.header("Authorization"), secret))) return refuse(401, "unauthorized", "上传令牌无效");
  await next();
});

uploadApi.get("/objects", async (c) => {
  const prefix = c.req.query("prefix") ?? "";
  const cursor = c.req.query("cursor") || undefined;
  if (prefix.length > 64) return refuse(400, "bad_prefix", "前缀过长");
  const page = await c.env.MEDIA.list({ prefix, cursor, limit: 1000 });
  return c.json(
    {
      objects: page.objects.map((o) => ({ key: o.key, size: o.size, checksum: verifiedChecksum(o) })),
      cursor: page.truncated ? page.cursor : null,
    },
    200,
    NO_STORE,
  );
});

/** The key of the path (400 when not a media key), or a refusal. */
function mediaKeyOf(c: Ctx, prefix: string): MediaKey | Response {
  const parsed = parseMediaKey(rawKey(c, prefix));
  return parsed ?? refuse(400, "bad_key", "不是目录中的媒体文件名");
}

function md5Of(value: string | undefined): string | null {
  return value !== undefined && MD5_HEX.test(value) ? value : null;
}

uploadApi.put("/objects/*", async (c) => {
  const key = mediaKeyOf(c, "/api/media/objects/");
  if (key instanceof Response) return key;
  const length = bodyLength(c, Math.min(key.maxBytes, SINGLE_PUT_MAX_BYTES), "文件过大");
  if (length instanceof Response) return length;
  const md5 = md5Of(c.req.header("X-Content-MD5"));
  if (!md5) return refuse(400, "bad_md5", "缺少或错误的 X-Content-MD5");
  const body = checkedBody(c.req.raw.body, length, md5);
  try {
    // R2 checks the MD5 too, before the object becomes visible: a wrong body replaces nothing.
    const object = await c.env.MEDIA.put(key.key, body.stream, { md5, httpMetadata: { contentType: key.contentType } });
    return c.json({ key: key.key, size: object?.size ?? length, checksum: md5 }, 201, NO_STORE);
  } catch (error) {
    const fault = body.fault();
    if (fault) return refuseBody(fault);
    console.warn(`media upload: ${key.key} refused: ${(error as Error).message}`);
    return /\(10037\)/.test((error as Error).message) ? refuseBody("md5_mismatch") : storageUnavailable();
  }
});

uploadApi.post("/uploads/*", async (c) => {
  const key = mediaKeyOf(c, "/api/media/uploads/");
  if (key instanceof Response) return key;
  const uploadId = c.req.query("uploadId");
  if (uploadId === undefined) {
    // Start: the whole file's size is declared up front (its checksum when completing).
    const size = Number(c.req.query("size"));
    if (!Number.isSafeInteger(size) || size <= 0) return refuse(400, "bad_upload", "缺少或错误的 size");
    if (size > key.maxBytes || partCount(size) > MULTIPART_MAX_PARTS) return refuse(413, "too_large", "文件过大");
    const upload = await c.env.MEDIA.createMultipartUpload(key.key, { httpMetadata: { contentType: key.contentType } });
    return c.json({ key: key.key, uploadId: upload.uploadId }, 201, NO_STORE);
  }
  if (c.req.query("complete") === undefined) return refuse(400, "bad_upload", "缺少 complete");
  // Everything is checked before R2 assembles the object under its key; a refused completion
  // aborts the upload (the deploy starts such a file anew), so no parts are left behind.
  const upload = c.env.MEDIA.resumeMultipartUpload(key.key, uploadId);
  const abortWith = async (refusal: Response) => {
    await abortQuietly(upload);
    return refusal;
  };
  const length = bodyLength(c, MAX_COMPLETE_BODY, "分片列表过长");
  if (length instanceof Response) return abortWith(length);
  const read = await readBoundedText(c.req.raw.body, length);
  if ("fault" in read) return abortWith(refuseBody(read.fault));
  const declared = parseCompletion(read.text);
  if (!declared) return abortWith(refuse(400, "bad_parts", "分片列表格式错误，上传已中止"));
  const problem = await completionProblem(configOf(c.env).MEDIA_UPLOAD_TOKEN ?? "", key.key, uploadId, declared);
  if (problem) return abortWith(refuse(400, problem[0], `${problem[1]}，上传已中止，原文件不变`));
  let object: R2Object;
  try {
    object = await upload.complete(declared.parts.map(({ partNumber, etag }) => ({ partNumber, etag })));
  } catch (error) {
    console.warn(`media upload: completing ${key.key} failed: ${(error as Error).message}`);
    if (noSuchUpload(error)) return refuse(404, "no_upload", "分片上传不存在或已结束");
    await abortQuietly(upload);
    return refuse(400, "bad_upload", "分片上传无法完成，上传已中止，原文件不变");
  }
  if (object.size !== declared.size || object.etag !== declared.checksum) {
    // Cannot happen with verified parts (R2 computes the same ETag); the listing shows R2's checksum, so the next deploy sends the file again.
    console.error(`media upload: ${key.key} completed as ${object.size} bytes, ${object.etag}; declared ${declared.size}, ${declared.checksum}`);
    return refuse(400, "bad_upload", "合并后的文件与声明不符");
  }
  return c.json({ key: key.key, size: object.size, checksum: object.etag }, 201, NO_STORE);
});

uploadApi.put("/uploads/*", async (c) => {
  const key = mediaKeyOf(c, "/api/media/uploads/");
  if (key instanceof Response) return key;
  const uploadId = c.req.query("uploadId");
  const partNumber = Number(c.req.query("part"));
  if (!uploadId || !Number.isInteger(partNumber) || partNumber < 1 || partNumber > MULTIPART_MAX_PARTS)
    return refuse(400, "bad_part", "缺少或错误的 uploadId / part");
  const length = bodyLength(c, MULTIPART_PART_BYTES, "分片过大");
  if (length instanceof Response) return length;
  if (length === 0) return refuse(400, "bad_length", "分片不能为空");
  const md5 = md5Of(c.req.header("X-Content-MD5"));
  if (!md5) return refuse(400, "bad_md5", "缺少或错误的 X-Content-MD5");
  const upload = c.env.MEDIA.resumeMultipartUpload(key.key, uploadId);
  const body = checkedBody(c.req.raw.body, length, md5);
  // A part of other bytes than declared: the upload cannot complete as declared, so it is aborted.
  const refusePart = async (fault: BodyFault) => {
    await abortQuietly(upload);
    const [code, message] = BODY_FAULTS[fault];
    return refuse(400, code, `${message}，上传已中止`);
  };
  let etag: string;
  try {
    ({ etag } = await upload.uploadPart(partNumber, body.stream));
  } catch (error) {
    const fault = body.fault();
    if (fault) return refusePart(fault);
    console.warn(`media upload: part ${partNumber} of ${key.key} failed: ${(error as Error).message}`);
    return noSuchUpload(error) ? refuse(404, "no_upload", "分片上传不存在或已结束") : storageUnavailable();
  }
  // R2 has taken the part: a receipt only when its bytes were the declared ones.
  const fault = body.fault() ?? ((await body.md5()) === md5 ? null : "md5_mismatch");
  if (fault) return refusePart(fault);
  const part: VerifiedPart = { partNumber, etag, size: length, md5 };
  const receipts = await partReceipts(configOf(c.env).MEDIA_UPLOAD_TOKEN ?? "");
  return c.json({ ...part, receipt: await receipts.sign(key.key, uploadId, part) }, 201, NO_STORE);
});

uploadApi.delete("/uploads/*", async (c) => {
  const key = mediaKeyOf(c, "/api/media/uploads/");
  if (key instanceof Response) return key;
  const uploadId = c.req.query("uploadId");
  if (!uploadId) return refuse(400, "bad_upload", "缺少 uploadId");
  try {
    await c.env.MEDIA.resumeMultipartUpload(key.key, uploadId).abort();
  } catch (error) {
    if (!noSuchUpload(error)) {
      console.warn(`media upload: aborting ${key.key} (${uploadId}) failed: ${(error as Error).message}`);
      return storageUnavailable();
    }
  }
  return c.body(null, 204, NO_STORE);
});

uploadApi.all("*", () => refuse(404, "not_found", "接口不存在"));

/** The completion body: about 200 bytes per part, 10 000 parts at most. */
const MAX_COMPLETE_BODY = 4 * 1024 * 1024;

interface Completion {
  size: number;
  checksum: string;
  parts: Array<VerifiedPart & { receipt: string }>;
}

function parseCompletion(text: string): Completion | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const { size, checksum, parts: list } = (value ?? {}) as { size?: unknown; checksum?: unknown; parts?: unknown };
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size <= 0 || typeof checksum !== "string" || !MULTIPART_CHECKSUM.test(checksum)) return null;
  if (!Array.isArray(list) || list.length === 0 || list.length > MULTIPART_MAX_PARTS) return null;
  const parts: Completion["parts"] = [];
  for (const item of list as unknown[]) {
    const { partNumber, etag, size: partSize, md5, receipt } = (item ?? {}) as Record<string, unknown>;
    if (typeof partNumber !== "number" || !Number.isInteger(partNumber) || typeof etag !== "string" || etag.length > 200) return null;
    if (typeof partSize !== "number" || !Number.isSafeInteger(partSize) || typeof md5 !== "string" || !MD5_HEX.test(md5) || typeof receipt !== "string")
      return null;
    parts.push({ partNumber, etag, size: partSize, md5, receipt });
  }
  return { size, checksum, parts };
}

/** Why the declared parts cannot make the declared object ([code, message]), or null when they do. */
async function completionProblem(secret: string, key: string, uploadId: string, declared: Completion): Promise<[string, string] | null> {
  const count = partCount(declared.size);
  const { parts } = declared;
  if (parts.length !== count || parts.some((p, i) => p.partNumber !== i + 1 || p.size !== partBytes(declared.size, i + 1))) {
    return ["bad_size", "分片与声明的大小不符"];
  }
  const receipts = await partReceipts(secret);
  for (const part of parts) {
    if (!(await receipts.valid(key, uploadId, part, part.receipt))) return ["bad_parts", `分片 ${part.partNumber} 未经校验`];
  }
  const digest = bytesToHex(await crypto.subtle.digest("MD5", concatenatedDigests(parts.map((p) => p.md5))));
  if (multipartChecksum(digest, count) !== declared.checksum) return ["bad_checksum", "分片的校验和与声明不符"];
  return null;
}
