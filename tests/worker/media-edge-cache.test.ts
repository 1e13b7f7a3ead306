// Progressive media (/N.mp4, /N.webp) through the whole worker and its edge cache inside workerd:
// cache hits without R2, ranged misses filled in the background, one fill at a time.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../worker/index";
import { MEDIA_CACHE_CONTROL } from "../../worker/media/serve";
import { ORIGIN, content, bucketSpy, fetchPath, storeStreamFiles } from "./helpers/stream-files";

storeStreamFiles();

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
