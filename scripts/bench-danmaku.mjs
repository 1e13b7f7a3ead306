#!/usr/bin/env node
/**
 * `npm run bench:danmaku`: serves the site locally (wrangler dev, as `npm start`), opens
 * CLIENTS WebSockets to one 弹幕 room (signed out, read only), lets a few signed-in posters
 * send comments over their own sockets and prints the fan-out latency (post sent → comment
 * received by each client) as p50/p99, plus the time to open the room's sockets.
 * Writes bench-results/danmaku.json.
 *
 *   npm run bench:danmaku                  200 clients, 40 comments
 *   BENCH_CLIENTS=50 npm run bench:danmaku
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
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
  const result = {
    clients: CLIENTS,
    posts: POSTS,
    delivered: `${received}/${expected}`,
    refusedPosts: errors.length,
    connectAllMs: Math.round(connectMs),
    fanoutP50Ms: Number(percentile(latencies, 50)?.toFixed(1)),
    fanoutP99Ms: Number(percentile(latencies, 99)?.toFixed(1)),
    fanoutMaxMs: Number(latencies.at(-1)?.toFixed(1)),
  };
  console.table(result);
  fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench-results/danmaku.json"), JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2) + "\n");
  for (const ws of [...clients, ...posters]) ws.close();
} finally {
  await site.stop();
}
