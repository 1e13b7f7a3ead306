// Oversized and malformed input against the real worker (inside workerd): a clear 4xx with a
// message, never a 5xx. What reaches the worker is checked by worker/limits.ts (URL, headers)
// and worker/auth/body.ts (bodies on /api/auth/*).
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index";
import { MAX_HEADER_BYTES, MAX_URL_BYTES } from "../../worker/limits";
import { uniqueIp } from "./helpers/unique";
import { BASE } from "./helpers/visitor";

const CHINESE = /[\u4e00-\u9fff]/;

/** Through the runtime (SELF), like a visitor. */
function send(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", uniqueIp());
  return SELF.fetch(BASE + path, { redirect: "manual", ...init, headers });
}

/** Straight into the app (no runtime limits in between). */
async function direct(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function expectClear4xx(res: Response, status: number | number[]) {
  const allowed = Array.isArray(status) ? status : [status];
  expect(allowed).toContain(res.status);
  const text = await res.text();
  expect(text).toMatch(CHINESE);
  return text;
}

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  expect(res.headers.get("Content-Type")).toContain("application/json");
  const body = await res.json<{ error: { code: string; message: string } }>();
  expect(body.error.message).toMatch(CHINESE);
  return body.error;
}

describe("URLs over 16 KB", () => {
  const longPath = "/search?q=" + "a".repeat(MAX_URL_BYTES + 100);

  it("a page URL over 16 KB → 414 with a Chinese message, no-store", async () => {
    const res = await send(longPath);
    expect(res.status).toBe(414);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await expectClear4xx(res, 414)).toContain("网址过长");
  });

  it("long paths, long percent-encoded paths and long API URLs → 414", async () => {
    for (const path of ["/video/" + "x".repeat(MAX_URL_BYTES), "/category/" + "%E7%94%B5".repeat(2000), "/" + "/".repeat(MAX_URL_BYTES)]) {
      await expectClear4xx(await send(path), 414);
    }
    const api = await send("/api/auth/user?x=" + "y".repeat(MAX_URL_BYTES));
    expect(api.status).toBe(414);
    expect((await errorOf(api)).code).toBe("uri_too_long");
    const post = await send("/api/auth/sign-in?x=" + "y".repeat(MAX_URL_BYTES), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", password: "secret-pass-1" }),
    });
    expect(post.status).toBe(414);
  });

  it("a URL just under the limit is served normally", async () => {
    const res = await send("/search?q=" + "a".repeat(MAX_URL_BYTES - 200));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("</html>");
  });
});

describe("request headers over 128 KB", () => {
  it("one huge Cookie header → 431 with a message (through the runtime)", async () => {
    const res = await send("/", { headers: { Cookie: "junk=" + "c".repeat(MAX_HEADER_BYTES) } });
    expect(await expectClear4xx(res, 431)).toContain("请求头过大");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("many headers adding up to more than 128 KB → 431 (pages, API, media)", async () => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 40; i++) headers[`X-Filler-${i}`] = "f".repeat(4000);
    for (const path of ["/", "/video/video_001", "/1.mp4"]) {
      const res = await send(path, { headers });
      await expectClear4xx(res, 431);
    }
    const api = await send("/api/auth/user", { headers });
    expect(api.status).toBe(431);
    expect((await errorOf(api)).code).toBe("headers_too_large");
  });

  it("the check itself, straight into the app", async () => {
    const res = await direct(new Request(BASE + "/", { headers: { "X-Big": "b".repeat(MAX_HEADER_BYTES + 10) } }));
    expect(res.status).toBe(431);
    const ok = await direct(new Request(BASE + "/", { headers: { Cookie: "junk=" + "c".repeat(64 * 1024) } }));
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it("a session cookie of 100 KB garbage is only a broken session (not a 5xx)", async () => {
    const res = await send("/", { headers: { Cookie: "yingshi-auth=" + "z".repeat(100 * 1024) } });
    expect(res.status).toBe(200);
    await res.text();
    const user = await send("/api/auth/user", { headers: { Cookie: "yingshi-auth=base64-" + "z".repeat(100 * 1024) } });
    expect(user.status).toBeLessThan(500);
    await user.text();
  });
});

describe("bodies on /api/auth/*", () => {
  const big = JSON.stringify({ email: "big@example.com", password: "p".repeat(17 * 1024) });

  it("JSON over 16 KB → 413 (declared length and streamed without one)", async () => {
    const declared = await send("/api/auth/sign-in", { method: "POST", headers: { "Content-Type": "application/json" }, body: big });
    expect(declared.status).toBe(413);
    expect(await errorOf(declared)).toEqual({ code: "payload_too_large", message: "请求内容过大" });

    // A stream has no Content-Length: the reader stops at 16 KB.
    const chunks = [
      new TextEncoder().encode('{"email":"s@example.com","password":"'),
      new TextEncoder().encode("p".repeat(20 * 1024)),
      new TextEncoder().encode('"}'),
    ];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await direct(
      new Request(BASE + "/api/auth/sign-in", {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);

    for (const path of ["/api/auth/sign-up", "/api/auth/user"]) {
      const res = await send(path, { method: path.endsWith("user") ? "PUT" : "POST", headers: { "Content-Type": "application/json" }, body: big });
      expect(res.status).toBe(413);
      await res.text();
    }
    const form = await send("/api/auth/sign-in", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a&password=" + "p".repeat(17 * 1024),
    });
    expect(form.status).toBe(413);
  });

  it("a body of exactly 16 KB is read (and judged on its content)", async () => {
    const prefix = '{"email":"","password":"';
    const body = prefix + "p".repeat(16 * 1024 - prefix.length - 2) + '"}';
    expect(new TextEncoder().encode(body).byteLength).toBe(16 * 1024);
    const res = await send("/api/auth/sign-in", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("validation_failed");
  });

  it("wrong content types → 415 with a message", async () => {
    const body = JSON.stringify({ email: "a@example.com", password: "secret-pass-1" });
    for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml", "application/jsonp", "", "application/json-patch+json"]) {
      const headers: Record<string, string> = type ? { "Content-Type": type } : {};
      const res = await send("/api/auth/sign-in", { method: "POST", headers, body: type ? body : new Blob([body]) });
      expect(res.status, type).toBe(415);
      expect(await errorOf(res)).toEqual({ code: "unsupported_media_type", message: "请求格式不受支持" });
    }
  });

  it("invalid UTF-8, malformed JSON and non-object JSON → 400 with a message", async () => {
    const invalidUtf8 = [
      new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"e":"\xff\xfe"}
      new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xe7, 0x94, 0x22, 0x7d]), // truncated 电
      new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // encoded surrogate
      new Uint8Array([0xc0, 0xaf]), // overlong "/"
    ];
    for (const bytes of invalidUtf8) {
      const res = await send("/api/auth/sign-in", { method: "POST", headers: { "Content-Type": "application/json" }, body: bytes });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("bad_json");
      const form = await send("/api/auth/sign-up", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: bytes });
      expect(form.status).toBe(400);
      await form.text();
    }
    for (const body of ["{", "not json", "[]", "null", '"text"', "42", "", '{"email":']) {
      const res = await send("/api/auth/sign-in", { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(res.status, body).toBe(400);
      expect((await errorOf(res)).code).toBe("bad_json");
    }
  });

  it("odd but well-formed values never reach a 5xx", async () => {
    const bodies = [
      { email: 42, password: ["x"] },
      { email: "a@example.com", password: { toString: "x" } },
      { email: "\u0000@example.com", password: "\ud800\udc00secret" },
      { email: "a".repeat(5000) + "@example.com", password: "secret-pass-1" },
      { __proto__: { admin: true }, email: "p@example.com", password: "secret-pass-1" },
    ];
    for (const body of bodies) {
      const res = await send("/api/auth/sign-in", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      await res.text();
    }
  });
});

describe("other methods and odd requests", () => {
  it("bodies on pages and media are ignored or refused with a 4xx", async () => {
    const post = await send("/", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x".repeat(64 * 1024) });
    expect(post.status).toBe(405);
    expect(await post.text()).toMatch(CHINESE);
    const put = await send("/1.mp4", { method: "PUT", body: "x" });
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.status).toBeLessThan(500);
    await put.text();
  });
});
