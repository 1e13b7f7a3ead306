#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench:danmaku-shards`: one 弹幕 room at scale on this machine
 * (docs/decisions/0065-danmaku-shards.md). Serves the site from a fresh local state (wrangler dev
 * on a loopback port, no media), signs up POSTERS accounts and opens their sockets, opens SOCKETS
 * read-only sockets to the same room — spread by the room over shards of SHARD_SIZE — then has the
 * posters send RATE comments a second for SECONDS, in bursts every BURST_MS, over their own
 * sockets (the full path: the shard's checks, the room's rate limit, store, index and fan-out).
 * The read-only sockets live in BENCH_RECEIVERS child processes (scripts/bench-danmaku-receiver.mjs),
 * so reading their frames does not delay the posts' clock. Reports: delivery (every comment to every
 * read-only socket), the latency from a post's send to its arrival at each probe socket
 * (p50/p99/max), split at the comment's `created` stamp (the room's store) into the post path and the
 * fan-out, the ack's latency, frames and comments per shard object per second, the room object's
 * messages per second, the RSS and the cores used (from the first post to the last delivery) of the
 * runtime's workerd, of the dev proxy's, of this process and of the receivers, their event-loop
 * delays, and the load average. Bounded: at most MAX_SOCKETS sockets and DEADLINE_MS for the whole
 * run. Writes bench-results/danmaku-shards.json.
 *
 * BENCH_VIA=runtime (default) talks to the workerd that runs the objects on its own loopback port
 * (scripts/workerd-processes.mjs runtimeAddress); BENCH_VIA=proxy goes through wrangler dev's proxy
 * as a browser does (one Durable Object of wrangler's relays every request and every frame:
 * docs/danmaku-capacity.md).
 *
 *   npm run bench:danmaku-shards
 *   BENCH_SOCKETS=2000 BENCH_SHARD_SIZE=500 BENCH_RATE=100 npm run bench:danmaku-shards
 */
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { parseJson } from "./json.mjs";
import { freePort, startLocalSite } from "./local-site.mjs";
import { applyLocalMigrations, importLocalCatalogue } from "./prepare-local.mjs";
import { connectDevtools } from "./devtools.mjs";
import { cpuMs, cpuSplitMs, rssMiB, runtimeAddress, schedMs } from "./workerd-processes.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MAX_SOCKETS = 20_000;
const SOCKETS = Math.min(MAX_SOCKETS, Number(process.env.BENCH_SOCKETS ?? 5000));
const SHARD_SIZE = Number(process.env.BENCH_SHARD_SIZE ?? 1000);
/** Comments a second, on average (docs/danmaku-capacity.md: what rate is realistic for how many viewers). */
const RATE = Number(process.env.BENCH_RATE ?? 15);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/** Posts leave in bursts this far apart (RATE × BURST_MS / 1000 each). */
const BURST_MS = Number(process.env.BENCH_BURST_MS ?? 100);
/** A poster may post once per 2 s (and 30 times per 10 minutes): enough of them to keep the rate. */
const POSTERS = Number(process.env.BENCH_POSTERS ?? Math.ceil(RATE * 2.5));
/** Sockets that parse every frame and time every comment (the others count comments only). */
const PROBES = Math.min(SOCKETS, Number(process.env.BENCH_PROBES ?? 500));
const OPEN_CONCURRENCY = 10;
/** Processes that hold the read-only sockets and read their frames (scripts/bench-danmaku-receiver.mjs). */
const RECEIVERS = Math.max(1, Number(process.env.BENCH_RECEIVERS ?? 1));
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 15 * 60_000);
/** "runtime": straight to the workerd that runs the objects; "proxy": through wrangler dev's proxy. */
const VIA = process.env.BENCH_VIA === "proxy" ? "proxy" : "runtime";
const ROOM = "video_002";
/** Set: a V8 CPU profile of the site's isolate in the runtime while posting (bench-results/danmaku-shards.cpuprofile), its top functions printed. */
const PROFILE = Boolean(process.env.BENCH_PROFILE);

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
/** Wall-clock ms with a fraction (comparable with the `created` stamps workerd's Date.now() gives). */
const wallNow = () => performance.timeOrigin + performance.now();
/** @param {number[]} values */
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? Number.NaN), n: sorted.length };
};

/**
 * Open file descriptors of a process, or null once it is gone.
 * @param {number | null} pid
 */
function openFiles(pid) {
  try {
    return pid === null ? null : fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/**
 * @param {string} base
 * @param {number} i
 */
async function signUp(base, i) {
  const email = `shards-${Date.now().toString(36)}-${i}@example.com`;
  const request = () =>
    fetch(`${base}/api/auth/sign-up`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: base,
        "CF-Connecting-IP": `2001:db8:5d:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`,
      },
      body: JSON.stringify({ email, password: "bench-secret-1", confirmPassword: "bench-secret-1" }),
    });
  // workerd may close a kept-alive connection just as the next request goes out on it ("other
  // side closed", before the request was read): once more on a fresh one.
  const res = await request().catch(request);
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

/**
 * @typedef {{ frames: number, comments: number }} Tally
 * @typedef {{ type: "progress", opened: number } | { type: "delivered", delivered: number } | { type: "reset" }
 *   | { type: "opened", shards: number[], failure: { at: number, error: string } | null, errors: string[] }
 *   | { type: "report", perShard: Record<string, Tally>, total: Float64Array, post: Float64Array, fanOut: Float64Array, cpuSeconds: number, seconds: number, loopDelayP99Ms: number, loopDelayMaxMs: number, errors: number }} ReceiverMessage
 * @typedef {{ child: import("node:child_process").ChildProcess, pid: number, opened: number, delivered: number, waiting: Map<string, (message: ReceiverMessage) => void> }} Receiver
 */

/**
 * Forks the processes that hold the read-only sockets (scripts/bench-danmaku-receiver.mjs).
 * @param {number} n
 * @returns {Receiver[]}
 */
function startReceivers(n) {
  return Array.from({ length: n }, () => {
    const child = fork(path.join(root, "scripts/bench-danmaku-receiver.mjs"), [], { serialization: "advanced", stdio: "inherit" });
    /** @type {Receiver} */
    const receiver = { child, pid: child.pid ?? 0, opened: 0, delivered: 0, waiting: new Map() };
    child.on("message", (data) => {
      const message = /** @type {ReceiverMessage} */ (data);
      if (message.type === "delivered") receiver.delivered = message.delivered;
      else if (message.type === "progress") receiver.opened = message.opened;
      else receiver.waiting.get(message.type)?.(message);
    });
    child.on("exit", (code) => {
      if (receiver.waiting.size > 0) {
        console.error(`bench-danmaku-shards: receiver ${receiver.pid} exited (${code})`);
        process.exit(2);
      }
    });
    return receiver;
  });
}

/**
 * Sends a receiver a command and waits for its answer of type `answer`.
 * @template {ReceiverMessage["type"]} T
 * @param {Receiver} receiver
 * @param {{ type: string } & Record<string, unknown>} command
 * @param {T} answer
 * @returns {Promise<Extract<ReceiverMessage, { type: T }>>}
 */
function ask(receiver, command, answer) {
  return new Promise((resolve) => {
    receiver.waiting.set(answer, (message) => {
      receiver.waiting.delete(answer);
      resolve(/** @type {Extract<ReceiverMessage, { type: T }>} */ (message));
    });
    receiver.child.send(command);
  });
}

/**
 * @typedef {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} CpuProfile
 */

/**
 * Self time (ms) of a profile's functions, the heaviest first: where the isolate's CPU went.
 * @param {CpuProfile} profile
 * @param {number} top
 */
function heaviest(profile, top = 20) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  /** @type {Map<string, number>} */
  const self = new Map();
  let total = 0;
  for (let i = 1; i < profile.samples.length; i++) {
    const frame = byNode.get(profile.samples[i]);
    if (!frame || frame.functionName === "(idle)") continue;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`;
    const ms = Math.min(profile.timeDeltas[i], 4000) / 1000;
    self.set(key, (self.get(key) ?? 0) + ms);
    total += ms;
  }
  return {
    totalMs: round(total),
    top: [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, ms]) => `${round(ms)} ms ${round((100 * ms) / total)}% ${key}`),
  };
}

async function main() {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "bench-danmaku-shards-"));
  const persistPath = path.join(state, "v3");
  const log = (/** @type {string} */ line) => console.log(`  ${line}`);
  await applyLocalMigrations({ log, persistPath });
  await importLocalCatalogue({ log, persistPath });
  const port = await freePort();
  const inspectorPort = PROFILE ? await freePort() : undefined;
  const site = await startLocalSite({
    port,
    inspectorPort,
    persistTo: state,
    prepare: false,
    vars: { PAGE_CACHE: "off", DANMAKU_SAMPLES: "off", DANMAKU_SHARD_SIZE: String(SHARD_SIZE) },
  });
  /** @type {Receiver[]} */
  const receivers = [];
  /** @type {WebSocket[]} */
  const posterSockets = [];
  /** @type {Record<string, unknown>} */
  let result = {};
  // Connected before any load: wrangler's inspector proxy holds messages until a client connects.
  const devtools = inspectorPort ? await connectDevtools(inspectorPort) : null;
  if (PROFILE && !devtools) console.warn("bench-danmaku-shards: no devtools session; no profile");
  try {
    if (!site.pid) throw new Error("wrangler dev has no process id");
    const { baseURL: runtimeURL, entry, runtime } = await runtimeAddress(site.pid, port);
    const base = VIA === "proxy" ? site.baseURL : runtimeURL;
    console.log(`site: ${base} (${VIA === "proxy" ? "wrangler dev's proxy" : "the runtime's own port"}; proxy workerd ${entry}, runtime workerd ${runtime})`);
    const memory = () => ({ runtimeMb: rssMiB(runtime), proxyMb: rssMiB(entry) });
    const loadAtStart = loadAverage();
    const rssIdle = memory();
    console.log(`signing up ${POSTERS} posters…`);
    const cookies = await pool(POSTERS, 8, (i) => signUp(base, i));
    console.log(`opening ${SOCKETS} read-only sockets in ${RECEIVERS} receiving processes and ${POSTERS} posting ones (shards of ${SHARD_SIZE})…`);
    receivers.push(...startReceivers(RECEIVERS));
    const t0 = performance.now();
    const progress = () =>
      console.log(
        `  ${receivers.reduce((sum, r) => sum + r.opened, 0)} open (${((performance.now() - t0) / 1000).toFixed(1)} s; runtime ${rssMiB(runtime)} MB, ${openFiles(runtime)} files; proxy ${rssMiB(entry)} MB, ${openFiles(entry)} files; load ${loadAverage()[0]})`,
      );
    const ticker = setInterval(progress, 5000);
    const opening = await Promise.all(
      receivers.map((r, i) =>
        ask(
          r,
          {
            type: "open",
            base,
            room: ROOM,
            count: Math.floor(SOCKETS / RECEIVERS) + (i < SOCKETS % RECEIVERS ? 1 : 0),
            concurrency: Math.ceil(OPEN_CONCURRENCY / RECEIVERS),
            probeEvery: Math.max(1, Math.floor(SOCKETS / PROBES)),
          },
          "opened",
        ),
      ),
    );
    clearInterval(ticker);
    const openMs = performance.now() - t0;
    const viewerShards = opening.flatMap((o) => o.shards);
    const openFailure = opening.find((o) => o.failure)?.failure;
    if (openFailure) {
      progress();
      const alive = (/** @type {number} */ pid) => fs.existsSync(`/proc/${pid}`);
      result = {
        date: new Date().toISOString(),
        via: VIA,
        failed: `a socket could not open: ${openFailure.error}`,
        opened: viewerShards.length,
        socketErrors: [...new Set(opening.flatMap((o) => o.errors))].join("; "),
        wranglerAlive: site.pid ? alive(site.pid) : false,
        proxyAlive: alive(entry),
        runtimeAlive: alive(runtime),
        proxyFiles: openFiles(entry),
        runtimeFiles: openFiles(runtime),
        loadAverage: loadAverage().join(" / "),
      };
      console.table(result);
      console.log(`wrangler's output (end):\n${site.output().slice(-4000)}`);
      return;
    }
    const posters = await pool(POSTERS, OPEN_CONCURRENCY, (i) => openRetrying(base, cookies[i]));
    posterSockets.push(...posters.map((p) => p.ws));
    for (const ws of posterSockets) ws.on("error", (error) => failures.push(error.message));
    const rssOpen = memory();
    const filesOpen = { runtime: openFiles(runtime), proxy: openFiles(entry) };
    const viewers = viewerShards.length;
    const delivered = () => receivers.reduce((sum, r) => sum + r.delivered, 0);

    /** @type {Map<number, number>} */
    const socketsPerShard = new Map();
    for (const shard of [...viewerShards, ...posters.map((p) => p.shard)]) socketsPerShard.set(shard, (socketsPerShard.get(shard) ?? 0) + 1);
    /** @type {Map<number, number>} */
    const viewersPerShard = new Map();
    for (const shard of viewerShards) viewersPerShard.set(shard, (viewersPerShard.get(shard) ?? 0) + 1);
    /** Wall-clock ms the comment `b{n}` was sent. */
    /** @type {number[]} */
    const sentAt = [];
    /** Send → ack (the ack waits for the D1 index write). */
    /** @type {number[]} */
    const ackTimes = [];
    let acked = 0;
    /** @type {Map<string, number>} */
    const refused = new Map();
    const answered = () => acked + [...refused.values()].reduce((a, b) => a + b, 0);
    for (const { ws } of posters)
      ws.on("message", (/** @type {Buffer} */ data) => {
        if (data.subarray(0, 14).toString() === '{"type":"ack",') {
          acked++;
          const { nonce } = /** @type {{ nonce: string }} */ (parseJson(data.toString()));
          const start = nonce.startsWith("b") ? sentAt[Number(nonce.slice(1))] : undefined;
          if (start !== undefined) ackTimes.push(wallNow() - start);
        } else if (data.subarray(0, 16).toString() === '{"type":"error",') {
          const { code } = /** @type {{ code: string }} */ (parseJson(data.toString()));
          refused.set(code, (refused.get(code) ?? 0) + 1);
        }
      });

    // Warm-up: one comment per poster (each poster's rate-limit object, the shards' and the room's
    // first instances, the account-service checks), delivered everywhere, then the counters start.
    console.log("warm-up: one comment per poster…");
    posters.forEach(({ ws }, i) => ws.send(JSON.stringify({ type: "post", nonce: `w${i}`, time: 0, text: `w${i}` })));
    const warmUntil = performance.now() + 60_000;
    while (performance.now() < warmUntil && (answered() < POSTERS || delivered() < acked * viewers)) await new Promise((r) => setTimeout(r, 100));
    const warmUp = { acked, delivered: delivered() };
    acked = 0;
    refused.clear();
    await Promise.all(receivers.map((r) => ask(r, { type: "reset" }, "reset")));
    for (const r of receivers) r.delivered = 0;
    await new Promise((r) => setTimeout(r, 2500)); // the 2 s rate limit
    console.log(`posting ${RATE}/s for ${SECONDS} s in bursts every ${BURST_MS} ms…`);
    const perBurst = (RATE * BURST_MS) / 1000;
    const bursts = Math.round((SECONDS * 1000) / BURST_MS);
    let rssPeak = rssOpen;
    const cpuAtStart = {
      runtime: cpuMs(runtime) ?? Number.NaN,
      proxy: cpuMs(entry) ?? Number.NaN,
      bench: process.cpuUsage(),
      sched: schedMs(runtime),
      split: cpuSplitMs(runtime),
    };
    // How late this process's event loop ran (it stamps the sends and the acks).
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    await devtools?.call("Profiler.enable");
    await devtools?.call("Profiler.setSamplingInterval", { interval: 500 });
    await devtools?.call("Profiler.start");
    const postStart = performance.now();
    let sent = 0;
    for (let b = 0; b < bursts; b++) {
      const due = postStart + b * BURST_MS;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      // Fractional bursts add up: after burst b, round((b + 1) × perBurst) comments in all.
      for (const end = Math.round((b + 1) * perBurst); sent < end; sent++) {
        const text = `b${sent}`;
        sentAt[sent] = wallNow();
        posters[sent % POSTERS].ws.send(JSON.stringify({ type: "post", nonce: text, time: (sent % 600) / 10, text }));
      }
      if (b % Math.max(1, Math.round(2000 / BURST_MS)) === 0) {
        const now = memory();
        rssPeak = { runtimeMb: Math.max(rssPeak.runtimeMb ?? 0, now.runtimeMb ?? 0), proxyMb: Math.max(rssPeak.proxyMb ?? 0, now.proxyMb ?? 0) };
      }
    }
    const postSeconds = (performance.now() - postStart) / 1000;
    // Every accepted comment to every read-only socket, or 30 s more at most.
    const waitUntil = performance.now() + 30_000;
    while (performance.now() < waitUntil && (answered() < sent || delivered() < acked * viewers)) await new Promise((r) => setTimeout(r, 100));
    const elapsed = (performance.now() - postStart) / 1000;
    const benchCpu = process.cpuUsage(cpuAtStart.bench);
    loopDelay.disable();
    const runtimeCpu = cpuMs(runtime);
    const proxyCpu = cpuMs(entry);
    const runtimeSched = schedMs(runtime);
    const runtimeSplit = cpuSplitMs(runtime);
    const stopped = /** @type {{ profile?: CpuProfile } | null} */ (await devtools?.call("Profiler.stop", {}, 60_000));
    devtools?.close();
    if (stopped?.profile) {
      fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
      fs.writeFileSync(path.join(root, "bench-results/danmaku-shards.cpuprofile"), JSON.stringify(stopped.profile));
      const { totalMs, top } = heaviest(stopped.profile);
      console.log(`the site's isolate in the runtime: ${totalMs} ms busy while posting; heaviest functions (self time):\n  ${top.join("\n  ")}`);
    }
    const reports = await Promise.all(receivers.map((r) => ask(r, { type: "report", sentAt }, "report")));
    /** Cores a process kept busy from the first post to the last delivery. */
    const cores = (/** @type {number} */ before, /** @type {number | null} */ after) => round(((after ?? Number.NaN) - before) / 1000 / elapsed, 2);
    const rssEnd = memory();
    rssPeak = { runtimeMb: Math.max(rssPeak.runtimeMb ?? 0, rssEnd.runtimeMb ?? 0), proxyMb: Math.max(rssPeak.proxyMb ?? 0, rssEnd.proxyMb ?? 0) };
    /** @type {Map<number, Tally>} */
    const perShard = new Map();
    for (const report of reports)
      for (const [shard, tally] of Object.entries(report.perShard)) {
        const sum = perShard.get(Number(shard)) ?? { frames: 0, comments: 0 };
        perShard.set(Number(shard), { frames: sum.frames + tally.frames, comments: sum.comments + tally.comments });
      }
    const shards = [...socketsPerShard.keys()].sort((a, b) => a - b);
    const total = summary(reports.flatMap((r) => [...r.total]));
    const postPath = summary(reports.flatMap((r) => [...r.post]));
    const fanOut = summary(reports.flatMap((r) => [...r.fanOut]));
    const ack = summary(ackTimes);
    result = {
      date: new Date().toISOString(),
      via: VIA,
      loadAverageAtStart: loadAtStart.join(" / "),
      loadAverageAtEnd: loadAverage().join(" / "),
      cpus: os.availableParallelism(),
      sockets: viewers,
      posters: POSTERS,
      shardSize: SHARD_SIZE,
      shards: shards.length,
      socketsPerShard: shards.map((s) => socketsPerShard.get(s)).join(" "),
      openSocketsSeconds: round(openMs / 1000),
      socketErrors: failures.length + reports.reduce((sum, r) => sum + r.errors, 0),
      warmUp: `${warmUp.acked} posts, ${warmUp.delivered} deliveries`,
      rate: RATE,
      burstMs: BURST_MS,
      postsSent: sent,
      postsPerSecond: round(sent / postSeconds),
      postsAccepted: acked,
      postsRefused: Object.fromEntries(refused),
      delivered: `${delivered()}/${acked * viewers}`,
      secondsToLastDelivery: round(elapsed),
      latencyP50Ms: total.p50,
      latencyP99Ms: total.p99,
      latencyMaxMs: total.max,
      latencySamples: total.n,
      /** Send → the room's store (the shard's checks, the room's rate limit). */
      postPathP50P99MaxMs: `${postPath.p50} / ${postPath.p99} / ${postPath.max}`,
      /** The room's store → arrival (the tick, the deliver RPC, the sends, the receiver's reading). */
      fanOutP50P99MaxMs: `${fanOut.p50} / ${fanOut.p99} / ${fanOut.max}`,
      /** Send → ack (includes the D1 index write the ack waits for). */
      ackP50P99Ms: `${ack.p50} / ${ack.p99}`,
      /** Per shard object: frames it sent a second (to read-only sockets) and comments delivered a second. */
      shardFramesPerSecond: shards.map((s) => round((perShard.get(s)?.frames ?? 0) / elapsed, 0)).join(" "),
      shardCommentsPerSecond: shards.map((s) => round((perShard.get(s)?.comments ?? 0) / elapsed, 0)).join(" "),
      /**
       * The room object: comments it took (publish RPCs) and the batches it sent (one per live shard
       * per tick, at most 10 a second each: a shard's frames per read-only socket).
       */
      roomPublishPerSecond: round(acked / postSeconds),
      roomBatchesPerSecond: round(shards.reduce((sum, s) => sum + (perShard.get(s)?.frames ?? 0) / Math.max(1, viewersPerShard.get(s) ?? 1), 0) / elapsed),
      /** Cores used from the first post to the last delivery: the runtime's workerd (every object), the proxy's, this process, the receivers. */
      runtimeCores: cores(cpuAtStart.runtime, runtimeCpu),
      /** Of runtimeCores, the share spent in the kernel (on loopback the sender's write also runs the receiving side of TCP). */
      runtimeSystemShare: round(
        ((runtimeSplit?.systemMs ?? Number.NaN) - (cpuAtStart.split?.systemMs ?? Number.NaN)) /
          ((runtimeSplit?.systemMs ?? Number.NaN) +
            (runtimeSplit?.userMs ?? Number.NaN) -
            (cpuAtStart.split?.systemMs ?? Number.NaN) -
            (cpuAtStart.split?.userMs ?? Number.NaN)),
        2,
      ),
      proxyCores: cores(cpuAtStart.proxy, proxyCpu),
      /**
       * Seconds per second the runtime's threads waited on a run queue, runnable but not running
       * (/proc schedstat): what the machine's other processes cost it. Beside runtimeCores: how much
       * more CPU it wanted than it got.
       */
      runtimeWaitingForCpu: round(((runtimeSched?.waitMs ?? Number.NaN) - (cpuAtStart.sched?.waitMs ?? Number.NaN)) / 1000 / elapsed, 2),
      posterCores: round((benchCpu.user + benchCpu.system) / 1e6 / elapsed, 2),
      receiverCores: round(
        reports.reduce((sum, r) => sum + r.cpuSeconds / r.seconds, 0),
        2,
      ),
      /** Event-loop delay p99 / max (ms): this process (it stamps sends and acks), the worst receiver (it stamps arrivals). */
      posterLoopDelayMs: `${round(loopDelay.percentile(99) / 1e6)} / ${round(loopDelay.max / 1e6)}`,
      receiverLoopDelayMs: `${round(Math.max(...reports.map((r) => r.loopDelayP99Ms)))} / ${round(Math.max(...reports.map((r) => r.loopDelayMaxMs)))}`,
      runtimeRssIdleMb: rssIdle.runtimeMb,
      runtimeRssOpenMb: rssOpen.runtimeMb,
      runtimeRssPeakMb: rssPeak.runtimeMb,
      proxyRssIdleMb: rssIdle.proxyMb,
      proxyRssOpenMb: rssOpen.proxyMb,
      runtimeFilesOpen: filesOpen.runtime,
      proxyFilesOpen: filesOpen.proxy,
    };
    console.table(result);
  } finally {
    if (Object.keys(result).length > 0) {
      fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
      fs.writeFileSync(path.join(root, "bench-results/danmaku-shards.json"), JSON.stringify(result, null, 2) + "\n");
    }
    devtools?.close();
    for (const ws of posterSockets) ws.terminate();
    for (const r of receivers) if (r.child.connected) r.child.send({ type: "close" });
    await site.stop();
    fs.rmSync(state, { recursive: true, force: true });
  }
  if ("failed" in result) process.exitCode = 1;
}

await main();
