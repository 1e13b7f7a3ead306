// The stream files (/stream/…) and progressive media through the whole worker inside workerd: a
// request helper that waits for the background cache fill, an R2 spy, known bytes, and the files
// every stream test file stores first. Shared by tests/worker/stream-*.test.ts.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, vi } from "vitest";
import app from "../../../worker/index";
import { IMMUTABLE_CACHE_CONTROL, SHORT_CACHE_CONTROL, streamKey, streamNames, type StreamFileKind } from "../../../shared/stream/contract";
/** Its own origin: cache entries of other test files never meet these. */
export const ORIGIN = "https://stream.test";
export const V = "0123abcd";
export const SEGMENT = streamNames.segment(360, V, 1);

/** Known bytes: byte i = (i * 7 + seed) mod 251, so slices of different files differ. */
export function content(size: number, seed = 0): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) % 251);
}

/** The MEDIA bucket behind a spy that records every R2 call (or throws, like an R2 outage). */
export function bucketSpy() {
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

export interface Fetched {
  res: Response;
  body: Uint8Array;
}

/** One request through the whole worker, waiting for its background work (the cache fill). */
export async function fetchPath(path: string, init?: RequestInit, bucket: R2Bucket = env.MEDIA): Promise<Fetched> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(ORIGIN + path, init), { ...env, MEDIA: bucket }, ctx);
  const body = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { res, body };
}

export const FILES: [StreamFileKind, string, string, string][] = [
  ["master", streamNames.master, "application/vnd.apple.mpegurl", SHORT_CACHE_CONTROL],
  ["media-playlist", streamNames.mediaPlaylist(720), "application/vnd.apple.mpegurl", SHORT_CACHE_CONTROL],
  ["init", streamNames.init(1080, V), "video/mp4", IMMUTABLE_CACHE_CONTROL],
  ["segment", streamNames.segment(270, V, 0), "video/mp4", IMMUTABLE_CACHE_CONTROL],
  ["subtitle-playlist", streamNames.subtitlePlaylist, "application/vnd.apple.mpegurl", SHORT_CACHE_CONTROL],
  ["subtitles", streamNames.subtitles, "text/vtt; charset=utf-8", SHORT_CACHE_CONTROL],
  ["storyboard", streamNames.storyboard, "text/vtt; charset=utf-8", SHORT_CACHE_CONTROL],
  ["sprite", streamNames.sprite(V, 0), "image/jpeg", IMMUTABLE_CACHE_CONTROL],
];

/** Stores FILES and the numbered segments before the file's tests; restores spies after each test. */
export function storeStreamFiles(): void {
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
}
