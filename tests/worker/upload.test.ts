import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import app from "../../worker/index";
import { MULTIPART_PART_BYTES } from "../../shared/deploy/media-keys";

/**
 * The media upload endpoint (worker/upload/api.ts) through the whole worker with the real local
 * R2 bucket: off without its secret, the token compared, only media keys of bounded size, and a
 * refused request writes nothing.
 */
const ORIGIN = "https://upload.test";
const TOKEN = "t".repeat(40);
const withToken: Env = { ...env, MEDIA_UPLOAD_TOKEN: TOKEN };

async function call(path: string, init: RequestInit = {}, bindings: Env = withToken, token: string | null = TOKEN): Promise<Response> {
  const headers = new Headers(init.headers);
  // As over HTTP: a body's length is declared (a Request built here carries none by itself).
  if (init.body instanceof Uint8Array) headers.set("Content-Length", String(init.body.byteLength));
  if (typeof init.body === "string") headers.set("Content-Length", String(new TextEncoder().encode(init.body).byteLength));
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(ORIGIN + path, { ...init, headers }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

async function md5Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("MD5", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const body = (size: number, seed = 1): Uint8Array<ArrayBuffer> => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256);

async function put(key: string, bytes: Uint8Array<ArrayBuffer>, extra: Record<string, string> = {}, token: string | null = TOKEN, bindings = withToken) {
  return call(`/api/media/objects/${key}`, { method: "PUT", body: bytes, headers: { "X-Content-MD5": await md5Hex(bytes), ...extra } }, bindings, token);
}

/** A large body fast: a 251-byte pattern (never aligned with a part) doubled into place. */
function bigBody(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(body(Math.min(size, 251), seed));
  for (let filled = Math.min(size, 251); filled < size; filled *= 2) bytes.copyWithin(filled, 0, Math.min(filled, size - filled));
  return bytes;
}

interface SentPart {
  partNumber: number;
  etag: string;
  size: number;
  md5: string;
  receipt: string;
}

async function startUpload(key: string, size: number): Promise<string> {
  const res = await call(`/api/media/uploads/${key}?size=${size}`, { method: "POST" });
  expect(res.status).toBe(201);
  return (await res.json<{ uploadId: string }>()).uploadId;
}

async function sendPart(key: string, uploadId: string, partNumber: number, bytes: Uint8Array<ArrayBuffer>, md5?: string): Promise<Response> {
  const query = new URLSearchParams({ uploadId, part: String(partNumber) });
  return call(`/api/media/uploads/${key}?${query}`, { method: "PUT", body: bytes, headers: { "X-Content-MD5": md5 ?? (await md5Hex(bytes)) } });
}

async function complete(key: string, uploadId: string, declared: { size: number; checksum: string; parts: SentPart[] }): Promise<Response> {
  return call(`/api/media/uploads/${key}?${new URLSearchParams({ uploadId, complete: "" })}`, {
    method: "POST",
    body: JSON.stringify(declared),
    headers: { "Content-Type": "application/json" },
  });
}

/** R2's multipart ETag of these parts: the MD5 of their binary MD5s, `-`, their count. */
async function multipartChecksumOf(parts: Uint8Array<ArrayBuffer>[]): Promise<string> {
  const digests = await Promise.all(parts.map((p) => crypto.subtle.digest("MD5", p)));
  const joined = new Uint8Array(digests.length * 16);
  digests.forEach((d, i) => joined.set(new Uint8Array(d), i * 16));
  return `${await md5Hex(joined)}-${parts.length}`;
}

const CHUNK = 64 * 1024;

/** A body of `total` bytes handed out a chunk at a time, on demand, counting what the worker pulled. */
function countedBody(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) return controller.close();
        const n = Math.min(CHUNK, total - pulled);
        pulled += n;
        controller.enqueue(new Uint8Array(n).fill(7));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

async function allKeys(): Promise<string[]> {
  return (await env.MEDIA.list()).objects.map((o) => o.key);
}

afterEach(async () => {
  const keys = await allKeys();
  if (keys.length > 0) await env.MEDIA.delete(keys);
});

describe("media upload endpoint", () => {
  it("does not exist without MEDIA_UPLOAD_TOKEN: 404 and nothing written", async () => {
    const res = await put("7.mp4", body(100), {}, TOKEN, env);
    expect(res.status).toBe(404);
    expect(await allKeys()).toEqual([]);
  });

  it("stores a media key with its contract type and lists it with size and MD5 (its checksum)", async () => {
    const bytes = body(5000);
    const res = await put("stream/7/360p-0123abcd-00000.m4s", bytes);
    expect(res.status).toBe(201);
    const object = await env.MEDIA.get("stream/7/360p-0123abcd-00000.m4s");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    expect(object!.httpMetadata?.contentType).toBe("video/mp4");
    const list = await (await call("/api/media/objects?prefix=stream/7/")).json<{ objects: unknown[]; cursor: null }>();
    expect(list).toEqual({ objects: [{ key: "stream/7/360p-0123abcd-00000.m4s", size: 5000, checksum: await md5Hex(bytes) }], cursor: null });
    // The stored file is what the site serves.
    const served = await call("/stream/7/360p-0123abcd-00000.m4s", {}, withToken, null);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
  });

  it.each([
    ["no token", null],
    ["a wrong token", "x".repeat(40)],
    ["the token with one character changed", TOKEN.slice(0, -1) + "u"],
    ["a prefix of the token", TOKEN.slice(0, 10)],
  ])("refuses %s with 401 and writes nothing", async (_name, token) => {
    const res = await put("8.mp4", body(100), {}, token);
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    const list = await call("/api/media/objects", {}, withToken, token);
    expect(list.status).toBe(401);
    expect(await allKeys()).toEqual([]);
  });

  it.each([
    "8.txt",
    "stream/8/%2e%2e%2fmaster.m3u8",
    "stream%2F8%2Fmaster.m3u8",
    "stream/8/evil.m3u8",
    "stream/08/master.m3u8",
    "stream/8/master.m3u8/x",
    "catalogue.json",
    "stream/8/MASTER.m3u8",
    "08.mp4",
  ])("refuses the key %s with 400 and writes nothing", async (key) => {
    const res = await put(key, body(10));
    expect(res.status).toBe(400);
    expect(await allKeys()).toEqual([]);
  });

  it("refuses sizes over the kind's bound with 413 before reading, and writes nothing", async () => {
    // A master playlist is at most 1 MiB.
    const res = await put("stream/9/master.m3u8", body(1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(await allKeys()).toEqual([]);
  });

  it("refuses a body whose MD5 does not match (400), keeping the object that was there", async () => {
    const first = body(300, 1);
    expect((await put("9.webp", first)).status).toBe(201);
    const res = await call("/api/media/objects/9.webp", { method: "PUT", body: body(300, 2), headers: { "X-Content-MD5": await md5Hex(first) } });
    expect(res.status).toBe(400);
    const kept = await env.MEDIA.get("9.webp");
    expect(new Uint8Array(await kept!.arrayBuffer())).toEqual(first);
  });

  it("refuses a missing or malformed MD5 with 400", async () => {
    const res = await call("/api/media/objects/9.mp4", { method: "PUT", body: body(10), headers: { "X-Content-MD5": "abc" } });
    expect(res.status).toBe(400);
    expect(await allKeys()).toEqual([]);
  });

  it("uploads a large file in parts: start, parts with their MD5s, complete; the listing reports the multipart checksum", async () => {
    const whole = bigBody(MULTIPART_PART_BYTES + 1000, 3);
    const slices = [whole.slice(0, MULTIPART_PART_BYTES), whole.slice(MULTIPART_PART_BYTES)];
    const uploadId = await startUpload("12.mp4", whole.length);
    const parts: SentPart[] = [];
    for (const [i, slice] of slices.entries()) {
      const res = await sendPart("12.mp4", uploadId, i + 1, slice);
      expect(res.status).toBe(201);
      parts.push(await res.json<SentPart>());
    }
    // Nothing is visible before the upload completes.
    expect(await allKeys()).toEqual([]);
    const checksum = await multipartChecksumOf(slices);
    const done = await complete("12.mp4", uploadId, { size: whole.length, checksum, parts });
    expect(done.status).toBe(201);
    const list = await (await call("/api/media/objects?prefix=12.")).json<{ objects: Array<{ key: string; size: number; checksum: string }> }>();
    expect(list.objects).toEqual([{ key: "12.mp4", size: whole.length, checksum }]);
    const served = await env.MEDIA.get("12.mp4");
    expect(await md5Hex(new Uint8Array(await served!.arrayBuffer()))).toBe(await md5Hex(whole));
  });

  it("refuses a part larger than the part size with 413", async () => {
    const uploadId = await startUpload("13.mp4", 100);
    const res = await sendPart("13.mp4", uploadId, 1, bigBody(MULTIPART_PART_BYTES + 1));
    expect(res.status).toBe(413);
  });
});

describe("a refused upload never replaces the object that is there", () => {
  const GOOD = body(4000, 9);

  /** The good object under `key`, in the bucket, in the listing and as the site serves it. */
  async function expectGood(key: string): Promise<void> {
    const kept = await env.MEDIA.get(key);
    expect(kept && new Uint8Array(await kept.arrayBuffer())).toEqual(GOOD);
    const list = await (await call(`/api/media/objects?prefix=${key}`)).json<{ objects: unknown[] }>();
    expect(list.objects).toEqual([{ key, size: GOOD.length, checksum: await md5Hex(GOOD) }]);
    const served = await call(`/${key}`, {}, withToken, null);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(GOOD);
  }

  /**
   * A good object under `key`, then a multipart upload of other bytes to it with its part sent:
   * what completing needs. One part (an upload of at most one part size has one, of any size)
   * keeps the test small; the two-part path is the upload test above.
   */
  async function goodThenPart(key: string) {
    expect((await put(key, GOOD)).status).toBe(201);
    const whole = body(3000, 5);
    const uploadId = await startUpload(key, whole.length);
    const sent = await sendPart(key, uploadId, 1, whole);
    expect(sent.status).toBe(201);
    return { uploadId, size: whole.length, parts: [await sent.json<SentPart>()], checksum: await multipartChecksumOf([whole]) };
  }

  const errorCode = async (res: Response) => (await res.json<{ error: { code: string } }>()).error.code;

  it("a multipart upload whose parts do not add up to the declared size fails, and the good object stays", async () => {
    const { uploadId, size, parts, checksum } = await goodThenPart("20.mp4");
    const res = await complete("20.mp4", uploadId, { size: size + 1000, checksum, parts });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("bad_size");
    await expectGood("20.mp4");
    // Nor does a list that leaves a part out; the refused upload was aborted, its parts dropped.
    const again = await goodThenPart("21.mp4");
    expect(await errorCode(await complete("21.mp4", again.uploadId, { ...again, size: MULTIPART_PART_BYTES + again.size }))).toBe("bad_size");
    expect((await complete("21.mp4", again.uploadId, again)).status).toBe(404);
    await expectGood("21.mp4");
  });

  it("a multipart upload whose declared checksum is not its parts' fails, and the good object stays", async () => {
    const { uploadId, size, parts } = await goodThenPart("22.mp4");
    const res = await complete("22.mp4", uploadId, { size, checksum: await multipartChecksumOf([body(3000, 6)]), parts });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("bad_checksum");
    await expectGood("22.mp4");
  });

  it("a part list whose MD5s are not the ones the worker verified fails, and the good object stays", async () => {
    const { uploadId, size, parts } = await goodThenPart("23.mp4");
    // The client claims another part MD5 (and its multipart checksum): the receipt does not cover it.
    const other = body(3000, 6);
    const claimed = [{ ...parts[0], md5: await md5Hex(other) }];
    const res = await complete("23.mp4", uploadId, { size, checksum: await multipartChecksumOf([other]), parts: claimed });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("bad_parts");
    await expectGood("23.mp4");
  });

  it("a single put whose bytes are not its declared MD5 fails, and the good object stays", async () => {
    expect((await put("24.mp4", GOOD)).status).toBe(201);
    const res = await call("/api/media/objects/24.mp4", { method: "PUT", body: body(4000, 10), headers: { "X-Content-MD5": await md5Hex(GOOD) } });
    expect(res.status).toBe(400);
    await expectGood("24.mp4");
  });

  it("refuses a part whose bytes are not its declared MD5, and aborts its upload", async () => {
    const uploadId = await startUpload("25.mp4", 3000);
    const res = await sendPart("25.mp4", uploadId, 1, body(3000, 7), await md5Hex(body(3000, 8)));
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("bad_md5");
    // The upload is gone: no part can join it again.
    expect((await sendPart("25.mp4", uploadId, 1, body(3000, 7))).status).toBe(404);
    expect(await allKeys()).toEqual([]);
  });
});

describe("abandoned uploads", () => {
  it("are aborted on request: their parts are dropped and no part joins them again", async () => {
    const uploadId = await startUpload("26.mp4", 3000);
    expect((await sendPart("26.mp4", uploadId, 1, body(3000))).status).toBe(201);
    const path = `/api/media/uploads/26.mp4?${new URLSearchParams({ uploadId })}`;
    expect((await call(path, { method: "DELETE" })).status).toBe(204);
    expect((await sendPart("26.mp4", uploadId, 1, body(3000))).status).toBe(404);
    // Aborting again is no error; nothing was ever an object.
    expect((await call(path, { method: "DELETE" })).status).toBe(204);
    expect(await allKeys()).toEqual([]);
  });
});

describe("every upload body is bounded by its declared length", () => {
  const TOTAL = 8 * 1024 * 1024;

  it.each([
    ["a single put", "/api/media/objects/stream/30/master.m3u8", "PUT", { "X-Content-MD5": "0".repeat(32) }],
    ["a part", "/api/media/uploads/30.mp4?uploadId=u&part=1", "PUT", { "X-Content-MD5": "0".repeat(32) }],
    ["completing an upload", "/api/media/uploads/30.mp4?uploadId=u&complete", "POST", { "Content-Type": "application/json" }],
  ])("refuses %s without Content-Length (411) before reading its body", async (_name, path, method, headers) => {
    const { stream, pulled } = countedBody(TOTAL);
    const res = await call(path, { method, body: stream, headers });
    expect(res.status).toBe(411);
    expect((await res.json<{ error: { code: string; message: string } }>()).error).toEqual({ code: "length_required", message: "缺少 Content-Length" });
    expect(pulled()).toBeLessThanOrEqual(CHUNK);
    expect(await allKeys()).toEqual([]);
  });

  it("refuses a single put whose body runs past its Content-Length (400), not reading on, writing nothing", async () => {
    const { stream, pulled } = countedBody(TOTAL);
    const res = await call("/api/media/objects/stream/31/master.m3u8", {
      method: "PUT",
      body: stream,
      headers: { "Content-Length": "1000", "X-Content-MD5": "0".repeat(32) },
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: { code: string } }>()).error.code).toBe("bad_length");
    expect(pulled()).toBeLessThanOrEqual(1000 + 4 * CHUNK);
    expect(await allKeys()).toEqual([]);
  });

  it("refuses a part whose body runs past its Content-Length (400), not reading on", async () => {
    const uploadId = await startUpload("31.mp4", 3000);
    const { stream, pulled } = countedBody(TOTAL);
    const res = await call(`/api/media/uploads/31.mp4?uploadId=${encodeURIComponent(uploadId)}&part=1`, {
      method: "PUT",
      body: stream,
      headers: { "Content-Length": "1000", "X-Content-MD5": "0".repeat(32) },
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: { code: string } }>()).error.code).toBe("bad_length");
    expect(pulled()).toBeLessThanOrEqual(1000 + 4 * CHUNK);
  });

  it("refuses a part list that runs past its Content-Length (400) or over the bound (413), not reading on", async () => {
    const uploadId = await startUpload("32.mp4", 3000);
    const path = `/api/media/uploads/32.mp4?uploadId=${encodeURIComponent(uploadId)}&complete`;
    const longer = countedBody(TOTAL);
    const res = await call(path, { method: "POST", body: longer.stream, headers: { "Content-Length": "1000" } });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: { code: string } }>()).error.code).toBe("bad_length");
    expect(longer.pulled()).toBeLessThanOrEqual(1000 + CHUNK);
    const huge = countedBody(TOTAL);
    const tooLarge = await call(path, { method: "POST", body: huge.stream, headers: { "Content-Length": String(TOTAL) } });
    expect(tooLarge.status).toBe(413);
    expect(huge.pulled()).toBeLessThanOrEqual(CHUNK);
  });
});
