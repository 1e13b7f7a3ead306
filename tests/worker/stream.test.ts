import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { Hono } from "hono";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../worker/app-env";
import app from "../../worker/index";
import { sliceBody } from "../../worker/http/body-slice";
import { serveThroughEdgeCache } from "../../worker/http/cached-files";
import { loadWholeObject } from "../../worker/http/r2-answers";
import { MEDIA_CACHE_CONTROL } from "../../worker/media/serve";
import {
  IMMUTABLE_CACHE_CONTROL,
  isCompressedTextFile,
  isTextFile,
  SHORT_CACHE_CONTROL,
  START_RENDITION_HEIGHT,
  streamKey,
  streamNames,
  streamPath,
  type StreamFileKind,
} from "../../shared/stream/contract";

/** Its own origin: cache entries of other test files never meet these. */
const ORIGIN = "https://stream.test";
const V = "0123abcd";
const SEGMENT = streamNames.segment(360, V, 1);

/** Known bytes: byte i = (i * 7 + seed) mod 251, so slices of different files differ. */
function content(size: number, seed = 0): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) % 251);
}

/** The MEDIA bucket behind a spy that records every R2 call (or throws, like an R2 outage). */
function bucketSpy() {
  const calls: string[] = [];
  let failing = false;
  const record = (op: string) => (key: string, options?: R2GetOptions) => {
    calls.push(`${op} ${key}${options?.range ? ` ${JSON.stringify(options.range)}` : ""}`);
    if (failing) throw new Error("R2 down (test)");
    return op === "head" ? env.MEDIA.head(key) : env.MEDIA.get(key, options);
  };
  const bucket = { head: record("head"), get: record("get") } as unknown as R2Bucket;
  return {
    bucket,
    calls,
    fail(on: boolean) {
      failing = on;
    },
  };
}

interface Fetched {
  res: Response;
  body: Uint8Array;
}

/** One request through the whole worker, waiting for its background work (the cache fill). */
async function fetchPath(path: string, init?: RequestInit, bucket: R2Bucket = env.MEDIA): Promise<Fetched> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(ORIGIN + path, init), { ...env, MEDIA: bucket }, ctx);
  const body = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { res, body };
}

const FILES: [StreamFileKind, string, string, string][] = [
  ["master", streamNames.master, "application/vnd.apple.mpegurl", SHORT_CACHE_CONTROL],
  ["media-playlist", streamNames.mediaPlaylist(720), "application/vnd.apple.mpegurl", SHORT_CACHE_CONTROL],
  ["init", streamNames.init(1080, V), "video/mp4", IMMUTABLE_CACHE_CONTROL],
  ["segment", streamNames.segment(270, V, 0), "video/mp4", IMMUTABLE_CACHE_CONTROL],
  ["subtitle-playlist", streamNames.subtitlePlaylist, "application/vnd.apple.mpegurl", SHORT_CACHE_CONTROL],
  ["subtitles", streamNames.subtitles, "text/vtt; charset=utf-8", SHORT_CACHE_CONTROL],
  ["storyboard", streamNames.storyboard, "text/vtt; charset=utf-8", SHORT_CACHE_CONTROL],
  ["sprite", streamNames.sprite(V, 0), "image/jpeg", IMMUTABLE_CACHE_CONTROL],
];

beforeAll(async () => {
  // Stored with a wrong content type: the worker types files by the contract, not by R2 metadata.
  for (const [i, [, name]] of FILES.entries()) {
    await env.MEDIA.put(streamKey(1, name), content(300 + i, i), { httpMetadata: { contentType: "text/html" } });
  }
  for (const n of [2, 3, 4, 5, 6, 7, 8, 9]) await env.MEDIA.put(streamKey(n, SEGMENT), content(1000, n));
  await env.MEDIA.put(streamKey(10, SEGMENT), new Uint8Array(0));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("stream files: contract types and caching", () => {
  // Why: players pick parsers by Content-Type, and the cache policy (immutable vs short) is the contract.
  it.each(FILES)("%s (%s) → 200 with its type, cache policy, length and validators", async (_kind, name, type, cacheControl) => {
    const { res, body } = await fetchPath(streamPath(1, name));
    const stored = await env.MEDIA.head(streamKey(1, name));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(type);
    expect(res.headers.get("Cache-Control")).toBe(cacheControl);
    expect(res.headers.get("Cache-Control")).toContain("no-transform");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Length")).toBe(String(stored!.size));
    expect(res.headers.get("ETag")).toBe(stored!.httpEtag);
    expect(res.headers.get("Last-Modified")).toBe(stored!.uploaded.toUTCString());
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("Content-Encoding")).toBeNull();
    expect(body).toEqual(
      content(
        stored!.size,
        FILES.findIndex(([, n]) => n === name),
      ),
    );
  });

  // Why: the point of the edge cache — R2 is read once per edge location, not once per viewer.
  it("the second GET of a segment comes from the edge cache without an R2 read", async () => {
    const first = bucketSpy();
    const a = await fetchPath(streamPath(2, SEGMENT), undefined, first.bucket);
    expect(a.res.headers.get("X-Cache")).toBe("MISS");
    expect(first.calls).toEqual([`get stream/2/${SEGMENT}`]);
    const second = bucketSpy();
    const b = await fetchPath(streamPath(2, SEGMENT), undefined, second.bucket);
    expect(b.res.status).toBe(200);
    expect(b.res.headers.get("X-Cache")).toBe("HIT");
    expect(second.calls).toEqual([]);
    expect(b.body).toEqual(content(1000, 2));
    expect(b.res.headers.get("Content-Type")).toBe("video/mp4");
    expect(b.res.headers.get("Cache-Control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(b.res.headers.get("Content-Length")).toBe("1000");
    expect(b.res.headers.get("ETag")).toBe(a.res.headers.get("ETag"));
  });

  // Why: a query string must neither bypass the cache nor create a new entry per value.
  it("query strings share the cache entry of the bare URL", async () => {
    const first = bucketSpy();
    const a = await fetchPath(streamPath(3, SEGMENT) + "?session=1", undefined, first.bucket);
    expect(a.res.headers.get("X-Cache")).toBe("MISS");
    expect(first.calls).toHaveLength(1);
    for (const suffix of ["?session=2", "", "?a=1&b=2#frag"]) {
      const spy = bucketSpy();
      const r = await fetchPath(streamPath(3, SEGMENT) + suffix, undefined, spy.bucket);
      expect(r.res.headers.get("X-Cache"), suffix).toBe("HIT");
      expect(spy.calls, suffix).toEqual([]);
      expect(r.body).toEqual(content(1000, 3));
    }
  });
});

describe("MEDIA_CACHE=off", () => {
  // Why: locally regenerated media under the same names must show at once; the switch bypasses the cache entirely.
  it("every request reads R2, nothing is stored, no X-Cache header", async () => {
    const off = async (path: string, spy: ReturnType<typeof bucketSpy>) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(ORIGIN + path), { ...env, MEDIA: spy.bucket, MEDIA_CACHE: "off" }, ctx);
      const body = new Uint8Array(await res.arrayBuffer());
      await waitOnExecutionContext(ctx);
      return { res, body };
    };
    await env.MEDIA.put("45.mp4", content(100, 45));
    for (const path of [streamPath(9, SEGMENT), "/45.mp4"]) {
      for (let i = 0; i < 2; i++) {
        const spy = bucketSpy();
        const r = await off(path, spy);
        expect(r.res.status, path).toBe(200);
        expect(r.res.headers.get("X-Cache")).toBeNull();
        expect(spy.calls).toHaveLength(1);
      }
      // and nothing was stored: with the cache on, the first request is a miss
      expect((await fetchPath(path)).res.headers.get("X-Cache")).toBe("MISS");
    }
  });
});

describe("stream files: Range, HEAD and conditional requests", () => {
  const expectPartial = (r: Fetched, start: number, end: number, seed: number) => {
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/1000`);
    expect(r.res.headers.get("Content-Length")).toBe(String(end - start + 1));
    expect(r.body).toEqual(content(1000, seed).slice(start, end + 1));
  };

  // Why: a Range on a miss is answered right away from the whole object just read, which is then cached.
  it("Range on an uncached segment → 206, one whole-object R2 read, and the object is cached", async () => {
    const spy = bucketSpy();
    const r = await fetchPath(streamPath(4, SEGMENT), { headers: { Range: "bytes=100-199" } }, spy.bucket);
    expectPartial(r, 100, 199, 4);
    expect(r.res.headers.get("X-Cache")).toBe("MISS");
    expect(spy.calls).toEqual([`get stream/4/${SEGMENT}`]);
    const after = bucketSpy();
    const whole = await fetchPath(streamPath(4, SEGMENT), undefined, after.bucket);
    expect(whole.res.headers.get("X-Cache")).toBe("HIT");
    expect(whole.body).toEqual(content(1000, 4));
    expect(after.calls).toEqual([]);
  });

  // Why: seeking players send ranges; the cached copy is sliced with the same RFC 9110 rules as R2 answers.
  it("Range on a cached segment → 206/416/200 exactly like the progressive media, without R2", async () => {
    await fetchPath(streamPath(5, SEGMENT));
    const spy = bucketSpy();
    const get = (range: string, extra: Record<string, string> = {}) => fetchPath(streamPath(5, SEGMENT), { headers: { Range: range, ...extra } }, spy.bucket);
    for (const [range, start, end] of [
      ["bytes=0-0", 0, 0],
      ["bytes=0-99", 0, 99],
      ["bytes=900-", 900, 999],
      ["bytes=-100", 900, 999],
      ["bytes=-5000", 0, 999],
      ["bytes=500-5000", 500, 999],
      ["Bytes=10-19", 10, 19],
    ] as const) {
      const r = await get(range);
      expect(r.res.headers.get("X-Cache"), range).toBe("HIT");
      expectPartial(r, start, end, 5);
    }
    for (const range of ["bytes=1000-", "bytes=-0", "bytes=5000-6000"]) {
      const r = await get(range);
      expect(r.res.status, range).toBe(416);
      expect(r.res.headers.get("Content-Range")).toBe("bytes */1000");
      expect(r.body.length).toBe(0);
    }
    for (const range of ["bytes=0-1,5-6", "bytes=abc", "bytes=10-5", "items=0-9"]) {
      const r = await get(range);
      expect(r.res.status, range).toBe(200);
      expect(r.res.headers.get("Content-Range")).toBeNull();
      expect(r.body).toEqual(content(1000, 5));
    }
    const etag = (await get("bytes=0-0")).res.headers.get("ETag")!;
    expectPartial(await get("bytes=10-19", { "If-Range": etag }), 10, 19, 5);
    const stale = await get("bytes=10-19", { "If-Range": '"stale"' });
    expect(stale.res.status).toBe(200);
    expect(stale.body).toEqual(content(1000, 5));
    expect(spy.calls).toEqual([]);
  });

  // Why: HEAD gives players the size without a body, on a miss and on a hit alike.
  it("HEAD → headers and no body, uncached and cached; with a Range → 206 headers", async () => {
    const miss = await fetchPath(streamPath(6, SEGMENT), { method: "HEAD" });
    expect(miss.res.status).toBe(200);
    expect(miss.res.headers.get("X-Cache")).toBe("MISS");
    expect(miss.res.headers.get("Content-Length")).toBe("1000");
    expect(miss.res.headers.get("Content-Type")).toBe("video/mp4");
    expect(miss.body.length).toBe(0);
    const spy = bucketSpy();
    const hit = await fetchPath(streamPath(6, SEGMENT), { method: "HEAD" }, spy.bucket);
    expect(hit.res.headers.get("X-Cache")).toBe("HIT");
    expect(hit.res.headers.get("Content-Length")).toBe("1000");
    expect(hit.body.length).toBe(0);
    const ranged = await fetchPath(streamPath(6, SEGMENT), { method: "HEAD", headers: { Range: "bytes=0-9" } }, spy.bucket);
    expect(ranged.res.status).toBe(206);
    expect(ranged.res.headers.get("Content-Range")).toBe("bytes 0-9/1000");
    expect(ranged.body.length).toBe(0);
    expect(spy.calls).toEqual([]);
  });

  // Why: a player revalidating a playlist with its ETag must get 304 (no body), from R2 or the cache.
  it("If-None-Match with the current ETag → 304, uncached and cached; a stale one → 200", async () => {
    const stored = await env.MEDIA.head(streamKey(7, SEGMENT));
    const etag = stored!.httpEtag;
    for (const state of ["MISS", "HIT"]) {
      const r = await fetchPath(streamPath(7, SEGMENT), { headers: { "If-None-Match": etag } });
      expect(r.res.status).toBe(304);
      expect(r.res.headers.get("X-Cache")).toBe(state);
      expect(r.res.headers.get("ETag")).toBe(etag);
      expect(r.res.headers.get("Cache-Control")).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(r.body.length).toBe(0);
    }
    const modified = await fetchPath(streamPath(7, SEGMENT), { headers: { "If-Modified-Since": stored!.uploaded.toUTCString() } });
    expect(modified.res.status).toBe(304);
    const changed = await fetchPath(streamPath(7, SEGMENT), { headers: { "If-None-Match": '"old"' } });
    expect(changed.res.status).toBe(200);
    expect(changed.body).toEqual(content(1000, 7));
  });

  // Why: an empty object must not break the cache path (no body, every range unsatisfiable).
  it("0-byte object → 200 with length 0, cached; ranges → 416 bytes */0", async () => {
    const first = await fetchPath(streamPath(10, SEGMENT));
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("Content-Length")).toBe("0");
    const again = await fetchPath(streamPath(10, SEGMENT), { headers: { Range: "bytes=0-" } });
    expect(again.res.headers.get("X-Cache")).toBe("HIT");
    expect(again.res.status).toBe(416);
    expect(again.res.headers.get("Content-Range")).toBe("bytes */0");
  });
});

describe("stream files: playlists and WebVTT compressed (brotli or gzip) for clients that accept it", () => {
  const TEXT = FILES.filter(([kind, name]) => isCompressedTextFile(kind, name));
  const BINARY = FILES.filter(([kind]) => !isTextFile(kind));
  const GZIP = { "Accept-Encoding": "gzip, deflate" };
  const seedOf = (name: string) => FILES.findIndex(([, n]) => n === name);

  // Why: a real title's media playlist is ~130 KB of text on every player's start path; compressed it is 4–9 KB.
  it.each(TEXT)("%s (%s) → brotli or gzip with Vary, no length and a weak ETag; the bytes are the file's", async (_kind, name, type) => {
    const stored = await env.MEDIA.head(streamKey(1, name));
    for (const [accept, coding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
      ["br;q=0.5, gzip", "gzip"],
    ]) {
      const { res, body } = await fetchPath(streamPath(1, name), { headers: { "Accept-Encoding": accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("Content-Type")).toBe(type);
      expect(res.headers.get("Content-Encoding"), accept).toBe(coding);
      expect(res.headers.get("Vary")).toContain("Accept-Encoding");
      expect(res.headers.get("Content-Length")).toBeNull();
      expect(res.headers.get("ETag")).toBe(`W/${stored!.httpEtag}`);
      expect(body).toEqual(content(stored!.size, seedOf(name)));
    }
  });

  it.each(TEXT)("%s (%s) → as it is for a client that accepts neither brotli nor gzip, still with Vary", async (_kind, name) => {
    const stored = await env.MEDIA.head(streamKey(1, name));
    const variants: Record<string, string>[] = [
      {},
      { "Accept-Encoding": "identity" },
      { "Accept-Encoding": "gzip;q=0, br;q=0, deflate" },
      { "Accept-Encoding": "*;q=0" },
    ];
    for (const headers of variants) {
      const { res, body } = await fetchPath(streamPath(1, name), { headers });
      expect(res.headers.get("Content-Encoding"), JSON.stringify(headers)).toBeNull();
      expect(res.headers.get("Vary")).toContain("Accept-Encoding");
      expect(res.headers.get("Content-Length")).toBe(String(stored!.size));
      expect(res.headers.get("ETag")).toBe(stored!.httpEtag);
      expect(body).toEqual(content(stored!.size, seedOf(name)));
    }
  });

  // Why: segments, init segments and sprites are already compressed media: gzip would cost CPU for nothing.
  it.each(BINARY)("%s (%s) → never encoded, even when gzip is accepted", async (_kind, name) => {
    const { res } = await fetchPath(streamPath(1, name), { headers: GZIP });
    expect(res.headers.get("Content-Encoding")).toBeNull();
    expect(res.headers.get("Vary") ?? "").not.toContain("Accept-Encoding");
    expect(res.headers.get("Content-Length")).not.toBeNull();
  });

  // Why: the page preloads these two for every engine, and Chromium's own HLS player re-reads them by
  // byte range from the browser cache, which it can only do from an identity copy.
  it("the start path's playlists (master, start rendition) go out as they are, without Vary", async () => {
    await env.MEDIA.put(streamKey(1, streamNames.mediaPlaylist(START_RENDITION_HEIGHT)), content(200, 99));
    for (const name of [streamNames.master, streamNames.mediaPlaylist(START_RENDITION_HEIGHT)]) {
      const { res } = await fetchPath(streamPath(1, name), { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
      expect(res.status, name).toBe(200);
      expect(res.headers.get("Content-Encoding"), name).toBeNull();
      expect(res.headers.get("Vary") ?? "", name).not.toContain("Accept-Encoding");
      expect(res.headers.get("Content-Length"), name).not.toBeNull();
    }
  });

  // Why: behind Cloudflare the worker always sees "br, gzip"; the client's own header is in cf.clientAcceptEncoding.
  it("negotiates on the client's own Accept-Encoding (cf.clientAcceptEncoding), not the front line's", async () => {
    const name = streamNames.storyboard;
    const ask = async (clientAcceptEncoding: string) => {
      const ctx = createExecutionContext();
      const request = new Request(ORIGIN + streamPath(1, name), { headers: { "Accept-Encoding": "br, gzip" }, cf: { clientAcceptEncoding } });
      const res = await app.fetch(request, env, ctx);
      await res.arrayBuffer();
      await waitOnExecutionContext(ctx);
      return res.headers.get("Content-Encoding");
    };
    expect(await ask("gzip, deflate")).toBe("gzip");
    expect(await ask("gzip, deflate, br")).toBe("br");
    expect(await ask("")).toBeNull();
  });

  // Why: a byte range counts bytes of the file itself; HEAD and 304 must name what a GET would send.
  it("a Range is answered from the file as it is; HEAD and a 304 carry the encoded answer's headers", async () => {
    const name = streamNames.mediaPlaylist(720);
    const stored = await env.MEDIA.head(streamKey(1, name));
    const ranged = await fetchPath(streamPath(1, name), { headers: { ...GZIP, Range: "bytes=0-9" } });
    expect(ranged.res.status).toBe(206);
    expect(ranged.res.headers.get("Content-Encoding")).toBeNull();
    expect(ranged.res.headers.get("ETag")).toBe(stored!.httpEtag);
    expect(ranged.body).toEqual(content(stored!.size, seedOf(name)).slice(0, 10));
    const head = await fetchPath(streamPath(1, name), { method: "HEAD", headers: GZIP });
    expect(head.res.status).toBe(200);
    expect(head.res.headers.get("Content-Encoding")).toBe("gzip");
    expect(head.res.headers.get("Content-Length")).toBeNull();
    expect(head.body.length).toBe(0);
    for (const validator of [`W/${stored!.httpEtag}`, stored!.httpEtag]) {
      const again = await fetchPath(streamPath(1, name), { headers: { ...GZIP, "If-None-Match": validator } });
      expect(again.res.status, validator).toBe(304);
      expect(again.res.headers.get("ETag")).toBe(`W/${stored!.httpEtag}`);
      expect(again.res.headers.get("Vary")).toContain("Accept-Encoding");
      expect(again.body.length).toBe(0);
    }
  });
});

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
    "/stream/1/subtitles-en.vtt",
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

  // Why: the cross-origin exception is for /stream/ only; pages and the progressive files stay same-origin.
  it("pages and /N.mp4 keep CORP same-origin and no CORS", async () => {
    for (const path of ["/info/about", "/1.mp4"]) {
      const { res } = await fetchPath(path);
      expect(res.headers.get("Cross-Origin-Resource-Policy"), path).toBe("same-origin");
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBeNull();
    }
  });
});

describe("progressive media through the edge cache", () => {
  const SIZE = 4000;
  beforeAll(async () => {
    await env.MEDIA.put("41.mp4", content(SIZE, 41));
    await env.MEDIA.put("42.mp4", content(SIZE, 42));
    await env.MEDIA.put("43.webp", content(SIZE, 43));
  });

  // Why: a video or cover is read from R2 once per edge location (answer + whole fill); later viewers get the cached copy.
  it("a second GET of /N.mp4 and /N.webp is served from the cache without R2", async () => {
    for (const [path, seed] of [
      ["/41.mp4", 41],
      ["/43.webp", 43],
    ] as const) {
      const key = path.slice(1);
      const first = bucketSpy();
      const a = await fetchPath(path, undefined, first.bucket);
      expect(a.res.headers.get("X-Cache")).toBe("MISS");
      expect(a.body).toEqual(content(SIZE, seed));
      // the answer's read, then the background read that fills the cache
      expect(first.calls).toEqual([`get ${key}`, `get ${key}`]);
      const second = bucketSpy();
      const b = await fetchPath(path, undefined, second.bucket);
      expect(b.res.headers.get("X-Cache")).toBe("HIT");
      expect(b.res.headers.get("Cache-Control")).toBe(MEDIA_CACHE_CONTROL);
      expect(b.body).toEqual(content(SIZE, seed));
      expect(second.calls).toEqual([]);
      const ranged = await fetchPath(path, { headers: { Range: "bytes=-10" } }, second.bucket);
      expect(ranged.res.status).toBe(206);
      expect(ranged.body).toEqual(content(SIZE, seed).slice(SIZE - 10));
      expect(second.calls).toEqual([]);
    }
  });

  // Why: a seek on an uncached video is answered by one ranged R2 read (no wait for the whole file); the whole file is cached behind it.
  it("a Range on an uncached /N.mp4 → ranged R2 read, then a background whole read fills the cache", async () => {
    const spy = bucketSpy();
    const r = await fetchPath("/42.mp4", { headers: { Range: "bytes=3000-3099" } }, spy.bucket);
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get("X-Cache")).toBe("MISS");
    expect(r.body).toEqual(content(SIZE, 42).slice(3000, 3100));
    expect(spy.calls).toEqual(['get 42.mp4 {"offset":3000,"length":100}', "get 42.mp4"]);
    const after = bucketSpy();
    const hit = await fetchPath("/42.mp4", { headers: { Range: "bytes=0-9" } }, after.bucket);
    expect(hit.res.headers.get("X-Cache")).toBe("HIT");
    expect(hit.body).toEqual(content(SIZE, 42).slice(0, 10));
    expect(after.calls).toEqual([]);
  });

  // Why: concurrent viewers of a new video must not each read the whole file in the background.
  it("while a background fill runs, another miss on the same file starts none", async () => {
    await env.MEDIA.put("47.mp4", content(SIZE, 47));
    const calls: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bucket = {
      get: async (key: string, options?: R2GetOptions) => {
        calls.push(`get ${key}${options?.range ? " ranged" : ""}`);
        if (!options?.range) await gate; // the whole read of the fill waits until released
        return env.MEDIA.get(key, options);
      },
      head: (key: string) => env.MEDIA.head(key),
    } as unknown as R2Bucket;
    const start = async () => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(ORIGIN + "/47.mp4", { headers: { Range: "bytes=0-9" } }), { ...env, MEDIA: bucket }, ctx);
      expect(res.status).toBe(206);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(content(SIZE, 47).slice(0, 10));
      return ctx;
    };
    const first = await start();
    const second = await start();
    release();
    await waitOnExecutionContext(first);
    await waitOnExecutionContext(second);
    expect(calls).toEqual(["get 47.mp4 ranged", "get 47.mp4", "get 47.mp4 ranged"]);
    expect((await fetchPath("/47.mp4", { headers: { Range: "bytes=0-9" } })).res.headers.get("X-Cache")).toBe("HIT");
  });

  // Why: a missing video is not cached and does not start a background fill.
  it("a missing /N.mp4 → 404, one R2 read, nothing stored", async () => {
    const spy = bucketSpy();
    const r = await fetchPath("/46.mp4", undefined, spy.bucket);
    expect(r.res.status).toBe(404);
    expect(spy.calls).toEqual(["get 46.mp4"]);
    await env.MEDIA.put("46.mp4", content(10, 46));
    const found = await fetchPath("/46.mp4");
    expect(found.res.headers.get("X-Cache")).toBe("MISS");
    expect(found.body).toEqual(content(10, 46));
  });
});

describe("edge cache: ranged reads of large cached copies", () => {
  const BIG = 3 * 1024 * 1024;
  const cacheOf = () => (caches as unknown as { default: Cache }).default;

  /** caches.default behind a spy: records each match's Range header, can answer a wrong 206 instead. */
  function cacheSpy(wrongRange = false) {
    const matches: (string | null)[] = [];
    const real = cacheOf();
    const cache = {
      match: async (req: Request) => {
        const range = req.headers.get("Range");
        matches.push(range);
        if (range && wrongRange) {
          return new Response("xx", { status: 206, headers: { "Content-Range": `bytes 0-1/${BIG}`, "Content-Length": "2" } });
        }
        return real.match(req);
      },
      put: (req: Request, res: Response) => real.put(req, res),
      delete: (req: Request) => real.delete(req),
    } as unknown as Cache;
    return { cache, matches };
  }

  async function fetchVia(cache: Cache, path: string, init?: RequestInit): Promise<Fetched> {
    const small = new Hono<AppEnv>();
    small.get("*", (c) =>
      serveThroughEdgeCache(
        c,
        { loadWhole: () => loadWholeObject(c.env.MEDIA, "big.bin", { contentType: "video/mp4", cacheControl: "public, max-age=600" }) },
        { cache },
      ),
    );
    const ctx = createExecutionContext();
    const res = await small.fetch(new Request(ORIGIN + path, init), env, ctx);
    const body = new Uint8Array(await res.arrayBuffer());
    await waitOnExecutionContext(ctx);
    return { res, body };
  }

  beforeAll(async () => {
    await env.MEDIA.put("big.bin", content(BIG, 9));
  });

  // Why: a seek deep into a large cached video must not read the copy from its start; the cache serves the range.
  it("a range of a copy over 2 MiB is read from the cache by range, with the exact bytes", async () => {
    await fetchVia(cacheOf(), "/big-1");
    const spy = cacheSpy();
    const r = await fetchVia(spy.cache, "/big-1", { headers: { Range: "bytes=-1000" } });
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get("X-Cache")).toBe("HIT");
    expect(r.res.headers.get("Content-Range")).toBe(`bytes ${BIG - 1000}-${BIG - 1}/${BIG}`);
    expect(r.body).toEqual(content(BIG, 9).slice(BIG - 1000));
    expect(spy.matches).toEqual([null, `bytes=${BIG - 1000}-${BIG - 1}`]);
  });

  // Why: the cache's ranged answer is used only when it is exactly the range decided; anything else falls back to slicing.
  it("a cache answer for another range is not trusted: the worker slices the whole copy", async () => {
    await fetchVia(cacheOf(), "/big-2");
    const spy = cacheSpy(true);
    const r = await fetchVia(spy.cache, "/big-2", { headers: { Range: "bytes=2000000-2000099" } });
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get("Content-Range")).toBe(`bytes 2000000-2000099/${BIG}`);
    expect(r.body).toEqual(content(BIG, 9).slice(2000000, 2000100));
    expect(spy.matches).toEqual([null, "bytes=2000000-2000099"]);
  });

  // Why: HEAD, validators and If-Range keep the single-lookup path (no ranged read to trust).
  it("HEAD, If-None-Match and a stale If-Range make no ranged cache read", async () => {
    await fetchVia(cacheOf(), "/big-3");
    const spy = cacheSpy();
    const head = await fetchVia(spy.cache, "/big-3", { method: "HEAD", headers: { Range: "bytes=0-9" } });
    expect(head.res.status).toBe(206);
    const etag = head.res.headers.get("ETag")!;
    expect((await fetchVia(spy.cache, "/big-3", { headers: { Range: "bytes=0-9", "If-None-Match": etag } })).res.status).toBe(304);
    const stale = await fetchVia(spy.cache, "/big-3", { headers: { Range: "bytes=0-9", "If-Range": '"old"' } });
    expect(stale.res.status).toBe(200);
    expect(stale.body.length).toBe(BIG);
    expect(spy.matches).toEqual([null, null, null]);
  });
});

describe("sliceBody", () => {
  // Why: cached bodies arrive in chunks of any size; a slice must be exact across every chunk boundary.
  it("returns exactly bytes start..end for any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 0, maxLength: 64 }), { minLength: 1, maxLength: 20 }), fc.nat(), fc.nat(), async (chunks, a, b) => {
        const all = Uint8Array.from(chunks.flatMap((chunk) => [...chunk]));
        fc.pre(all.length > 0);
        const start = a % all.length;
        const end = start + (b % (all.length - start));
        const source = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        });
        const sliced = new Uint8Array(await new Response(sliceBody(source, start, end)).arrayBuffer());
        expect(sliced).toEqual(all.slice(start, end + 1));
      }),
      { numRuns: 200 },
    );
  });
});
