/**
 * Client of the worker's media upload endpoint (worker/upload/api.ts): listing, single puts and
 * multipart uploads over HTTP with the bearer token. The same client talks to `wrangler dev`
 * (local) and to the deployed worker (remote).
 */
import { createReadStream } from "node:fs";
import { partCount } from "../../shared/deploy/checksum";
import { MULTIPART_PART_BYTES } from "../../shared/deploy/media-keys";
import type { RemoteObject } from "./plan";
import { partMd5 } from "./local-media";

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
  objects: Array<{ key: string; size: number; checksum: string | null }>;
  cursor: string | null;
}

/** Every object under `prefix` with its size and verified checksum (shared/deploy/checksum.ts). */
export async function listObjects(endpoint: MediaEndpoint, prefix = ""): Promise<Map<string, RemoteObject>> {
  const objects = new Map<string, RemoteObject>();
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ prefix, ...(cursor ? { cursor } : {}) });
    const page: ObjectPage = await (await call(endpoint, "GET", `/api/media/objects?${query}`)).json<ObjectPage>();
    for (const o of page.objects) objects.set(o.key, { size: o.size, checksum: o.checksum });
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

/** A part the endpoint verified: its receipt is needed to complete the upload. */
export interface VerifiedPart {
  partNumber: number;
  etag: string;
  size: number;
  md5: string;
  receipt: string;
}

/** A multipart upload in progress, as recorded in the resume state. */
export interface PartState {
  uploadId: string;
  /** The multipart checksum of the file being sent (the state of another file's bytes is not resumed). */
  checksum: string;
  size: number;
  parts: VerifiedPart[];
}

/**
 * Uploads a large file in parts, each with its MD5; completing names the file's size and multipart
 * checksum, which the endpoint checks against the parts before the object replaces anything.
 * `state` (when given) is the saved progress of an interrupted upload of the same bytes: its
 * finished parts are not sent again. `save` is called after each part. A refused request (4xx)
 * drops the state: the endpoint has aborted the upload (or it no longer exists), so the next
 * attempt starts anew; an upload that expired between runs is started again at once.
 */
export async function putMultipart(
  endpoint: MediaEndpoint,
  upload: { key: string; file: string; size: number; checksum: string },
  state: PartState | undefined,
  save: (state: PartState | undefined) => Promise<void>,
  onBytes: (n: number) => void = () => {},
  signal?: AbortSignal,
): Promise<void> {
  const resumable = state && state.checksum === upload.checksum && state.size === upload.size && Array.isArray(state.parts) ? state : undefined;
  try {
    await sendParts(endpoint, upload, resumable, save, onBytes, signal);
  } catch (error) {
    if (!(error instanceof EndpointError) || error.status >= 500) throw error;
    await save(undefined);
    if (!resumable || error.status !== 404) throw error;
    await sendParts(endpoint, upload, undefined, save, onBytes, signal);
  }
}

async function sendParts(
  endpoint: MediaEndpoint,
  upload: { key: string; file: string; size: number; checksum: string },
  state: PartState | undefined,
  save: (state: PartState | undefined) => Promise<void>,
  onBytes: (n: number) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  let current = state;
  if (!current) {
    const query = new URLSearchParams({ size: String(upload.size) });
    const { uploadId } = await (await call(endpoint, "POST", `${uploadPath(upload.key)}?${query}`, { signal })).json<{ uploadId: string }>();
    current = { uploadId, checksum: upload.checksum, size: upload.size, parts: [] };
    await save(current);
  }
  const count = partCount(upload.size);
  for (let partNumber = 1; partNumber <= count; partNumber++) {
    const start = (partNumber - 1) * MULTIPART_PART_BYTES;
    const end = Math.min(upload.size, start + MULTIPART_PART_BYTES);
    if (current.parts.some((p) => p.partNumber === partNumber)) {
      onBytes(end - start);
      continue;
    }
    const md5 = await partMd5(upload.file, upload.size, partNumber);
    const stream = createReadStream(upload.file, { start, end: end - 1 });
    stream.on("data", (chunk) => onBytes(chunk.length));
    const query = new URLSearchParams({ uploadId: current.uploadId, part: String(partNumber) });
    const response = await call(endpoint, "PUT", `${uploadPath(upload.key)}?${query}`, {
      body: stream as unknown as BodyInit,
      headers: { "Content-Length": String(end - start), "X-Content-MD5": md5 },
      signal,
    });
    current.parts.push(await response.json<VerifiedPart>());
    await save(current);
  }
  const parts = [...current.parts].sort((a, b) => a.partNumber - b.partNumber);
  const body = JSON.stringify({ size: upload.size, checksum: upload.checksum, parts });
  await call(endpoint, "POST", `${uploadPath(upload.key)}?${new URLSearchParams({ uploadId: current.uploadId, complete: "" })}`, {
    body,
    headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
    signal,
  });
  await save(undefined);
}
