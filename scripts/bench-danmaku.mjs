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
const OVERLAY_COMMENTS = 130;
const MEASURE_MS = 3000;

/** @typedef {import("../shared/danmaku/model").ServerMessage} ServerMessage */
/** @typedef {{ deltas: number[], onScreen: number[] }} Frames */

/**
 * The main thread's task time so far (s), from the CDP Performance metrics.
 * @param {import("playwright-core").CDPSession} cdp
 */
async function taskDuration(cdp) {
  const metric = (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration");
  if (!metric) throw new Error("no TaskDuration metric");
  return metric.value;
}

/**
 * Frame times of the overlay with many comments on screen, 4× CPU slowdown.
 * @param {string} base
 */
async function overlayFrames(base) {
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
    await page.goto(`${base}/video/${VIDEO}`);
    const room = await roomReady;
    await page.evaluate(async () => {
      const video = /** @type {HTMLVideoElement} */ (document.querySelector("video"));
      video.muted = true;
      video.loop = true;
      await video.play().catch(() => {});
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const words = ["前方高能", "哈哈哈哈哈哈", "名场面", "这段配乐绝了", "打卡", "泪目了家人们", "弹幕护体"];
    for (let i = 0; i < OVERLAY_COMMENTS; i++) {
      const comment = {
        id: i + 1,
        time: 0,
        text: `${words[i % words.length]}${i}`,
        mode: i % 10 === 0 ? "top" : "scroll",
        color: "#ffffff",
        author: "bench",
        created: Date.now(),
      };
      room.send(JSON.stringify({ type: "comment", comment }));
      await new Promise((r) => setTimeout(r, 40));
    }
    const taskBefore = await taskDuration(cdp);
    const frames = await page.evaluate(
      (ms) =>
        /** @type {Promise<Frames>} */ (
          new Promise((resolve) => {
            /** @type {number[]} */
            const deltas = [];
            /** @type {number[]} */
            const onScreen = [];
            let last = performance.now();
            const end = last + ms;
            /** @param {number} now */
            const step = (now) => {
              deltas.push(now - last);
              onScreen.push(document.querySelectorAll(".danmaku-item").length);
              last = now;
              if (now < end) requestAnimationFrame(step);
              else resolve({ deltas, onScreen });
            };
            requestAnimationFrame(step);
          })
        ),
      MEASURE_MS,
    );
    const taskAfter = await taskDuration(cdp);
    const sorted = [...frames.deltas].sort((a, b) => a - b);
    return {
      overlayOnScreenMin: Math.min(...frames.onScreen),
      overlayOnScreenMax: Math.max(...frames.onScreen),
      overlayFps: Number((1000 / (frames.deltas.reduce((a, b) => a + b, 0) / frames.deltas.length)).toFixed(1)),
      overlayFrameP50Ms: Number(percentile(sorted, 50)?.toFixed(1)),
      overlayFrameP99Ms: Number(percentile(sorted, 99)?.toFixed(1)),
      overlayMainThreadPerFrameMs: Number((((taskAfter - taskBefore) * 1000) / frames.deltas.length).toFixed(2)),
    };
  } finally {
    await browser.close();
  }
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
} finally {
  await site.stop();
}
