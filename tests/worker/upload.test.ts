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

  it("stores a media key with its contract type and lists it with size and MD5", async () => {
    const bytes = body(5000);
    const res = await put("stream/7/360p-0123abcd-00000.m4s", bytes);
    expect(res.status).toBe(201);
    const object = await env.MEDIA.get("stream/7/360p-0123abcd-00000.m4s");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    expect(object!.httpMetadata?.contentType).toBe("video/mp4");
    const list = await (await call("/api/media/objects?prefix=stream/7/")).json<{ objects: unknown[]; cursor: null }>();
    expect(list).toEqual({ objects: [{ key: "stream/7/360p-0123abcd-00000.m4s", size: 5000, md5: await md5Hex(bytes) }], cursor: null });
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

  it("uploads a large file in parts: start, parts, complete; the listing reports the whole file's MD5", async () => {
    const whole = body(MULTIPART_PART_BYTES + 1000, 3);
    const md5 = await md5Hex(whole);
    const start = await call(`/api/media/uploads/12.mp4?size=${whole.length}&md5=${md5}`, { method: "POST" });
    expect(start.status).toBe(201);
    const { uploadId } = await start.json<{ uploadId: string }>();
    const parts = [];
    for (const [i, slice] of [whole.slice(0, MULTIPART_PART_BYTES), whole.slice(MULTIPART_PART_BYTES)].entries()) {
      const res = await call(`/api/media/uploads/12.mp4?uploadId=${encodeURIComponent(uploadId)}&part=${i + 1}`, { method: "PUT", body: slice });
      expect(res.status).toBe(201);
      parts.push(await res.json());
    }
    // Nothing is visible before the upload completes.
    expect(await allKeys()).toEqual([]);
    const done = await call(`/api/media/uploads/12.mp4?uploadId=${encodeURIComponent(uploadId)}&complete`, {
      method: "POST",
      body: JSON.stringify({ parts }),
      headers: { "Content-Type": "application/json" },
    });
    expect(done.status).toBe(201);
    const list = await (await call("/api/media/objects?prefix=12.")).json<{ objects: Array<{ key: string; size: number; md5: string }> }>();
    expect(list.objects).toEqual([{ key: "12.mp4", size: whole.length, md5 }]);
  });

  it("refuses a part larger than the part size with 413", async () => {
    const start = await call(`/api/media/uploads/13.mp4?size=100&md5=${"0".repeat(32)}`, { method: "POST" });
    const { uploadId } = await start.json<{ uploadId: string }>();
    const res = await call(`/api/media/uploads/13.mp4?uploadId=${uploadId}&part=1`, { method: "PUT", body: body(MULTIPART_PART_BYTES + 1) });
    expect(res.status).toBe(413);
  });
});
