// Stream files through the whole worker inside workerd: errors (bad names, missing objects, R2
// outages, other methods) and the CORS and security headers.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { streamKey, streamNames, streamPath } from "../../shared/stream/contract";
import { V, SEGMENT, content, bucketSpy, fetchPath, storeStreamFiles } from "./helpers/stream-files";

storeStreamFiles();

describe("stream files: errors", () => {
  // Why: keys come only from the strict parse; anything else is a 404 that never reaches R2.
  it.each([
    "/stream/1/MASTER.m3u8",
    "/stream/1/master.M3U8",
    "/stream/01/master.m3u8",
    "/stream/0/master.m3u8",
    "/stream/1234567/master.m3u8",
    "/stream/a/master.m3u8",
    "/stream/1/master.m3u8/",
    "/stream/1/x/master.m3u8",
    "/stream/1/..%2f2/master.m3u8",
    "/stream/1%2fmaster.m3u8",
    "/stream/1/%2e%2e%2fmaster.m3u8",
    "/stream/1/master%2em3u8",
    "/stream/1/master.m3u8%00",
    "/stream/1/360p-0123ABCD-00001.m4s",
    "/stream/1/360p-0123abcd-1.m4s",
    "/stream/1/36p.m3u8",
    "/stream/1/sb-0123abcd-1000.jpg",
    "/stream/1/subtitles-fr.vtt",
    "/stream/1/",
    "/stream/1",
    "/stream/",
    "/stream",
  ])("odd path %s → 404 text/plain no-store, no R2 call", async (path) => {
    const spy = bucketSpy();
    const r = await fetchPath(path, undefined, spy.bucket);
    expect(r.res.status).toBe(404);
    expect(r.res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(r.res.headers.get("Cache-Control")).toBe("no-store");
    expect(new TextDecoder().decode(r.body)).toBe("未找到");
    expect(spy.calls).toEqual([]);
  });

  // Why: a file that appears later (an upload in progress) must be served at once, so a 404 is not cached.
  it("missing object → 404 no-store, not cached: once uploaded it is served", async () => {
    const name = streamNames.segment(360, V, 99);
    const missing = await fetchPath(streamPath(11, name));
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get("Cache-Control")).toBe("no-store");
    await env.MEDIA.put(streamKey(11, name), content(50));
    const found = await fetchPath(streamPath(11, name));
    expect(found.res.status).toBe(200);
    expect(found.res.headers.get("X-Cache")).toBe("MISS");
    expect(found.body).toEqual(content(50));
  });

  // Why: an R2 outage must give a clear, retryable, uncached error — and playback resumes when R2 does.
  it("R2 throwing → 503 no-store with Retry-After, logged, not cached; next request after recovery → 200", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const spy = bucketSpy();
    spy.fail(true);
    for (const init of [undefined, { headers: { Range: "bytes=0-9" } }, { method: "HEAD" }] as RequestInit[]) {
      const down = await fetchPath(streamPath(8, SEGMENT), init, spy.bucket);
      expect(down.res.status).toBe(503);
      expect(down.res.headers.get("Cache-Control")).toBe("no-store");
      expect(down.res.headers.get("Retry-After")).toBe("30");
      expect(down.res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
      if (init?.method !== "HEAD") expect(new TextDecoder().decode(down.body)).toBe("媒体服务暂时不可用，请稍后重试");
    }
    expect(logged).toHaveBeenCalled();
    spy.fail(false);
    const up = await fetchPath(streamPath(8, SEGMENT), undefined, spy.bucket);
    expect(up.res.status).toBe(200);
    expect(up.res.headers.get("X-Cache")).toBe("MISS");
    expect(up.body).toEqual(content(1000, 8));
  });

  // Why: only GET, HEAD and OPTIONS exist here; clients learn that from Allow.
  it("other methods → 405 with Allow, no R2 call", async () => {
    const spy = bucketSpy();
    for (const method of ["POST", "PUT", "DELETE"]) {
      const r = await fetchPath(streamPath(2, SEGMENT), { method }, spy.bucket);
      expect(r.res.status, method).toBe(405);
      expect(r.res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    }
    expect(spy.calls).toEqual([]);
  });
});

describe("stream files: CORS and security headers", () => {
  // Why: apps and embeds on other origins play the streams: they need CORS and CORP cross-origin.
  it("GET carries CORS headers, CORP cross-origin and the other security headers", async () => {
    const { res } = await fetchPath(streamPath(1, streamNames.master), { headers: { Origin: "https://app.example" } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const exposed = (res.headers.get("Access-Control-Expose-Headers") ?? "").split(",").map((h) => h.trim());
    expect(exposed).toEqual(expect.arrayContaining(["Content-Length", "Content-Range", "Accept-Ranges", "ETag"]));
    expect(res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
    expect(res.headers.get("Strict-Transport-Security")).toContain("max-age=");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });

  // Why: the 206 of a cross-origin seek must also be readable (CORS on every answer, not only on 200).
  it("a cached 206 carries CORS too", async () => {
    const { res } = await fetchPath(streamPath(2, SEGMENT), { headers: { Range: "bytes=0-9", Origin: "https://app.example" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
  });

  // Why: browsers preflight ranged cross-origin requests; the answer must allow Range and not touch R2.
  it("OPTIONS preflight → 204 with methods, headers and max-age, no R2 call", async () => {
    const spy = bucketSpy();
    const { res, body } = await fetchPath(
      streamPath(2, SEGMENT),
      {
        method: "OPTIONS",
        headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range" },
      },
      spy.bucket,
    );
    expect(res.status).toBe(204);
    expect(body.length).toBe(0);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Methods")).toBe("GET,HEAD,OPTIONS");
    const allowed = (res.headers.get("Access-Control-Allow-Headers") ?? "").toLowerCase().split(",");
    expect(allowed).toEqual(expect.arrayContaining(["range", "if-none-match", "if-modified-since", "if-range"]));
    expect(res.headers.get("Access-Control-Max-Age")).toBe("86400");
    expect(spy.calls).toEqual([]);
  });

  // Why: the cross-origin exception is for /stream/ and the progressive MP4 (投屏 receivers fetch it: decision 0105) only; pages and covers stay same-origin.
  it("pages and /N.webp keep CORP same-origin and no CORS", async () => {
    for (const path of ["/info/about", "/1.webp"]) {
      const { res } = await fetchPath(path);
      expect(res.headers.get("Cross-Origin-Resource-Policy"), path).toBe("same-origin");
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBeNull();
    }
  });
});
