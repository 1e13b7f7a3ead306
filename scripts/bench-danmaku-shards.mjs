#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench:danmaku-shards`: one 弹幕 room at scale on this machine
 * (docs/decisions/0065-danmaku-shards.md). Serves the site from a fresh local state (wrangler dev
 * on a loopback port, no media), signs up POSTERS accounts and opens their sockets, opens SOCKETS
 * read-only sockets to the same room — spread by the room over shards of SHARD_SIZE — then has the
 * posters send RATE comments a second for SECONDS, in bursts every BURST_MS, over their own
 * sockets (the full path: the shard's checks, the room's rate limit, store, index and fan-out).
 * Reports: delivery (every comment to every read-only socket), the latency from a post's send to
 * its arrival at each probe socket (p50/p99/max), frames and comments per shard object per second,
 * the room object's messages per second, workerd's RSS, and the load average. Bounded: at most
 * MAX_SOCKETS sockets and DEADLINE_MS for the whole run. Writes bench-results/danmaku-shards.json.
 *
 *   npm run bench:danmaku-shards
 *   BENCH_SOCKETS=2000 BENCH_SHARD_SIZE=500 BENCH_RATE=100 npm run bench:danmaku-shards
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { parseJson } from "./json.mjs";
import { freePort, startLocalSite } from "./local-site.mjs";
import { applyLocalMigrations, importLocalCatalogue } from "./prepare-local.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MAX_SOCKETS = 20_000;
const SOCKETS = Math.min(MAX_SOCKETS, Number(process.env.BENCH_SOCKETS ?? 5000));
const SHARD_SIZE = Number(process.env.BENCH_SHARD_SIZE ?? 1000);
/** Comments a second, on average. */
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BURST_MS = 500;
/** A poster may post once per 2 s (and 30 times per 10 minutes): enough of them to keep the rate. */
const POSTERS = Number(process.env.BENCH_POSTERS ?? Math.ceil(RATE * 2.5));
/** Sockets that parse every frame and time every comment (the others count comments only). */
const PROBES = Math.min(SOCKETS, Number(process.env.BENCH_PROBES ?? 500));
const OPEN_CONCURRENCY = 10;
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 15 * 60_000);
const ROOM = "video_002";

if (POSTERS < RATE * 2.2) throw new Error(`BENCH_POSTERS=${POSTERS} cannot keep ${RATE} comments a second under the 2 s rate limit`);
if ((RATE * SECONDS) / POSTERS > 30) throw new Error("more than 30 comments per poster: the 10-minute limit would refuse them");

const deadline = setTimeout(() => {
  console.error(`bench-danmaku-shards: over ${DEADLINE_MS} ms, giving up`);
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

/**
 * @param {number[]} sorted
 * @param {number} p
 */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const round = (/** @type {number} */ n, digits = 1) => Number(n.toFixed(digits));
const loadAverage = () => os.loadavg().map((n) => round(n, 2));

/**
 * Resident memory (MB) of the workerd processes under `pid` (the wrangler process of the site).
 * @param {number | undefined} pid
 */
function workerdRssMb(pid) {
  if (!pid) return Number.NaN;
  let total = 0;
  /** @param {number} parent */
  const walk = (parent) => {
    let children = "";
    try {
      children = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(parent)], { encoding: "utf8" });
    } catch {
      return; // no children
    }
    for (const line of children.trim().split("\n").filter(Boolean)) {
      const [child, name] = line.trim().split(/\s+/);
      if (name === "workerd") {
        const status = fs.readFileSync(`/proc/${child}/status`, "utf8");
        total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      }
      walk(Number(child));
    }
  };
  walk(pid);
  return round(total);
}

/**
 * @param {string} base
 * @param {number} i
 */
async function signUp(base, i) {
  const email = `shards-${Date.now().toString(36)}-${i}@example.com`;
  const res = await fetch(`${base}/api/auth/sign-up`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, "CF-Connecting-IP": `2001:db8:5d:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1` },
    body: JSON.stringify({ email, password: "bench-secret-1", confirmPassword: "bench-secret-1" }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * A socket to the room once its hello came, with the shard that holds it (the 101's X-Danmaku-Shard).
 * @param {string} base
 * @param {string | null} cookie
 * @returns {Promise<{ ws: WebSocket, shard: number }>}
 */
function open(base, cookie) {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/danmaku/${ROOM}/ws`, {
    headers: { Origin: base, ...(cookie ? { Cookie: cookie } : {}) },
    perMessageDeflate: false,
  });
  let shard = -1;
  ws.once("upgrade", (res) => (shard = Number(res.headers["x-danmaku-shard"] ?? -1)));
  return new Promise((resolve, reject) => {
    ws.once("message", () => resolve({ ws, shard }));
    ws.once("error", (error) => {
      failures.push(error.message);
      reject(error);
    });
  });
}

/** Errors of sockets (opening or open): counted, never fatal. */
/** @type {string[]} */
const failures = [];

/**
 * {@link open}, tried up to three times.
 * @param {string} base
 * @param {string | null} cookie
 * @returns {Promise<{ ws: WebSocket, shard: number }>}
 */
async function openRetrying(base, cookie) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await open(base, cookie);
    } catch (error) {
      if (attempt === 3) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

/**
 * Runs `task` for 0..n-1, `limit` at a time.
 * @template T
 * @param {number} n
 * @param {number} limit
 * @param {(i: number) => Promise<T>} task
 * @returns {Promise<T[]>}
 */
async function pool(n, limit, task) {
  /** @type {T[]} */
  const results = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

const TEXT_MARK = Buffer.from('"text":"');
/** @param {Buffer} data */
function countComments(data) {
  let n = 0;
  for (let at = data.indexOf(TEXT_MARK); at >= 0; at = data.indexOf(TEXT_MARK, at + 1)) n++;
  return n;
}

async function main() {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "bench-danmaku-shards-"));
  const persistPath = path.join(state, "v3");
  const log = (/** @type {string} */ line) => console.log(`  ${line}`);
  await applyLocalMigrations({ log, persistPath });
  await importLocalCatalogue({ log, persistPath });
  const site = await startLocalSite({
    port: await freePort(),
    persistTo: state,
    prepare: false,
    vars: { PAGE_CACHE: "off", DANMAKU_SAMPLES: "off", DANMAKU_SHARD_SIZE: String(SHARD_SIZE) },
  });
  const base = site.baseURL;
  const loadAtStart = loadAverage();
  const rssIdle = workerdRssMb(site.pid);
  /** @type {WebSocket[]} */
  const everySocket = [];
  try {
    console.log(`signing up ${POSTERS} posters…`);
    const cookies = await pool(POSTERS, 8, (i) => signUp(base, i));
    console.log(`opening ${SOCKETS} read-only sockets and ${POSTERS} posting ones (shards of ${SHARD_SIZE})…`);
    const t0 = performance.now();
    const viewers = await pool(SOCKETS, OPEN_CONCURRENCY, async (i) => {
      if (i % 1000 === 0) console.log(`  ${i} open (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      return openRetrying(base, null);
    });
    const openMs = performance.now() - t0;
    const posters = await pool(POSTERS, OPEN_CONCURRENCY, (i) => openRetrying(base, cookies[i]));
    everySocket.push(...viewers.map((v) => v.ws), ...posters.map((p) => p.ws));
    for (const ws of everySocket) ws.on("error", (error) => failures.push(error.message));
    const rssOpen = workerdRssMb(site.pid);

    /** @type {Map<number, number>} */
    const socketsPerShard = new Map();
    for (const { shard } of [...viewers, ...posters]) socketsPerShard.set(shard, (socketsPerShard.get(shard) ?? 0) + 1);
    /** @type {Map<number, number>} */
    const viewersPerShard = new Map();
    for (const { shard } of viewers) viewersPerShard.set(shard, (viewersPerShard.get(shard) ?? 0) + 1);
    /** @type {Map<string, number>} */
    const sentAt = new Map();
    /** @type {number[]} */
    const latencies = [];
    /** Per shard: frames and comments its read-only sockets received. */
    /** @type {Map<number, { frames: number, comments: number }>} */
    const perShard = new Map();
    let delivered = 0;
    viewers.forEach(({ ws, shard }, i) => {
      const tally = perShard.get(shard) ?? { frames: 0, comments: 0 };
      perShard.set(shard, tally);
      const probe = i % Math.max(1, Math.floor(SOCKETS / PROBES)) === 0;
      ws.on("message", (/** @type {Buffer} */ data) => {
        const now = performance.now();
        const n = countComments(data);
        tally.frames++;
        tally.comments += n;
        delivered += n;
        if (!probe || n === 0) return;
        const message = /** @type {import("../shared/danmaku/model").ServerMessage} */ (parseJson(data.toString()));
        const comments = message.type === "comment" ? [message.comment] : message.type === "comments" ? message.comments : [];
        for (const c of comments) {
          const start = sentAt.get(c.text);
          if (start !== undefined) latencies.push(now - start);
        }
      });
    });
    let acked = 0;
    /** @type {Map<string, number>} */
    const refused = new Map();
    for (const { ws } of posters)
      ws.on("message", (/** @type {Buffer} */ data) => {
        if (data.subarray(0, 14).toString() === '{"type":"ack",') acked++;
        else if (data.subarray(0, 16).toString() === '{"type":"error",') {
          const { code } = /** @type {{ code: string }} */ (parseJson(data.toString()));
          refused.set(code, (refused.get(code) ?? 0) + 1);
        }
      });

    // Warm-up: one comment per poster (each poster's rate-limit object, the shards' and the room's
    // first instances, the account-service checks), delivered everywhere, then the counters start.
    console.log("warm-up: one comment per poster…");
    posters.forEach(({ ws }, i) => ws.send(JSON.stringify({ type: "post", nonce: `w${i}`, time: 0, text: `w${i}` })));
    const warmUntil = performance.now() + 60_000;
    while (performance.now() < warmUntil && (acked + [...refused.values()].reduce((a, b) => a + b, 0) < POSTERS || delivered < acked * SOCKETS))
      await new Promise((r) => setTimeout(r, 100));
    const warmUp = { acked, delivered };
    acked = 0;
    delivered = 0;
    refused.clear();
    for (const tally of perShard.values()) [tally.frames, tally.comments] = [0, 0];
    await new Promise((r) => setTimeout(r, 2500)); // the 2 s rate limit
    console.log(`posting ${RATE}/s for ${SECONDS} s in bursts every ${BURST_MS} ms…`);
    const perBurst = Math.round((RATE * BURST_MS) / 1000);
    const bursts = Math.round((SECONDS * 1000) / BURST_MS);
    let rssPeak = rssOpen;
    const postStart = performance.now();
    let sent = 0;
    for (let b = 0; b < bursts; b++) {
      const due = postStart + b * BURST_MS;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      for (let k = 0; k < perBurst; k++) {
        const text = `b${sent}`;
        const poster = posters[sent % POSTERS].ws;
        sentAt.set(text, performance.now());
        poster.send(JSON.stringify({ type: "post", nonce: text, time: (sent % 600) / 10, text }));
        sent++;
      }
      if (b % 4 === 0) rssPeak = Math.max(rssPeak, workerdRssMb(site.pid));
    }
    const postSeconds = (performance.now() - postStart) / 1000;
    // Every accepted comment to every read-only socket, or 30 s more at most.
    const waitUntil = performance.now() + 30_000;
    while (performance.now() < waitUntil && (acked + [...refused.values()].reduce((a, b) => a + b, 0) < sent || delivered < acked * SOCKETS))
      await new Promise((r) => setTimeout(r, 100));
    const elapsed = (performance.now() - postStart) / 1000;
    rssPeak = Math.max(rssPeak, workerdRssMb(site.pid));
    latencies.sort((a, b) => a - b);
    const shards = [...socketsPerShard.keys()].sort((a, b) => a - b);
    const result = {
      date: new Date().toISOString(),
      loadAverageAtStart: loadAtStart.join(" / "),
      loadAverageAtEnd: loadAverage().join(" / "),
      cpus: os.availableParallelism(),
      sockets: SOCKETS,
      posters: POSTERS,
      shardSize: SHARD_SIZE,
      shards: shards.length,
      socketsPerShard: shards.map((s) => socketsPerShard.get(s)).join(" "),
      openSocketsSeconds: round(openMs / 1000),
      socketErrors: failures.length,
      warmUp: `${warmUp.acked} posts, ${warmUp.delivered} deliveries`,
      postsSent: sent,
      postsPerSecond: round(sent / postSeconds),
      postsAccepted: acked,
      postsRefused: Object.fromEntries(refused),
      delivered: `${delivered}/${acked * SOCKETS}`,
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(percentile(latencies, 99)),
      latencyMaxMs: round(latencies.at(-1) ?? Number.NaN),
      latencySamples: latencies.length,
      /** Per shard object: frames it sent a second (to read-only sockets) and comments delivered a second. */
      shardFramesPerSecond: shards.map((s) => round((perShard.get(s)?.frames ?? 0) / elapsed, 0)).join(" "),
      shardCommentsPerSecond: shards.map((s) => round((perShard.get(s)?.comments ?? 0) / elapsed, 0)).join(" "),
      /**
       * The room object: comments it took (publish RPCs) and the batches it sent (one per live shard
       * per tick, at most 10 a second each: a shard's frames per read-only socket).
       */
      roomPublishPerSecond: round(acked / postSeconds),
      roomBatchesPerSecond: round(shards.reduce((sum, s) => sum + (perShard.get(s)?.frames ?? 0) / Math.max(1, viewersPerShard.get(s) ?? 1), 0) / elapsed),
      workerdRssIdleMb: rssIdle,
      workerdRssOpenMb: rssOpen,
      workerdRssPeakMb: rssPeak,
    };
    console.table(result);
    fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
    fs.writeFileSync(path.join(root, "bench-results/danmaku-shards.json"), JSON.stringify(result, null, 2) + "\n");
  } finally {
    for (const ws of everySocket) ws.terminate();
    await site.stop();
    fs.rmSync(state, { recursive: true, force: true });
  }
}

await main();
