#!/usr/bin/env node
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

/** Frame times of the overlay with many comments on screen, 4× CPU slowdown. */
async function overlayFrames(base) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--autoplay-policy=no-user-gesture-required"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(() => {
      localStorage.setItem("yingshi-danmaku", JSON.stringify({ on: true, opacity: 1, area: "full", density: "high", fontSize: "small", blocked: [] }));
    });
    const page = await context.newPage();
    let room;
    const roomReady = new Promise((resolve) => {
      void page.routeWebSocket(/\/api\/danmaku\//, (ws) => {
        room = ws;
        ws.send(JSON.stringify({ type: "hello", canPost: false, last: 0 }));
        resolve();
      });
    });
    await page.route(/\/api\/danmaku\/video_\d+(\?|$)/, (route) => route.fulfill({ json: { comments: [] } }));
    await page.goto(`${base}/video/${VIDEO}`);
    await roomReady;
    await page.evaluate(async () => {
      const video = document.querySelector("video");
      video.muted = true;
      video.loop = true;
      await video.play().catch(() => {});
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const words = ["前方高能", "哈哈哈哈哈哈", "名场面", "这段配乐绝了", "打卡", "泪目了家人们", "弹幕护体"];
    for (let i = 0; i < OVERLAY_COMMENTS; i++) {
      const comment = { id: i + 1, time: 0, text: `${words[i % words.length]}${i}`, mode: i % 10 === 0 ? "top" : "scroll", color: "#ffffff", author: "bench", created: Date.now() };
      room.send(JSON.stringify({ type: "comment", comment }));
      await new Promise((r) => setTimeout(r, 40));
    }
    const taskBefore = (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
    const frames = await page.evaluate(
      (ms) =>
        new Promise((resolve) => {
          const deltas = [];
          const onScreen = [];
          let last = performance.now();
          const end = last + ms;
          const step = (now) => {
            deltas.push(now - last);
            onScreen.push(document.querySelectorAll(".danmaku-item").length);
            last = now;
            if (now < end) requestAnimationFrame(step);
            else resolve({ deltas, onScreen });
          };
          requestAnimationFrame(step);
        }),
      MEASURE_MS,
    );
    const taskAfter = (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
    const sorted = [...frames.deltas].sort((a, b) => a - b);
    return {
      overlayOnScreenMin: Math.min(...frames.onScreen),
      overlayOnScreenMax: Math.max(...frames.onScreen),
      overlayFps: Number((1000 / (frames.deltas.reduce((a, b) => a + b, 0) / frames.deltas.length)).toFixed(1)),
      overlayFrameP50Ms: Number(percentile(sorted, 50).toFixed(1)),
      overlayFrameP99Ms: Number(percentile(sorted, 99).toFixed(1)),
      overlayMainThreadPerFrameMs: Number((((taskAfter - taskBefore) * 1000) / frames.deltas.length).toFixed(2)),
    };
  } finally {
    await browser.close();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function signUp(base, i) {
  const email = `bench-${Date.now().toString(36)}-${i}@example.com`;
  const res = await fetch(`${base}/api/auth/sign-up`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, "CF-Connecting-IP": `2001:db8:be:${i.toString(16)}::1` },
    body: JSON.stringify({ email, password: "bench-secret-1", confirmPassword: "bench-secret-1" }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

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
  const clients = [];
  for (let i = 0; i < CLIENTS; i += 20) clients.push(...(await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, () => open(base, null)))));
  const connectMs = performance.now() - t0;

  const sentAt = new Map();
  const latencies = [];
  let received = 0;
  const expected = POSTS * CLIENTS;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  for (const ws of clients) {
    ws.on("message", (data) => {
      const now = performance.now();
      const message = JSON.parse(String(data));
      if (message.type !== "comment") return;
      const start = sentAt.get(message.comment.text);
      if (start === undefined) return;
      latencies.push(now - start);
      if (++received === expected) done();
    });
  }
  const errors = [];
  for (const ws of posters) ws.on("message", (data) => {
    const message = JSON.parse(String(data));
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
