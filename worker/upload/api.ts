/**
 * The media upload endpoint (docs/decisions/0052-media-upload-path.md): `npm run deploy` and
 * `npm run catalogue -- add --remote` write media into the MEDIA bucket through the worker itself,
 * so local and remote uploads take one code path.
 *
 *   GET  /api/media/objects?prefix=&cursor=            list keys with size and MD5
 *   PUT  /api/media/objects/{key}                      one object (X-Content-MD5: hex, Content-Length)
 *   POST /api/media/uploads/{key}?size=&md5=           start a multipart upload → { uploadId }
 *   PUT  /api/media/uploads/{key}?uploadId=&part=N     one part → { partNumber, etag }
 *   POST /api/media/uploads/{key}?uploadId=&complete   finish with { parts } → the object
 *
 * Off (404, like any unknown API) unless the secret MEDIA_UPLOAD_TOKEN is set. Every request needs
 * `Authorization: Bearer <token>`, compared in constant time (401 otherwise); keys must be media
 * keys of the catalogue (shared/deploy/media-keys.ts, 400 otherwise) within their kind's size
 * (413). R2 checks each object's MD5, so a refused request never leaves an object behind.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env";
import { configOf } from "../config";
import { MD5_HEX, MULTIPART_MAX_PARTS, MULTIPART_PART_BYTES, parseMediaKey, SINGLE_PUT_MAX_BYTES, type MediaKey } from "../../shared/deploy/media-keys";

type Ctx = Context<AppEnv>;

const NO_STORE = { "Cache-Control": "no-store" } as const;

function refuse(status: 400 | 401 | 404 | 413, code: string, message: string): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="media-upload"';
  return Response.json({ error: { code, message } }, { status, headers });
}

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

function declaredLength(c: Ctx): number | null {
  const raw = c.req.header("Content-Length");
  return raw !== undefined && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : null;
}

/** The MD5 the listing reports: ours from custom metadata, else R2's ETag of a single-part put. */
function objectMd5(object: R2Object): string | null {
  const own = object.customMetadata?.md5;
  if (own && MD5_HEX.test(own)) return own;
  return MD5_HEX.test(object.etag) ? object.etag : null;
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
  // `include` is R2's (custom metadata in listings); workers-types does not declare it.
  const options: R2ListOptions & { include: string[] } = { prefix, cursor, limit: 1000, include: ["customMetadata"] };
  const page = await c.env.MEDIA.list(options);
  return c.json(
    {
      objects: page.objects.map((o) => ({ key: o.key, size: o.size, md5: objectMd5(o) })),
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
  const length = declaredLength(c);
  if (length === null) return refuse(400, "length_required", "缺少 Content-Length");
  if (length > key.maxBytes || length > SINGLE_PUT_MAX_BYTES) return refuse(413, "too_large", "文件过大");
  const md5 = md5Of(c.req.header("X-Content-MD5"));
  if (!md5) return refuse(400, "bad_md5", "缺少或错误的 X-Content-MD5");
  const body = c.req.raw.body ?? new Uint8Array(0);
  try {
    const stream = body instanceof Uint8Array ? body : body.pipeThrough(new FixedLengthStream(length));
    const object = await c.env.MEDIA.put(key.key, stream, { md5, httpMetadata: { contentType: key.contentType }, customMetadata: { md5 } });
    return c.json({ key: key.key, size: object?.size ?? length, md5 }, 201, NO_STORE);
  } catch (error) {
    // A body that does not match its length or MD5: R2 stores nothing.
    console.warn(`media upload: ${key.key} refused: ${(error as Error).message}`);
    return refuse(400, "bad_body", "文件内容与长度或 MD5 不符，未写入");
  }
});

uploadApi.post("/uploads/*", async (c) => {
  const key = mediaKeyOf(c, "/api/media/uploads/");
  if (key instanceof Response) return key;
  const uploadId = c.req.query("uploadId");
  if (uploadId === undefined) {
    // Start: the whole file's size and MD5 are declared up front.
    const size = Number(c.req.query("size"));
    const md5 = md5Of(c.req.query("md5"));
    if (!Number.isSafeInteger(size) || size <= 0 || !md5) return refuse(400, "bad_upload", "缺少或错误的 size / md5");
    if (size > key.maxBytes || Math.ceil(size / MULTIPART_PART_BYTES) > MULTIPART_MAX_PARTS) return refuse(413, "too_large", "文件过大");
    const upload = await c.env.MEDIA.createMultipartUpload(key.key, {
      httpMetadata: { contentType: key.contentType },
      customMetadata: { md5, size: String(size) },
    });
    return c.json({ key: key.key, uploadId: upload.uploadId }, 201, NO_STORE);
  }
  // Complete: the parts as the client recorded them; the object must have the declared size.
  const parts = await readParts(c.req.raw);
  if (!parts) return refuse(400, "bad_parts", "分片列表格式错误");
  try {
    const object = await c.env.MEDIA.resumeMultipartUpload(key.key, uploadId).complete(parts);
    const declared = Number(object.customMetadata?.size);
    if (object.size !== declared) {
      await c.env.MEDIA.delete(key.key);
      return refuse(400, "bad_size", "合并后的大小与声明不符，已删除");
    }
    return c.json({ key: key.key, size: object.size, md5: object.customMetadata?.md5 ?? null }, 201, NO_STORE);
  } catch (error) {
    console.warn(`media upload: completing ${key.key} failed: ${(error as Error).message}`);
    return refuse(400, "bad_upload", "分片上传无法完成");
  }
});

uploadApi.put("/uploads/*", async (c) => {
  const key = mediaKeyOf(c, "/api/media/uploads/");
  if (key instanceof Response) return key;
  const uploadId = c.req.query("uploadId");
  const part = Number(c.req.query("part"));
  if (!uploadId || !Number.isInteger(part) || part < 1 || part > MULTIPART_MAX_PARTS) return refuse(400, "bad_part", "缺少或错误的 uploadId / part");
  const length = declaredLength(c);
  if (length === null || length === 0) return refuse(400, "length_required", "缺少 Content-Length");
  if (length > MULTIPART_PART_BYTES) return refuse(413, "too_large", "分片过大");
  const body = c.req.raw.body;
  if (!body) return refuse(400, "length_required", "缺少请求体");
  try {
    const uploaded = await c.env.MEDIA.resumeMultipartUpload(key.key, uploadId).uploadPart(part, body.pipeThrough(new FixedLengthStream(length)));
    return c.json(uploaded, 201, NO_STORE);
  } catch (error) {
    console.warn(`media upload: part ${part} of ${key.key} refused: ${(error as Error).message}`);
    return refuse(400, "bad_part", "分片未写入");
  }
});

uploadApi.all("*", () => refuse(404, "not_found", "接口不存在"));

const MAX_PARTS_BODY = 1024 * 1024;

async function readParts(request: Request): Promise<R2UploadedPart[] | null> {
  const length = Number(request.headers.get("Content-Length"));
  if (!Number.isFinite(length) || length > MAX_PARTS_BODY) return null;
  try {
    const value: unknown = JSON.parse(await request.text());
    const list = (value as { parts?: unknown }).parts;
    if (!Array.isArray(list) || list.length === 0 || list.length > MULTIPART_MAX_PARTS) return null;
    const parts: R2UploadedPart[] = [];
    for (const item of list as unknown[]) {
      const { partNumber, etag } = (item ?? {}) as { partNumber?: unknown; etag?: unknown };
      if (typeof partNumber !== "number" || !Number.isInteger(partNumber) || typeof etag !== "string" || etag.length > 200) return null;
      parts.push({ partNumber, etag });
    }
    return parts;
  } catch {
    return null;
  }
}
