#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench:danmaku`: serves the site locally (wrangler dev, as `npm start`), opens
 * CLIENTS WebSockets to one 弹幕 room (signed out, read only), lets a few signed-in posters
 * send comments over their own sockets and prints the fan-out latency (post sent → comment
 * received by each client) as p50/p99, plus the time to open the room's sockets. Then the
 * overlay in Debian's Chromium under a 4× CPU slowdown (CDP): the room's socket is replaced
 * (page.routeWebSocket) by one that sends OVERLAY_COMMENTS comments, and the frame times
 * (requestAnimationFrame) and the main thread's task time per frame (CDP Performance metrics)
 * are measured while they cross the screen. Writes bench-results/danmaku.json.
 *
 *   npm run bench:danmaku                  200 clients, 40 comments
 *   BENCH_CLIENTS=50 npm run bench:danmaku
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import WebSocket from "ws";
import { parseJson } from "./json.mjs";
import { startLocalSite } from "./local-site.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.BENCH_PORT ?? 8798);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const POSTERS = 10;
const POSTS = 40;
/** Between two posts (ms): each poster sends every POSTERS × GAP ms, above the 2 s rate limit. */
const GAP = 260;
const VIDEO = "video_002";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Comments on screen while the overlay is measured, and the gap between two sent comments (ms). */
const OVERLAY_TARGET = 100;
const SEND_GAP_MS = 70;
const MEASURE_MS = 3000;

/** @typedef {import("../shared/danmaku/model").ServerMessage} ServerMessage */
/** @typedef {{ deltas: number[], onScreen: number[] }} Frames */
/** @typedef {{ name: string, ph: string, pid: number, tid: number, ts: number, dur?: number, tdur?: number, args?: { name?: string } }} TraceEvent */

/**
 * Records a trace of the page while `during` runs; returns the main thread's CPU time (ms, the
 * `tdur` of its top-level tasks: not inflated by other processes on the machine), the number
 * of frames the compositor drew and the intervals between them (ms).
 * @param {import("playwright-core").CDPSession} cdp
 * @param {() => Promise<Frames>} during
 */
async function traced(cdp, during) {
  /** @type {TraceEvent[]} */
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(.../** @type {TraceEvent[]} */ (/** @type {unknown} */ (e.value))));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,toplevel,viz", transferMode: "ReportEvents" });
  const frames = await during();
  await cdp.send("Tracing.end");
  await complete;
  /** @type {Map<string, string>} */
  const threads = new Map();
  for (const e of events) if (e.name === "thread_name" && e.args?.name) threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const main = events.filter((e) => e.ph === "X" && e.name === "RunTask" && threads.get(`${e.pid}:${e.tid}`) === "CrRendererMain");
  const mainCpuMs = main.reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0), 0) / 1000;
  if (process.env.BENCH_DEBUG) console.log([...new Set(threads.values())], events.filter((e) => e.name === "RunTask").slice(0, 3));
  const draws = events
    .filter((e) => e.name === "Display::DrawAndSwap")
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const drawIntervals = draws.slice(1).map((ts, i) => (ts - draws[i]) / 1000);
  return { frames, mainCpuMs, drawn: draws.length, drawIntervals };
}

/**
 * The detail page playing under a 4× CPU slowdown (CDP), measured for MEASURE_MS: without the
 * 弹幕 code (`withOverlay` false: its chunk is refused) or with a stream of comments sent by a
 * stand-in room socket (page.routeWebSocket) keeping about OVERLAY_TARGET of them on screen.
 * @param {string} base
 * @param {boolean} withOverlay
 */
async function overlayPass(base, withOverlay) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--autoplay-policy=no-user-gesture-required"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(() => {
      localStorage.setItem("yingshi-danmaku", JSON.stringify({ on: true, opacity: 1, area: "full", density: "high", fontSize: "small", blocked: [] }));
    });
    const page = await context.newPage();
    /** @type {Promise<import("playwright-core").WebSocketRoute>} */
    const roomReady = new Promise((resolve) => {
      void page.routeWebSocket(/\/api\/danmaku\//, (ws) => {
        ws.send(JSON.stringify({ type: "hello", canPost: false, last: 0 }));
        resolve(ws);
      });
    });
    await page.route(/\/api\/danmaku\/video_\d+(\?|$)/, (route) => route.fulfill({ json: { comments: [] } }));
    if (!withOverlay) await page.route(/\/assets\/Danmaku-[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${base}/video/${VIDEO}`);
    const room = withOverlay ? await roomReady : null;
    await page.evaluate(async () => {
      const video = /** @type {HTMLVideoElement} */ (document.querySelector("video"));
      video.muted = true;
      video.loop = true;
      video.currentTime = 0; // the local clips last 20 s: measure before the loop's seek clears the stage
      await video.play().catch(() => {});
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const words = ["前方高能", "哈哈哈哈哈哈", "名场面", "这段配乐绝了", "打卡", "泪目了家人们", "弹幕护体"];
    let sending = true;
    let id = 0;
    const send = async () => {
      while (sending && room) {
        const i = id++;
        const mode = i % 12 === 0 ? "top" : i % 12 === 6 ? "bottom" : "scroll";
        const comment = { id: i + 1, time: 0, text: `${words[i % words.length]}${i}`, mode, color: "#ffffff", author: "bench", created: Date.now() };
        room.send(JSON.stringify({ type: "comment", comment }));
        await new Promise((r) => setTimeout(r, SEND_GAP_MS));
      }
    };
    const sender = send();
    if (room)
      await page
        .waitForFunction((n) => document.querySelectorAll(".danmaku-layer .danmaku-item").length >= n, OVERLAY_TARGET, { timeout: 30_000, polling: 200 })
        .catch(() => console.warn(`fewer than ${OVERLAY_TARGET} comments on screen after 30 s: measuring anyway`));
    // First the page with nothing of the bench's running in it (no rAF loop, which makes the main
    // thread produce a frame every vsync): what a viewer's page does while comments cross.
    const onScreen = () => page.evaluate(() => document.querySelectorAll(".danmaku-layer .danmaku-item").length);
    const passive = await traced(cdp, async () => {
      const first = await onScreen();
      await new Promise((r) => setTimeout(r, MEASURE_MS));
      return { deltas: [], onScreen: [first, await onScreen()] };
    });
    const { frames, mainCpuMs, drawn } = await traced(cdp, () =>
      page.evaluate(
        (ms) =>
          /** @type {Promise<Frames>} */ (
            new Promise((resolve) => {
              /** @type {number[]} */
              const deltas = [];
              /** @type {number[]} */
              const onScreen = [];
              const items = document.getElementsByClassName("danmaku-item");
              let last = performance.now();
              const end = last + ms;
              /** @param {number} now */
              const step = (now) => {
                deltas.push(now - last);
                onScreen.push(items.length);
                last = now;
                if (now < end) requestAnimationFrame(step);
                else resolve({ deltas, onScreen });
              };
              requestAnimationFrame(step);
            })
          ),
        MEASURE_MS,
      ),
    );
    sending = false;
    await sender;
    const seconds = frames.deltas.reduce((a, b) => a + b, 0) / 1000;
    const sorted = [...frames.deltas].sort((a, b) => a - b);
    const passiveSeconds = MEASURE_MS / 1000;
    const intervals = [...passive.drawIntervals].sort((a, b) => a - b);
    return {
      passiveOnScreen: passive.frames.onScreen,
      passiveCompositorFps: Number((passive.drawn / passiveSeconds).toFixed(1)),
      passiveDrawIntervalP50Ms: Number(percentile(intervals, 50)?.toFixed(1)),
      passiveDrawIntervalP95Ms: Number(percentile(intervals, 95)?.toFixed(1)),
      passiveMainCpuMsPerFrame60: Number((passive.mainCpuMs / passiveSeconds / 60).toFixed(2)),
      onScreenMin: Math.min(...frames.onScreen),
      onScreenMax: Math.max(...frames.onScreen),
      mainThreadFps: Number((frames.deltas.length / seconds).toFixed(1)),
      frameP50Ms: Number(percentile(sorted, 50)?.toFixed(1)),
      frameP99Ms: Number(percentile(sorted, 99)?.toFixed(1)),
      compositorFps: Number((drawn / seconds).toFixed(1)),
      /** Main-thread CPU time (unthrottled) per second and per 60 Hz frame. */
      mainCpuMsPerS: Number((mainCpuMs / seconds).toFixed(1)),
      mainCpuMsPerFrame60: Number((mainCpuMs / seconds / 60).toFixed(2)),
    };
  } finally {
    await browser.close();
  }
}

/**
 * The overlay's cost: the page without it, then with about OVERLAY_TARGET comments on screen.
 * @param {string} base
 */
async function overlayFrames(base) {
  const without = await overlayPass(base, false);
  const withOverlay = await overlayPass(base, true);
  const extraPerFrame = withOverlay.mainCpuMsPerFrame60 - without.mainCpuMsPerFrame60;
  return {
    /** Without the bench's rAF loop: comments on screen (start, end), compositor frames, main-thread CPU. */
    passiveOnScreen: withOverlay.passiveOnScreen.join("→"),
    passiveCompositorFps: withOverlay.passiveCompositorFps,
    passiveBaselineCompositorFps: without.passiveCompositorFps,
    passiveDrawIntervalP50Ms: withOverlay.passiveDrawIntervalP50Ms,
    passiveDrawIntervalP95Ms: withOverlay.passiveDrawIntervalP95Ms,
    passiveMainCpuMsPerFrame: withOverlay.passiveMainCpuMsPerFrame60,
    passiveBaselineMainCpuMsPerFrame: without.passiveMainCpuMsPerFrame60,
    /** With a rAF loop in the page (a main-thread frame every vsync). */
    overlayOnScreenMin: withOverlay.onScreenMin,
    overlayOnScreenMax: withOverlay.onScreenMax,
    overlayCompositorFps: withOverlay.compositorFps,
    baselineCompositorFps: without.compositorFps,
    overlayMainThreadFps: withOverlay.mainThreadFps,
    baselineMainThreadFps: without.mainThreadFps,
    overlayFrameP50Ms: withOverlay.frameP50Ms,
    overlayFrameP99Ms: withOverlay.frameP99Ms,
    overlayMainCpuMsPerFrame: withOverlay.mainCpuMsPerFrame60,
    baselineMainCpuMsPerFrame: without.mainCpuMsPerFrame60,
    /** What the overlay adds to each 60 Hz frame, in unthrottled CPU ms and under the 4× slowdown. */
    overlayExtraCpuMsPerFrame: Number(extraPerFrame.toFixed(2)),
    overlayExtraMsPerFrameAt4x: Number((extraPerFrame * 4).toFixed(2)),
  };
}

/**
 * @param {number[]} sorted
 * @param {number} p
 * @returns {number | undefined} undefined when there is no sample
 */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * @param {string} base
 * @param {number} i
 */
async function signUp(base, i) {
  const email = `bench-${Date.now().toString(36)}-${i}@example.com`;
  const res = await fetch(`${base}/api/auth/sign-up`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, "CF-Connecting-IP": `2001:db8:be:${i.toString(16)}::1` },
    body: JSON.stringify({ email, password: "bench-secret-1", confirmPassword: "bench-secret-1" }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * A socket to the room, once the room's hello has arrived.
 * @param {string} base
 * @param {string | null} cookie
 * @returns {Promise<WebSocket>}
 */
function open(base, cookie) {
  const url = `${base.replace(/^http/, "ws")}/api/danmaku/${VIDEO}/ws`;
  const ws = new WebSocket(url, { headers: { Origin: base, ...(cookie ? { Cookie: cookie } : {}) } });
  return new Promise((resolve, reject) => {
    ws.once("message", () => resolve(ws)); // the room's hello
    ws.once("error", reject);
  });
}

const site = await startLocalSite({ port: PORT });
try {
  const base = site.baseURL;
  if (process.env.BENCH_PART === "overlay") console.table(await overlayFrames(base));
  else await fanout(base);
} finally {
  await site.stop();
}

/**
 * The fan-out part, then the overlay part; writes bench-results/danmaku.json.
 * @param {string} base
 */
async function fanout(base) {
  const cookies = await Promise.all(Array.from({ length: POSTERS }, (_, i) => signUp(base, i)));
  const posters = await Promise.all(cookies.map((c) => open(base, c)));

  const t0 = performance.now();
  /** @type {WebSocket[]} */
  const clients = [];
  for (let i = 0; i < CLIENTS; i += 20) clients.push(...(await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, () => open(base, null)))));
  const connectMs = performance.now() - t0;

  /** @type {Map<string, number>} */
  const sentAt = new Map();
  /** @type {number[]} */
  const latencies = [];
  let received = 0;
  const expected = POSTS * CLIENTS;
  /** @type {(value: void) => void} */
  let done = () => {};
  /** @type {Promise<void>} */
  const all = new Promise((resolve) => (done = resolve));
  for (const ws of clients) {
    ws.on("message", (data) => {
      const now = performance.now();
      const message = /** @type {ServerMessage} */ (parseJson(String(data)));
      if (message.type !== "comment") return;
      const start = sentAt.get(message.comment.text);
      if (start === undefined) return;
      latencies.push(now - start);
      if (++received === expected) done();
    });
  }
  /** @type {string[]} */
  const errors = [];
  for (const ws of posters)
    ws.on("message", (data) => {
      const message = /** @type {ServerMessage} */ (parseJson(String(data)));
      if (message.type === "error") errors.push(message.message);
    });
  for (let i = 0; i < POSTS; i++) {
    const text = `bench-${i}-${Date.now()}`;
    sentAt.set(text, performance.now());
    posters[i % POSTERS].send(JSON.stringify({ type: "post", nonce: String(i), time: i, text }));
    await new Promise((r) => setTimeout(r, GAP));
  }
  await Promise.race([all, new Promise((r) => setTimeout(r, 10_000))]);
  latencies.sort((a, b) => a - b);
  for (const ws of [...clients, ...posters]) ws.close();
  const overlay = await overlayFrames(base);
  const result = {
    clients: CLIENTS,
    posts: POSTS,
    delivered: `${received}/${expected}`,
    refusedPosts: errors.length,
    connectAllMs: Math.round(connectMs),
    fanoutP50Ms: Number(percentile(latencies, 50)?.toFixed(1)),
    fanoutP99Ms: Number(percentile(latencies, 99)?.toFixed(1)),
    fanoutMaxMs: Number(latencies.at(-1)?.toFixed(1)),
    ...overlay,
  };
  console.table(result);
  fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench-results/danmaku.json"), JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2) + "\n");
}
