// Stream files through the whole worker inside workerd: Range, HEAD and conditional requests, ranged
// reads of large cached copies, and sliceBody (exact bytes for any chunking).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../worker/app-env";
import { sliceBody } from "../../worker/http/body-slice";
import { serveThroughEdgeCache } from "../../worker/http/cached-files";
import { loadWholeObject } from "../../worker/http/r2-answers";
import { IMMUTABLE_CACHE_CONTROL, streamKey, streamPath } from "../../shared/stream/contract";
import { ORIGIN, SEGMENT, content, bucketSpy, type Fetched, fetchPath, storeStreamFiles } from "./helpers/stream-files";

storeStreamFiles();

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
