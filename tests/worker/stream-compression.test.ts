// Stream files through the whole worker inside workerd: playlists and WebVTT go out brotli- or
// gzip-compressed to clients that accept it; binary files never do.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index";
import { isCompressedTextFile, isTextFile, START_RENDITION_HEIGHT, streamKey, streamNames, streamPath } from "../../shared/stream/contract";
import { ORIGIN, content, fetchPath, FILES, storeStreamFiles } from "./helpers/stream-files";

storeStreamFiles();

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
