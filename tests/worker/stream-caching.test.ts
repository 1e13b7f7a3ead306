// Stream files through the whole worker inside workerd: each file kind's type, cache policy and
// validators, the edge cache in front of R2, and MEDIA_CACHE=off.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index";
import { IMMUTABLE_CACHE_CONTROL, streamKey, streamPath } from "../../shared/stream/contract";
import { ORIGIN, SEGMENT, content, bucketSpy, fetchPath, FILES, storeStreamFiles } from "./helpers/stream-files";

storeStreamFiles();

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
