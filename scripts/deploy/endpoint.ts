/**
 * Client of the worker's media upload endpoint (worker/upload/api.ts): listing, single puts and
 * multipart uploads over HTTP with the bearer token. The same client talks to `wrangler dev`
 * (local) and to the deployed worker (remote).
 */
import { createReadStream } from "node:fs";
import { MULTIPART_PART_BYTES } from "../../shared/deploy/media-keys";
import type { RemoteObject } from "../../shared/deploy/plan";

export class EndpointError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface MediaEndpoint {
  baseURL: string;
  token: string;
}

async function call(
  endpoint: MediaEndpoint,
  method: string,
  path: string,
  init: { body?: BodyInit; headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const response = await fetch(new URL(path, endpoint.baseURL), {
    method,
    body: init.body,
    headers: { Authorization: `Bearer ${endpoint.token}`, ...init.headers },
    signal: init.signal,
    // Node's fetch needs this for a streamed request body.
    ...(init.body && typeof init.body === "object" && "pipe" in init.body ? { duplex: "half" } : {}),
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = await response.json<{ error?: { code?: string; message?: string } }>();
      if (body.error) message = `${response.status} ${body.error.code}: ${body.error.message}`;
    } catch {
      // not JSON: the status says enough
    }
    throw new EndpointError(`${method} ${path}: ${message}`, response.status);
  }
  return response;
}

interface ObjectPage {
  objects: Array<{ key: string; size: number; md5: string | null }>;
  cursor: string | null;
}

/** Every object under `prefix` with its size and MD5. */
export async function listObjects(endpoint: MediaEndpoint, prefix = ""): Promise<Map<string, RemoteObject>> {
  const objects = new Map<string, RemoteObject>();
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ prefix, ...(cursor ? { cursor } : {}) });
    const page: ObjectPage = await (await call(endpoint, "GET", `/api/media/objects?${query}`)).json<ObjectPage>();
    for (const o of page.objects) objects.set(o.key, { size: o.size, md5: o.md5 });
    cursor = page.cursor;
  } while (cursor);
  return objects;
}

const objectPath = (key: string) => `/api/media/objects/${key}`;
const uploadPath = (key: string) => `/api/media/uploads/${key}`;

/** Uploads one file in one request; `onBytes` is told of bytes as they are read. */
export async function putObject(
  endpoint: MediaEndpoint,
  upload: { key: string; file: string; size: number; md5: string },
  onBytes: (n: number) => void = () => {},
  signal?: AbortSignal,
): Promise<void> {
  const stream = createReadStream(upload.file);
  stream.on("data", (chunk) => onBytes(chunk.length));
  await call(endpoint, "PUT", objectPath(upload.key), {
    body: stream as unknown as BodyInit,
    headers: { "Content-Length": String(upload.size), "X-Content-MD5": upload.md5 },
    signal,
  });
}

/** A multipart upload in progress, as recorded in the resume state. */
export interface PartState {
  uploadId: string;
  md5: string;
  size: number;
  parts: Array<{ partNumber: number; etag: string }>;
}

/**
 * Uploads a large file in parts. `state` (when given) is the saved progress of an interrupted
 * upload of the same bytes: its finished parts are not sent again. `save` is called after each part.
 */
export async function putMultipart(
  endpoint: MediaEndpoint,
  upload: { key: string; file: string; size: number; md5: string },
  state: PartState | undefined,
  save: (state: PartState | undefined) => Promise<void>,
  onBytes: (n: number) => void = () => {},
  signal?: AbortSignal,
): Promise<void> {
  let current = state && state.md5 === upload.md5 && state.size === upload.size ? state : undefined;
  if (!current) {
    const query = new URLSearchParams({ size: String(upload.size), md5: upload.md5 });
    const { uploadId } = await (await call(endpoint, "POST", `${uploadPath(upload.key)}?${query}`, { signal })).json<{ uploadId: string }>();
    current = { uploadId, md5: upload.md5, size: upload.size, parts: [] };
    await save(current);
  }
  const count = Math.ceil(upload.size / MULTIPART_PART_BYTES);
  for (let partNumber = 1; partNumber <= count; partNumber++) {
    const start = (partNumber - 1) * MULTIPART_PART_BYTES;
    const end = Math.min(upload.size, start + MULTIPART_PART_BYTES);
    if (current.parts.some((p) => p.partNumber === partNumber)) {
      onBytes(end - start);
      continue;
    }
    const stream = createReadStream(upload.file, { start, end: end - 1 });
    stream.on("data", (chunk) => onBytes(chunk.length));
    const query = new URLSearchParams({ uploadId: current.uploadId, part: String(partNumber) });
    const response = await call(endpoint, "PUT", `${uploadPath(upload.key)}?${query}`, {
      body: stream as unknown as BodyInit,
      headers: { "Content-Length": String(end - start) },
      signal,
    });
    const part = await response.json<{ partNumber: number; etag: string }>();
    current.parts.push({ partNumber: part.partNumber, etag: part.etag });
    await save(current);
  }
  const parts = [...current.parts].sort((a, b) => a.partNumber - b.partNumber);
  const body = JSON.stringify({ parts });
  await call(endpoint, "POST", `${uploadPath(upload.key)}?${new URLSearchParams({ uploadId: current.uploadId, complete: "" })}`, {
    body,
    headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
    signal,
  });
  await save(undefined);
}
