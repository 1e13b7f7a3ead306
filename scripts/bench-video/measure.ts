/**
 * One playback measurement in Chromium behind a throttled link: the detail page of a title with
 * a forced engine (`?engine=native|hlsjs|progressive`), from navigation to 45 s of playback, then
 * a seek to 80 %. The link is either the bench front's shared bottleneck (scripts/throttle.mjs,
 * set up by the caller before each page) or Chromium's CDP network emulation. Used by
 * scripts/bench-video/run.ts (`npm run bench:video`).
 */
import type { Browser } from "playwright-core";
import { recordScripts, throttledPage } from "./page";

export interface NetworkProfile {
  name: string;
  /** Download and upload, bits per second. */
  downBps: number;
  upBps: number;
  /** Round trip added to every request, ms. */
  rttMs: number;
}

/** The three links of the streaming issue. */
export const PROFILES: readonly NetworkProfile[] = [
  { name: "fast 4G", downBps: 9_000_000, upBps: 1_500_000, rttMs: 40 },
  { name: "slow 4G", downBps: 1_600_000, upBps: 750_000, rttMs: 150 },
  { name: "3G", downBps: 750_000, upBps: 250_000, rttMs: 300 },
];

/** A forced engine (`?engine=`), or "auto": the page's own choice (shared/playback/engine-choice.ts, chooseEngine). */
export type Engine = "native" | "hlsjs" | "progressive" | "auto";

export interface PlaybackFigures {
  engine: Engine;
  profile: string;
  /**
   * Navigation start → the first video frame of playback presented for display: the first
   * requestVideoFrameCallback after the first `playing` event (its presentationTime), ms. Falls
   * back to the `playing` event where that callback never came (noted in `frameSource`).
   */
  firstFrameMs: number | null;
  frameSource: "rvfc" | "playing" | null;
  /** Navigation start → the first `playing` event, ms. */
  firstPlayingMs: number | null;
  /** Navigation start → the page hydrated (<html data-hydrated>), ms. */
  hydratedMs: number | null;
  /** First frame minus hydration, ms: negative when the frame came before the page's JavaScript ran. */
  firstFrameVsHydrationMs: number | null;
  /** `waiting` events after the first frame within the first 45 s of playback. */
  stalls: number;
  stallMs: number;
  /** Bytes received in the first 30 s after navigation: media (playlists, segments, MP4) and all. */
  mediaBytes30s: number;
  totalBytes30s: number;
  /** Seek to 80 % → playing again (time advancing), ms; null when it never resumed. */
  seekResumeMs: number | null;
  /**
   * 线路 failover (docs/decisions/0086-play-lines.md): 线路1's segments start failing, the player is
   * sent to a part it has not buffered, and this is the time from that seek to playing there again
   * on 线路2 (the notice shown, time advancing), ms; null when the title has one line, the engine is
   * the MP4, or it never resumed.
   */
  failoverMs: number | null;
  /** Highest decoded height seen, and the height at the end of the 45 s. */
  maxHeight: number;
  endHeight: number;
  /** hls.js chunk bytes fetched (0 when not loaded). */
  hlsJsBytes: number;
  /**
   * The JavaScript the page loaded without interaction through its 45 s of playback (by then the
   * network would long have been idle but for the stream): gzip -9 bytes of every script file,
   * hls.js left out where the page chose it to play (tests/e2e/js-budget-idle.test.ts counts the
   * same by network idle). `jsFiles`: how many files.
   */
  jsGzipBytes: number;
  jsFiles: number;
  /**
   * Height of the rendition the second segment (sequence 1) was first fetched from: the engine's
   * first ABR step. Chromium's native HLS shows its first frame only once that fetch is done
   * (docs/decisions/0055-stream-start-preloads.md), so on fast links it explains the spread. Null
   * for the MP4.
   */
  secondSegmentHeight: number | null;
  /** The engine the player ran (its data-engine): for "auto", the page's own choice. */
  engineUsed: string;
  /** Every request of the first 30 s, in the order they started (`waterfall` option). */
  waterfall?: WaterfallEntry[];
}

/** One request as the browser saw it, times in ms from the document's request. */
export interface WaterfallEntry {
  url: string;
  type: string;
  priority: string;
  start: number;
  /** Response headers received. */
  response: number | null;
  end: number | null;
  bytes: number;
  failed: boolean;
}

export interface MeasureOptions {
  /** "front": the caller has set the front's link for this page; "cdp": Chromium emulates the link. */
  throttle: "front" | "cdp";
  /** Record each request's start and end. */
  waterfall?: boolean;
}

/**
 * In-page probe: records media events on the page's <video> (capture phase on the document), the
 * first frame presented after playback starts (requestVideoFrameCallback: a decoded frame handed
 * to the compositor, not merely a request or an event) and the moment the page is hydrated.
 */
const PROBE = () => {
  const w = window as unknown as { __vb: { events: Array<[string, number]>; heights: number[] } };
  w.__vb = { events: [], heights: [] };
  let framed = false;
  for (const type of ["playing", "waiting", "seeking", "seeked", "timeupdate", "error"]) {
    document.addEventListener(
      type,
      (e) => {
        if (!(e.target instanceof HTMLVideoElement)) return;
        const v = e.target;
        w.__vb.events.push([type === "timeupdate" ? `t:${v.currentTime.toFixed(2)}` : type, performance.now()]);
        if (type === "playing" && !framed && "requestVideoFrameCallback" in v) {
          framed = true;
          v.requestVideoFrameCallback((_now, meta) => w.__vb.events.push(["frame", meta.presentationTime]));
        }
      },
      true,
    );
  }
  new MutationObserver(() => {
    if (document.documentElement?.dataset.hydrated === "true" && !w.__vb.events.some(([t]) => t === "hydrated"))
      w.__vb.events.push(["hydrated", performance.now()]);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-hydrated"] });
  setInterval(() => {
    const v = document.querySelector("video");
    if (v && v.videoHeight) w.__vb.heights.push(v.videoHeight);
  }, 250);
};

const WATCH_MS = Number(process.env.BENCH_WATCH_MS ?? 45_000);
const BYTES_WINDOW_MS = 30_000;

export async function measurePlayback(
  browser: Browser,
  url: string,
  engine: Engine,
  profile: NetworkProfile,
  options: MeasureOptions,
): Promise<PlaybackFigures> {
  const { context, page, cdp } = await throttledPage(browser, profile, options.throttle, { viewport: { width: 412, height: 915 }, deviceScaleFactor: 2 }, [
    PROBE,
  ]);
  // The JavaScript the page loads without interaction, up to the end of the 45 s of playback (before the seek).
  const scripts = recordScripts(cdp);
  const urls = new Map<string, string>();
  let mediaBytes = 0;
  let totalBytes = 0;
  let hlsJsBytes = 0;
  let windowOpen = true;
  // CDP timestamps are seconds on the browser's monotonic clock; the document's request is 0.
  let origin: number | null = null;
  const since = (timestamp: number) => Math.round((timestamp - (origin ?? timestamp)) * 1000);
  const requests = new Map<string, WaterfallEntry>();
  let secondSegmentHeight: number | null = null;
  cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string; initialPriority?: string }; timestamp: number; type?: string }) => {
    urls.set(e.requestId, e.request.url);
    const second = /\/stream\/[0-9]+\/([0-9]+)p-[0-9a-f]{8}-00001\.m4s$/.exec(new URL(e.request.url).pathname);
    if (second && secondSegmentHeight === null) secondSegmentHeight = Number(second[1]);
    origin ??= e.timestamp;
    if (options.waterfall && windowOpen && !requests.has(e.requestId))
      requests.set(e.requestId, {
        url: e.request.url,
        type: e.type ?? "",
        priority: e.request.initialPriority ?? "",
        start: since(e.timestamp),
        response: null,
        end: null,
        bytes: 0,
        failed: false,
      });
  });
  cdp.on("Network.responseReceived", (e: { requestId: string; timestamp: number }) => {
    const entry = requests.get(e.requestId);
    if (entry) entry.response = since(e.timestamp);
  });
  cdp.on("Network.loadingFinished", (e: { requestId: string; timestamp: number; encodedDataLength: number }) => {
    const entry = requests.get(e.requestId);
    if (entry) {
      entry.end = since(e.timestamp);
      entry.bytes = e.encodedDataLength;
    }
  });
  cdp.on("Network.loadingFailed", (e: { requestId: string; timestamp: number }) => {
    const entry = requests.get(e.requestId);
    if (entry) {
      entry.end = since(e.timestamp);
      entry.failed = true;
    }
  });
  cdp.on("Network.dataReceived", (e: { requestId: string; encodedDataLength: number; dataLength: number }) => {
    const u = urls.get(e.requestId) ?? "";
    const n = e.encodedDataLength || e.dataLength;
    if (/hls\.light/.test(u)) hlsJsBytes += n;
    if (!windowOpen) return;
    totalBytes += n;
    if (/\/stream\/|\.mp4(\?|$)/.test(u)) mediaBytes += n;
  });
  const closeWindow = setTimeout(() => (windowOpen = false), BYTES_WINDOW_MS);

  await page.goto(engine === "auto" ? url : `${url}${url.includes("?") ? "&" : "?"}engine=${engine}`, { waitUntil: "commit" });
  await page.waitForFunction(() => document.documentElement?.dataset.hydrated === "true", undefined, { timeout: 120_000 });

  type Probe = { __vb: { events: Array<[string, number]> } };
  const eventAt = (name: string) => page.evaluate((n) => (window as unknown as Probe).__vb.events.find(([t]) => t === n)?.[1] ?? null, name);
  const waitEvent = (name: string, timeout: number) =>
    page
      .waitForFunction((n) => (window as unknown as Probe).__vb.events.some(([t]) => t === n), name, { timeout })
      .then(
        () => true,
        () => false,
      );
  // Wait for playback and its first presented frame, then 45 s of playback.
  await waitEvent("playing", 120_000);
  await waitEvent("frame", 5_000);
  const hydratedAt = await eventAt("hydrated");
  const firstPlaying = await eventAt("playing");
  const firstFrame = (await eventAt("frame")) ?? firstPlaying;
  if (firstPlaying !== null) await page.waitForTimeout(Math.max(0, firstPlaying + WATCH_MS - (await page.evaluate(() => performance.now()))));

  const watched = await page.evaluate(
    ({ start, watch }) => {
      const vb = (window as unknown as { __vb: { events: Array<[string, number]>; heights: number[] } }).__vb;
      let stalls = 0;
      let stallMs = 0;
      let since: number | null = null;
      for (const [type, at] of vb.events) {
        if (start === null || at < start || at > start + watch) continue;
        if (type === "waiting" && since === null) {
          stalls++;
          since = at;
        } else if ((type === "playing" || type === "seeked") && since !== null) {
          stallMs += at - since;
          since = null;
        }
      }
      if (since !== null && start !== null) stallMs += start + watch - since;
      const v = document.querySelector("video");
      return { stalls, stallMs, maxHeight: Math.max(0, ...vb.heights), endHeight: v?.videoHeight ?? 0 };
    },
    { start: firstPlaying, watch: WATCH_MS },
  );

  scripts.stop();

  // Seek to 80 % and wait until time moves past the target again.
  const seekResumeMs = await page
    .evaluate(async () => {
      const v = document.querySelector("video");
      if (!v || !(v.duration > 0)) return null;
      const target = v.duration * 0.8;
      const t0 = performance.now();
      v.currentTime = target;
      if (v.paused) void v.play().catch(() => {});
      return await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), 30_000);
        const check = () => {
          if (v.currentTime > target + 0.05 && !v.paused) {
            clearTimeout(timer);
            v.removeEventListener("timeupdate", check);
            resolve(performance.now() - t0);
          }
        };
        v.addEventListener("timeupdate", check);
      });
    })
    .catch((error: unknown) => {
      console.warn(`seek: ${String(error)}`);
      return null;
    });

  // 线路 failover: 线路1 fails from now on (the mirror's /mirror/stream/ is untouched); play an unbuffered part.
  let failoverMs: number | null = null;
  if (engine !== "progressive" && (await page.locator(".player-line").count()) > 0) {
    await page.route(/\/stream\/[0-9]+\/[^/]+\.m4s$/, (route) =>
      new URL(route.request().url()).pathname.startsWith("/mirror/") ? route.fallback() : route.abort("failed"),
    );
    failoverMs = await page
      .evaluate(async () => {
        const v = document.querySelector("video");
        if (!v || !(v.duration > 0)) return null;
        const buffered = (t: number) =>
          Array.from({ length: v.buffered.length }, (_, i) => [v.buffered.start(i), v.buffered.end(i)]).some(([a, b]) => a <= t && t < b);
        const target = [0.05, 0.15, 0.3, 0.5].map((f) => v.duration * f).find((t) => !buffered(t)) ?? v.duration * 0.05;
        const t0 = performance.now();
        v.currentTime = target;
        if (v.paused) void v.play().catch(() => {});
        return await new Promise<number | null>((resolve) => {
          const timer = setTimeout(() => resolve(null), 30_000);
          const check = () => {
            if (v.currentTime > target + 0.05 && !v.paused && document.querySelector(".player-notice")) {
              clearTimeout(timer);
              clearInterval(poll);
              resolve(performance.now() - t0);
            }
          };
          const poll = setInterval(check, 50);
        });
      })
      .catch((error: unknown) => {
        console.warn(`failover: ${String(error)}`);
        return null;
      });
  }

  clearTimeout(closeWindow);
  // The engine the player ran, read once the player island has surely hydrated (after the 45 s).
  const engineUsed = (await page.getAttribute(".player", "data-engine")) ?? "";
  const js = await scripts.count(engineUsed === "hlsjs");
  await context.close();
  return {
    engine,
    profile: profile.name,
    firstFrameMs: firstFrame === null ? null : Math.round(firstFrame),
    frameSource: firstFrame === null ? null : firstFrame === firstPlaying ? "playing" : "rvfc",
    firstPlayingMs: firstPlaying === null ? null : Math.round(firstPlaying),
    hydratedMs: hydratedAt === null ? null : Math.round(hydratedAt),
    firstFrameVsHydrationMs: firstFrame === null || hydratedAt === null ? null : Math.round(firstFrame - hydratedAt),
    stalls: watched.stalls,
    stallMs: Math.round(watched.stallMs),
    mediaBytes30s: mediaBytes,
    totalBytes30s: totalBytes,
    seekResumeMs: seekResumeMs === null ? null : Math.round(seekResumeMs),
    failoverMs: failoverMs === null ? null : Math.round(failoverMs),
    maxHeight: watched.maxHeight,
    endHeight: watched.endHeight,
    hlsJsBytes,
    jsGzipBytes: js.gzipBytes,
    jsFiles: js.files,
    secondSegmentHeight,
    engineUsed,
    waterfall: options.waterfall ? [...requests.values()].sort((a, b) => a.start - b.start) : undefined,
  };
}

/** Median of the numbers (nulls count as the worst: Infinity, shown as null when they win). */
export function median(values: ReadonlyArray<number | null>): number | null {
  if (values.length === 0) return null;
  const sorted = values.map((v) => v ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const m = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return Number.isFinite(m) ? m : null;
}
