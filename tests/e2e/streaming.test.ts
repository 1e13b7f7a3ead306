import http from "node:http";
import zlib from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { START_RENDITION_HEIGHT } from "../../shared/stream/contract";
import { DESKTOP, PHONE, baseURL, browserForFile, media, newPage, waitForHydration, waitPlaying, N, PAGE, master, recordSegments } from "./browser";

/**
 * Adaptive streaming in the player (docs/streaming.md): HLS through both engines (the browser's
 * own and hls.js), compressed playlists and the fallback to the progressive MP4 — in Chromium
 * against `wrangler dev` with the packed placeholder media.
 */

const browser = browserForFile();

/** A GET of the local site with exactly these headers, the body as it crossed the wire (no decoding). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, baseURL()), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** What countMediaSources records in the page. */
interface MediaSourceLog {
  __mediaSources: MediaSource[];
}

/** Init script: records every MediaSource the page creates (hls.js makes one per playback). */
function countMediaSources() {
  const log = window as unknown as MediaSourceLog;
  log.__mediaSources = [];
  const Native = window.MediaSource;
  window.MediaSource = class extends Native {
    constructor() {
      super();
      log.__mediaSources.push(this);
    }
  };
}

/** One download of a path from the site (CDP timestamps, seconds): when it was asked for and when it was in. */
interface Download {
  sentAt: number;
  finishedAt: number;
}

/**
 * Each path's downloads from the site (CDP): requests the browser answered from its own cache (a
 * preload's response reused, the HTTP cache) are not counted.
 */
async function recordDownloads(context: BrowserContext, page: Page): Promise<Map<string, Download[]>> {
  const cdp = await context.newCDPSession(page);
  const sent = new Map<string, { path: string; at: number }>();
  const cached = new Set<string>();
  const downloads = new Map<string, Download[]>();
  cdp.on("Network.requestWillBeSent", (e) => sent.set(e.requestId, { path: new URL(e.request.url).pathname, at: e.timestamp }));
  cdp.on("Network.requestServedFromCache", (e) => cached.add(e.requestId));
  cdp.on("Network.responseReceived", (e) => {
    if (e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker) cached.add(e.requestId);
  });
  cdp.on("Network.loadingFinished", (e) => {
    const request = sent.get(e.requestId);
    if (!request || cached.has(e.requestId)) return;
    downloads.set(request.path, [...(downloads.get(request.path) ?? []), { sentAt: request.at, finishedAt: e.timestamp }]);
  });
  await cdp.send("Network.enable");
  return downloads;
}

/**
 * Downloads of a path asked for after the browser already had it: the preload's response was not
 * reused. (Chromium's <video> does not join a Link-header preload that is still in flight: with a
 * cold edge and a fast link it may ask for the playlist a second time meanwhile. That is the
 * browser's, and not counted.)
 */
function downloadedAgain(downloads: readonly Download[]): Download[] {
  const firstIn = Math.min(...downloads.map((d) => d.finishedAt));
  return downloads.filter((d) => d.sentAt > firstIn);
}

describe("HLS playback", () => {
  for (const engine of ["native", "hlsjs"] as const) {
    it(`${engine}: plays the master playlist and reaches a later segment, with no console errors; a preloaded playlist is not downloaded again once in`, async () => {
      const context = await browser().newContext({ viewport: DESKTOP });
      const { page, log } = await newPage(context);
      const segments = recordSegments(page);
      const downloads = await recordDownloads(context, page);
      await page.goto(`${baseURL()}${PAGE}?engine=${engine}`);
      await waitForHydration(page);
      expect(await page.getAttribute(".player", "data-engine")).toBe(engine);
      await waitPlaying(page, 0.3);
      if (engine === "hlsjs") expect(await media(page, (v) => v.currentSrc)).toMatch(/^blob:/);
      else expect(await media(page, (v) => new URL(v.currentSrc).pathname)).toBe(`/stream/${N}/master.m3u8`);
      // Play on at double speed until well into the third segment.
      await media(page, (v) => (v.playbackRate = 2));
      await waitPlaying(page, 5);
      const later = segments.map((p) => Number(/-(\d{5})\.m4s$/.exec(p)?.[1] ?? 0));
      expect(Math.max(...later)).toBeGreaterThanOrEqual(3);
      expect(segments.every((p) => p.startsWith(`/stream/${N}/`))).toBe(true);
      // The page's preloads (Link header and <link>) are what the player reads: once a playlist is
      // in, it is not downloaded again.
      for (const playlist of [`/stream/${N}/master.m3u8`, `/stream/${N}/270p.m3u8`]) {
        expect(downloads.get(playlist)?.length, playlist).toBeGreaterThanOrEqual(1);
        expect(downloadedAgain(downloads.get(playlist) ?? []), playlist).toEqual([]);
      }
      expect(log.errors).toEqual([]);
      await context.close();
    });
  }

  it("hlsjs: starts before the page's JavaScript, on the lowest rung, and the player takes that playback over", async () => {
    const context = await browser().newContext({ viewport: PHONE });
    await context.addInitScript(countMediaSources);
    const { page, log } = await newPage(context);
    const requests: string[] = [];
    page.on("request", (req) => requests.push(new URL(req.url()).pathname));
    await page.goto(`${baseURL()}${PAGE}?engine=hlsjs`);
    await waitForHydration(page);
    await waitPlaying(page, 1);
    const entry = await page.evaluate(() => window.__ASSETS__.scripts[0]);
    const firstSegment = requests.findIndex((p) => p.endsWith(".m4s"));
    expect(firstSegment).toBeGreaterThanOrEqual(0);
    // The stream's first segment goes out before the page's own modules are even asked for.
    expect(firstSegment).toBeLessThan(requests.indexOf(entry));
    const [lowest] = (await master()).variants.sort((a, b) => a.bandwidth - b.bandwidth);
    expect(requests[firstSegment]).toContain(`/stream/${N}/${lowest.height}p-`);
    // One MediaSource: the player adopted the early playback instead of starting a second one.
    expect(await page.evaluate(() => (window as unknown as MediaSourceLog).__mediaSources.length)).toBe(1);
    expect(await page.getAttribute(".player", "data-engine")).toBe("hlsjs");
    // The adopted playback reports to the player: 自动 shows the height in use.
    const quality = page.locator(".player-quality .player-menu-button");
    await expect.poll(() => quality.getAttribute("aria-label")).toMatch(/^清晰度：自动\(\d+P\)$/);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("without ?engine=, Chromium plays with hls.js where its own estimate of the link is fast, natively where it is slow", async () => {
    for (const [downlinkMbps, engine] of [
      [9, "hlsjs"],
      [1.6, "native"],
    ] as const) {
      const context = await browser().newContext({ viewport: PHONE });
      await context.addInitScript(countMediaSources);
      const { page, log } = await newPage(context);
      const mediaRequests: string[] = [];
      page.on("request", (req) => {
        if (req.resourceType() === "media") mediaRequests.push(new URL(req.url()).pathname);
      });
      // What the browser's network-quality estimator would say after some time on such a link.
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.overrideNetworkState", { offline: false, latency: 40, downloadThroughput: (downlinkMbps * 1e6) / 8, uploadThroughput: 1e6 / 8 });
      await page.goto(`${baseURL()}${PAGE}`);
      await waitForHydration(page);
      await waitPlaying(page, 1);
      expect(await page.getAttribute(".player", "data-engine"), `${downlinkMbps} Mbit/s`).toBe(engine);
      const sources = await page.evaluate(() => (window as unknown as MediaSourceLog).__mediaSources.length);
      if (engine === "hlsjs") {
        expect(await media(page, (v) => v.currentSrc)).toMatch(/^blob:/);
        expect(sources).toBe(1); // the early start, adopted by the player
        // The browser's own player never loaded the server's HLS <source> beside hls.js.
        expect(mediaRequests.filter((p) => p.startsWith("/stream/"))).toEqual([]);
      } else {
        expect(await media(page, (v) => new URL(v.currentSrc).pathname)).toBe(`/stream/${N}/master.m3u8`);
        expect(sources).toBe(0);
      }
      expect(log.errors).toEqual([]);
      await context.close();
    }
  });

  it("hlsjs: an early start the page does not keep (the series moves on to the episode last watched) is stopped", async () => {
    const context = await browser().newContext({ viewport: PHONE });
    await context.addInitScript(countMediaSources);
    await context.addInitScript(() => {
      const history = [{ id: "video_003", episode: 2, position: 20, duration: 60, updatedAt: Date.now() }];
      localStorage.setItem("yingshi:library", JSON.stringify({ favourites: [], history }));
    });
    const { page, log } = await newPage(context);
    await page.goto(`${baseURL()}/video/video_003?engine=hlsjs`);
    await waitForHydration(page);
    await page.waitForURL(/\/video\/video_003\/2/);
    await waitPlaying(page, 0.3);
    const sources = await page.evaluate(() => (window as unknown as MediaSourceLog).__mediaSources.map((m) => m.readyState));
    // Episode 1's early playback (the first MediaSource) was ended when episode 2's player started its own.
    expect(sources.length).toBe(2);
    expect(sources[0]).toBe("closed");
    expect(sources[1]).not.toBe("closed"); // "open", or "ended" once the short test clip is all in
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("playlists and WebVTT cross the wire compressed (brotli, else gzip) where accepted; the start path's two and segments as they are", async () => {
    const top = Math.max(...(await master()).variants.map((v) => v.height));
    expect(top).toBeGreaterThan(START_RENDITION_HEIGHT);
    const paths = [`/stream/${N}/${top}p.m3u8`, `/stream/${N}/storyboard.vtt`, `/stream/${N}/subtitles-zh-CN.vtt`, `/stream/${N}/subtitles-zh-CN.m3u8`];
    for (const path of paths) {
      const plain = await rawGet(path, {});
      expect(plain.headers["content-encoding"], path).toBeUndefined();
      // The bytes on the wire are brotli or gzip (1f 8b), and they decode to the file itself.
      const br = await rawGet(path, { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(br.headers["content-encoding"], path).toBe("br");
      expect(br.headers.vary, path).toContain("Accept-Encoding");
      expect(zlib.brotliDecompressSync(br.body).equals(plain.body), path).toBe(true);
      const gzip = await rawGet(path, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"], path).toBe("gzip");
      expect([...gzip.body.subarray(0, 2)], path).toEqual([0x1f, 0x8b]);
      expect(zlib.gunzipSync(gzip.body).equals(plain.body), path).toBe(true);
    }
    // The master and the start rendition's playlist: Chromium's own player re-reads the page's
    // preloads of them by byte range from its cache, which needs the identity bytes.
    for (const path of [`/stream/${N}/master.m3u8`, `/stream/${N}/${START_RENDITION_HEIGHT}p.m3u8`]) {
      const start = await rawGet(path, { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(start.headers["content-encoding"], path).toBeUndefined();
      expect(start.body.length, path).toBe(Number(start.headers["content-length"]));
    }
    const playlist = (await rawGet(`/stream/${N}/${START_RENDITION_HEIGHT}p.m3u8`, {})).body.toString("utf8");
    const segment = playlist.split("\n").find((line) => line.endsWith(".m4s")) ?? "";
    const media = await rawGet(`/stream/${N}/${segment}`, { "accept-encoding": "gzip" });
    expect(media.headers["content-encoding"]).toBeUndefined();
    expect(media.body.length).toBe(Number(media.headers["content-length"]));
  });

  it("a broken master playlist falls back to the progressive MP4 (both engines)", async () => {
    for (const engine of ["native", "hlsjs"]) {
      const context = await browser().newContext();
      await context.route(`**/stream/${N}/master.m3u8`, (route) =>
        route.fulfill({ status: 200, contentType: "application/vnd.apple.mpegurl", body: "这不是播放列表\n" }),
      );
      const { page, log } = await newPage(context);
      await page.goto(`${baseURL()}${PAGE}?engine=${engine}`);
      await waitForHydration(page);
      await waitPlaying(page, 0.3);
      expect(await media(page, (v) => new URL(v.currentSrc).pathname)).toBe(`/${N}.mp4`);
      expect(await page.getAttribute(".player", "data-engine")).toBe("progressive");
      expect(new URL(page.url()).pathname).toBe(PAGE); // not sent to another video
      expect(log.errors).toEqual([]);
      await context.close();
    }
  });
});
