import { env as workersEnv, exports as workersExports } from "cloudflare:workers";
import { Hono } from "hono";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../worker/app-env";
import { MEDIA_CACHE_CONTROL, serveMedia } from "../../worker/media/serve";

const env: Env = workersEnv;
const worker = (workersExports as unknown as { default: { fetch: typeof fetch } }).default;

const ORIGIN = "https://example.com";
const SIZE = 1000;
/** Known content: byte i = i mod 251 (no period that divides the range sizes used). */
const CONTENT = Uint8Array.from({ length: SIZE }, (_, i) => i % 251);

/** The route of worker/index.ts, in a small app (plus a catch-all 404 like the SSR). */
function mediaApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.on(["GET", "HEAD"], "/:file{[0-9]+\\.(?:mp4|webp)}", serveMedia);
  app.all("*", (c) => c.text("未找到", 404));
  return app;
}

/** The handler on every path: shows it rejects odd names itself. */
function strictApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.on(["GET", "HEAD"], "*", serveMedia);
  return app;
}

/** Wraps the MEDIA bucket, counting calls (or throwing when asked). */
function bucketSpy(mode: "pass" | "throw" | "throw-get" = "pass") {
  const calls: string[] = [];
  const bucket = {
    head: async (key: string) => {
      calls.push(`head ${key}`);
      if (mode === "throw") throw new Error("R2 down (test)");
      return env.MEDIA.head(key);
    },
    get: async (key: string, options?: R2GetOptions) => {
      calls.push(`get ${key}${options?.range ? ` ${JSON.stringify(options.range)}` : ""}`);
      if (mode !== "pass") throw new Error("R2 down (test)");
      return env.MEDIA.get(key, options);
    },
  };
  return { calls, bucket: bucket as unknown as R2Bucket };
}

function withBucket(bucket: R2Bucket): Env {
  return { ...env, MEDIA: bucket };
}

type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

const viaWorker: Fetcher = (path, init) => worker.fetch(new Request(ORIGIN + path, init));
const viaHandler: Fetcher = async (path, init) => mediaApp().fetch(new Request(ORIGIN + path, init), env);

async function bytes(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

let etag = "";
let lastModified = "";

beforeAll(async () => {
  await env.MEDIA.put("5.mp4", CONTENT, { httpMetadata: { contentType: "video/mp4" } });
  await env.MEDIA.put("6.webp", CONTENT, { httpMetadata: { contentType: "image/webp" } });
  await env.MEDIA.put("7.mp4", new Uint8Array(0));
  const head = await env.MEDIA.head("5.mp4");
  etag = head!.httpEtag;
  lastModified = head!.uploaded.toUTCString();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each<[string, Fetcher]>([
  ["through the worker", viaWorker],
  ["through the handler", viaHandler],
])("media %s", (_name, get) => {
  const expectWhole = async (res: Response) => {
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe(String(SIZE));
    expect(res.headers.get("Content-Range")).toBeNull();
    expect(await bytes(res)).toEqual(CONTENT);
  };

  const expectPartial = async (res: Response, start: number, end: number) => {
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/${SIZE}`);
    expect(res.headers.get("Content-Length")).toBe(String(end - start + 1));
    expect(await bytes(res)).toEqual(CONTENT.slice(start, end + 1));
  };

  it("GET → 200 whole file with length, validators, caching and no compression", async () => {
    const res = await get("/5.mp4");
    expect(res.headers.get("Content-Type")).toBe("video/mp4");
    expect(res.headers.get("ETag")).toBe(etag);
    expect(res.headers.get("Last-Modified")).toBe(lastModified);
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("Cache-Control")).toBe(MEDIA_CACHE_CONTROL);
    expect(res.headers.get("Cache-Control")).toContain("no-transform");
    expect(res.headers.get("Content-Encoding")).toBeNull();
    expect(res.headers.get("Transfer-Encoding")).toBeNull();
    await expectWhole(res);
  });

  it("webp cover → image/webp", async () => {
    const res = await get("/6.webp");
    expect(res.headers.get("Content-Type")).toBe("image/webp");
    await expectWhole(res);
  });

  it.each<[string, number, number]>([
    ["bytes=0-99", 0, 99],
    ["bytes=0-0", 0, 0],
    ["bytes=900-", 900, 999],
    ["bytes=999-", 999, 999],
    ["bytes=-100", 900, 999],
    ["bytes=-1", 999, 999],
    ["bytes=-5000", 0, 999],
    ["bytes=500-5000", 500, 999],
    ["bytes=0-", 0, 999],
    ["Bytes=10-19", 10, 19],
  ])("Range %s → 206", async (range, start, end) => {
    await expectPartial(await get("/5.mp4", { headers: { Range: range } }), start, end);
  });

  it.each(["bytes=1000-", "bytes=1000-2000", "bytes=5000-", "bytes=-0"])("Range %s → 416 with bytes */1000 and no body", async (range) => {
    const res = await get("/5.mp4", { headers: { Range: range } });
    expect(res.status).toBe(416);
    expect(res.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    expect((await bytes(res)).length).toBe(0);
  });

  it.each(["bytes=abc", "bytes=10-5", "bytes=0-1,5-6", "bytes=0-1, -5", "items=0-9", "bytes=0 - 9", "bytes=9007199254740992-", "bytes=", "0-99"])(
    "Range %j (malformed, backwards or multiple) → 200 whole",
    async (range) => {
      await expectWhole(await get("/5.mp4", { headers: { Range: range } }));
    },
  );

  it("HEAD → 200 headers without a body", async () => {
    const res = await get("/5.mp4", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe(String(SIZE));
    expect(res.headers.get("Content-Type")).toBe("video/mp4");
    expect(res.headers.get("ETag")).toBe(etag);
    expect((await bytes(res)).length).toBe(0);
  });

  it("HEAD with a Range → 206 headers without a body", async () => {
    const res = await get("/5.mp4", { method: "HEAD", headers: { Range: "bytes=0-99" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe(`bytes 0-99/${SIZE}`);
    expect(res.headers.get("Content-Length")).toBe("100");
    expect((await bytes(res)).length).toBe(0);
  });

  it("HEAD with an unsatisfiable Range → 416", async () => {
    const res = await get("/5.mp4", { method: "HEAD", headers: { Range: "bytes=1000-" } });
    expect(res.status).toBe(416);
    expect(res.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
  });

  it.each([() => etag, () => `W/${etag}`, () => `"nope", ${etag}`, () => "*"])("If-None-Match matching → 304 with ETag and no body (%#)", async (value) => {
    const res = await get("/5.mp4", { headers: { "If-None-Match": value() } });
    expect(res.status).toBe(304);
    expect(res.headers.get("ETag")).toBe(etag);
    expect((await bytes(res)).length).toBe(0);
  });

  it("If-None-Match matching wins over Range; HEAD too", async () => {
    const ranged = await get("/5.mp4", { headers: { "If-None-Match": etag, Range: "bytes=0-9" } });
    expect(ranged.status).toBe(304);
    const head = await get("/5.mp4", { method: "HEAD", headers: { "If-None-Match": etag } });
    expect(head.status).toBe(304);
  });

  it("If-None-Match not matching → 200 (or 206 with a Range)", async () => {
    await expectWhole(await get("/5.mp4", { headers: { "If-None-Match": '"stale"' } }));
    await expectPartial(await get("/5.mp4", { headers: { "If-None-Match": '"stale"', Range: "bytes=-10" } }), 990, 999);
  });

  it("If-Modified-Since = Last-Modified → 304; ignored when If-None-Match is present", async () => {
    expect((await get("/5.mp4", { headers: { "If-Modified-Since": lastModified } })).status).toBe(304);
    const res = await get("/5.mp4", {
      headers: { "If-Modified-Since": lastModified, "If-None-Match": '"stale"' },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it("If-Range with a stale entity-tag → 200 whole file", async () => {
    await expectWhole(await get("/5.mp4", { headers: { Range: "bytes=0-99", "If-Range": '"stale"' } }));
  });

  it("If-Range with a weak entity-tag → 200 whole file", async () => {
    await expectWhole(await get("/5.mp4", { headers: { Range: "bytes=0-99", "If-Range": `W/${etag}` } }));
  });

  it("If-Range with the current entity-tag → 206", async () => {
    await expectPartial(await get("/5.mp4", { headers: { Range: "bytes=0-99", "If-Range": etag } }), 0, 99);
  });

  it("If-Range with the Last-Modified date → 206; another date → 200", async () => {
    await expectPartial(await get("/5.mp4", { headers: { Range: "bytes=100-199", "If-Range": lastModified } }), 100, 199);
    await expectWhole(
      await get("/5.mp4", {
        headers: { Range: "bytes=100-199", "If-Range": "Thu, 01 Jan 2015 00:00:00 GMT" },
      }),
    );
  });

  it("If-Range stale with an unsatisfiable Range → 200 whole file", async () => {
    await expectWhole(await get("/5.mp4", { headers: { Range: "bytes=5000-", "If-Range": '"stale"' } }));
  });

  it("0-byte object: 200 with length 0; every range → 416 bytes */0", async () => {
    const res = await get("/7.mp4");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe("0");
    expect((await bytes(res)).length).toBe(0);
    for (const range of ["bytes=0-", "bytes=0-0", "bytes=-5", "bytes=-0"]) {
      const r = await get("/7.mp4", { headers: { Range: range } });
      expect(r.status, range).toBe(416);
      expect(r.headers.get("Content-Range")).toBe("bytes */0");
    }
    const malformed = await get("/7.mp4", { headers: { Range: "bytes=x" } });
    expect(malformed.status).toBe(200);
    const head = await get("/7.mp4", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe("0");
  });

  it("missing object → 404 未找到", async () => {
    for (const path of ["/99.mp4", "/99.webp", "/5.webp"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("未找到");
    }
  });

  it.each(["/01.mp4", "/1.MP4", "/1.mp4.bak", "/%2e%2e%2f1.mp4", "/..%2f5.mp4", "/a.mp4", "/5.mp4/", "/1234567.mp4", "/0.mp4"])(
    "odd name %s → 404",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    },
  );
});

describe("media handler details", () => {
  const run = (bucket: R2Bucket, path: string, init?: RequestInit, app = mediaApp()) => app.fetch(new Request(ORIGIN + path, init), withBucket(bucket));

  it.each(["/01.mp4", "/1.MP4", "/1.mp4.bak", "/%2e%2e%2f1.mp4", "/..%2f5.mp4", "/5%2emp4", "/a.mp4", "/5.mp4%00", "/0.mp4"])(
    "odd name %s → 404 from the handler itself, without touching R2",
    async (path) => {
      const spy = bucketSpy();
      const res = await run(spy.bucket, path, undefined, strictApp());
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("未找到");
      expect(spy.calls).toEqual([]);
    },
  );

  it("one R2 call for a plain GET, a ranged GET, a HEAD and a matching If-None-Match", async () => {
    const cases: [RequestInit | undefined, string[]][] = [
      [undefined, ["get 5.mp4"]],
      [{ headers: { Range: "bytes=0-99" } }, ['get 5.mp4 {"offset":0,"length":100}']],
      [{ headers: { Range: "bytes=900-" } }, ['get 5.mp4 {"offset":900}']],
      [{ headers: { Range: "bytes=-100" } }, ['get 5.mp4 {"suffix":100}']],
      [{ headers: { Range: "bytes=0-99", "If-Range": etag } }, ['get 5.mp4 {"offset":0,"length":100}']],
      [{ method: "HEAD", headers: { Range: "bytes=0-99" } }, ["head 5.mp4"]],
      [{ headers: { "If-None-Match": etag } }, ["head 5.mp4"]],
    ];
    for (const [init, expected] of cases) {
      const spy = bucketSpy();
      const res = await run(spy.bucket, "/5.mp4", init);
      await res.arrayBuffer();
      expect(spy.calls, JSON.stringify(init)).toEqual(expected);
    }
  });

  it("unsatisfiable ranges fall back to head and answer 416", async () => {
    const spy = bucketSpy();
    const res = await run(spy.bucket, "/5.mp4", { headers: { Range: "bytes=1000-" } });
    expect(res.status).toBe(416);
    expect(spy.calls).toEqual(['get 5.mp4 {"offset":1000}', "head 5.mp4"]);
  });

  it.each<[string, RequestInit | undefined, "throw" | "throw-get"]>([
    ["GET", undefined, "throw"],
    ["GET with Range", { headers: { Range: "bytes=0-9" } }, "throw"],
    ["HEAD", { method: "HEAD" }, "throw"],
    ["If-None-Match", { headers: { "If-None-Match": '"x"' } }, "throw"],
    ["If-None-Match, get failing", { headers: { "If-None-Match": '"x"' } }, "throw-get"],
    ["GET with Range, get failing", { headers: { Range: "bytes=0-9" } }, "throw-get"],
  ])("R2 throwing (%s) → 503 no-store with a Chinese message", async (_name, init, mode) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const spy = bucketSpy(mode);
    const res = await run(spy.bucket, "/5.mp4", init);
    expect(res.status).toBe(503);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Type")).toContain("text/plain");
    if (init?.method !== "HEAD") expect(await res.text()).toBe("媒体服务暂时不可用，请稍后重试");
    expect(logged).toHaveBeenCalled();
  });

  it("other methods → 405 from the handler", async () => {
    const app = new Hono<AppEnv>();
    app.all("*", serveMedia);
    const spy = bucketSpy();
    const res = await run(spy.bucket, "/5.mp4", { method: "POST" }, app);
    expect(res.status).toBe(405);
    expect(spy.calls).toEqual([]);
  });
});
