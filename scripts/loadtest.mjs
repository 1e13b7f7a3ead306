#!/usr/bin/env node
// @ts-check
/**
 * `npm run loadtest`: a bounded mixed load on loopback against the locally served site.
 *
 *  1. builds the client (vite build) and prepares the local bindings (media in R2, D1),
 *  2. serves a snapshot of the build on 127.0.0.1:8795 — the worker bundled as for deploy, the
 *     built assets, a copy of the repository's local state — in one workerd process started
 *     through Miniflare with the bindings wrangler derives from wrangler.toml (the runtime of
 *     `wrangler dev` without its dev proxy and inspector proxy; `--wrangler-dev` serves it with
 *     `wrangler dev` as `npm start` does),
 *  3. signs up a few users, warms up, then runs a fixed number of concurrent workers (fetch
 *     with keep-alive, all in this process) for a fixed time, each picking at random:
 *       - page     SSR pages: /, /category/all?page=2, /video/video_0NN, /search?q=…
 *       - media    206 seeks: GET /N.mp4 with a random `Range: bytes=a-b`
 *       - signin   POST /api/auth/sign-in (JSON) with a signed-up user
 *       - refresh  GET /api/auth/user with a session whose access token was made to expire
 *                  (the worker refreshes it; the new cookie is kept for the next round)
 *     and alongside (not with --only), 弹幕: read-only viewers' WebSockets over two rooms and
 *     signed-in posters posting over theirs at the rooms' allowed pace (scripts/soak-danmaku.mjs),
 *  4. reports requests, throughput, p50/p99 latency per kind and overall, 5xx and other errors
 *     (a request over 30 s is one), 弹幕 posted, received and lost (posted × viewers − received)
 *     with the delivery latency, and memory before and after (below); writes
 *     bench-results/loadtest-<timestamp>.json; exits 1 on any 5xx, a lost comment or if the
 *     server died.
 *
 * Options: --duration <s> (120), --warmup <s> (600), --concurrency <n> (8), --port <n> (8795),
 *          --danmaku-viewers <n> (40; 0: no 弹幕), --danmaku-posters <n> (12),
 *          --no-build (reuse dist/ and the prepared bindings), --only <kind> (one kind alone),
 *          --control (see Memory), --no-heap (no devtools connection), --wrangler-dev.
 *
 * Memory: the RSS of the workerd process that runs the worker, every 5 s through the warm-up and
 * the soak. workerd's V8 heaps and allocator grow to the load's working set during the first
 * minutes and then hold: the soak after the warm-up is where growth would show a leak. The figure
 * is the change of the mean RSS from the soak's first 30 s to its last 30 s and the least-squares
 * slope over the soak. The worker's own JavaScript heap (the isolate, read every 2 s over the
 * devtools protocol: Runtime.getHeapUsage) tells a leak in the worker's code apart from memory
 * the runtime keeps. `--control` then runs the same load shape against a trivial worker
 * (`return new Response("ok")`) on the same runtime, for the runtime's own RSS. Under
 * `--wrangler-dev` both workerd processes are reported (the entry proxy on the port and the
 * runtime); their RSS keeps growing under load even for the trivial worker (see README).
 *
 * Visitor addresses: the worker rate-limits sign-in per CF-Connecting-IP, which on loopback
 * the client sets itself; each request takes one address from a fixed pool (so counters stay
 * bounded and under the limits). In production Cloudflare sets CF-Connecting-IP itself and
 * overwrites whatever a client sends.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connectDevtools } from "./devtools.mjs";
import { parseJson } from "./json.mjs";
import { heapWindow, rssSlope, rssWindow } from "./memory-figures.mjs";
import { siteSnapshot, startMiniflare } from "./site-snapshot.mjs";
import { waitForServer } from "./wait-for-server.mjs";
import { findWorkerd, rssMiB } from "./workerd-processes.mjs";
import { startDanmakuSoak } from "./soak-danmaku.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * @typedef {{ t: number, rssMiB: number | null }} RssSample
 * @typedef {{ usedMiB: number | null, totalMiB: number | null, buffersMiB: number | null }} HeapUsage
 * @typedef {{ sample: () => Promise<HeapUsage | null>, afterGc: () => Promise<HeapUsage | null>, close: () => void }} HeapSampler
 * @typedef {{ entry: number | null, runtime: number | null }} WorkerdPids
 * @typedef {{ mf?: import("miniflare").Miniflare, child?: import("node:child_process").ChildProcess, worker: string | null, workerd: WorkerdPids, alive: () => boolean }} Server
 * @typedef {{ users: { email: string, cookie: string }[], sessions: { cookie: string }[], media: { n: number, size: number }[], cache: Record<string, number> }} SharedState
 * @typedef {SharedState & { worker: number }} WorkerState
 * @typedef {{ kind: string, ms: number, status: number, problem: string | null }} Outcome
 * @typedef {{ latencies: Record<string, number[]> & { all: number[] }, counts: Record<string, number>, fiveXX: number, otherErrors: number, problems: Record<string, number> }} Stats
 * @typedef {{ minMiB: number, meanMiB: number, maxMiB: number } | null} RssBand
 */

// ---- options -------------------------------------------------------------------------------

/**
 * @param {string} name
 * @param {number} fallback
 */
function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`loadtest: --${name} needs a positive number`);
    process.exit(2);
  }
  return value;
}

const DURATION_S = option("duration", 120);
const WARMUP_S = option("warmup", 600);
const CONCURRENCY = option("concurrency", 8);
const PORT = option("port", 8795);
/** 弹幕 sockets: read-only viewers and signed-in posters (scripts/soak-danmaku.mjs). */
const DANMAKU_VIEWERS =
  process.argv.includes("--danmaku-viewers") && process.argv[process.argv.indexOf("--danmaku-viewers") + 1] === "0" ? 0 : option("danmaku-viewers", 40);
const DANMAKU_POSTERS = option("danmaku-posters", 12);
const BUILD = !process.argv.includes("--no-build");
const CONTROL = process.argv.includes("--control");
const HEAP = !process.argv.includes("--no-heap");
/** The runtime: one workerd process through Miniflare (default), or `wrangler dev` with its proxies. */
const WRANGLER_DEV = process.argv.includes("--wrangler-dev");
const INSPECTOR_PORT = PORT + 440;
const USERS = 8;
/** A request that takes longer than this counts as an error (timeout). */
const REQUEST_TIMEOUT_MS = 30_000;
const PASSWORD = "loadtest-pass-1";
const BASE = `http://127.0.0.1:${PORT}`;
const COOKIE = "yingshi-auth";

/** The mix: relative weights of the request kinds (`--only <kind>` for one kind alone). */
/** @type {Record<string, number>} */
const FULL_MIX = { page: 55, media: 30, refresh: 10, signin: 5 };
const onlyIndex = process.argv.indexOf("--only");
const ONLY = onlyIndex === -1 ? null : process.argv[onlyIndex + 1];
if (ONLY !== null && !(ONLY in FULL_MIX)) {
  console.error(`loadtest: --only takes one of ${Object.keys(FULL_MIX).join(", ")}`);
  process.exit(2);
}
const MIX = ONLY ? { [ONLY]: 1 } : FULL_MIX;
const SEARCH_TERMS = ["家", "爱情", "电影", "纪录", "综艺", "城市", "星", "hello", "%", "2024"];

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", FORCE_COLOR: "0" };
/** React's production build in the worker, as deployed (wrangler.toml also defines it). */
const serverEnv = { ...env, NODE_ENV: "production" };

// ---- the server ----------------------------------------------------------------------------

function build() {
  const res = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
    env,
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

/**
 * @param {string} cwd
 * @param {string[]} extraArgs
 */
function startServer(cwd = root, extraArgs = []) {
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      "--port",
      String(PORT),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(INSPECTOR_PORT),
      "--inspector-ip",
      "127.0.0.1",
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
      ...extraArgs,
    ],
    { cwd, env: serverEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  /** @type {string[]} */
  const log = [];
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    log.push(String(chunk));
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return { child, log };
}

/**
 * Stops our wrangler (and, through it, its workerd processes) by PID only.
 * @param {import("node:child_process").ChildProcess} child
 * @param {(number | null)[]} pids
 */
async function stopServer(child, pids = []) {
  if (child.exitCode === null) child.kill("SIGTERM");
  for (let i = 0; i < 40 && child.exitCode === null; i++) await sleep(100);
  if (child.exitCode === null) child.kill("SIGKILL");
  await sleep(500);
  for (const pid of pids) if (pid && isAlive(pid)) process.kill(pid, "SIGTERM");
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---- processes and memory ------------------------------------------------------------------

/**
 * The worker isolate's memory, sampled over the devtools protocol (Runtime.getHeapUsage): the
 * JavaScript heap in use, the heap V8 has committed, and the ArrayBuffer backing stores outside
 * the heap (request and response bodies the site holds); and, before and after the soak, the
 * heap after a full garbage collection.
 * @param {string | null} worker
 * @returns {Promise<HeapSampler>}
 */
async function heapSampler(worker) {
  // The isolate's websocket path: wrangler's inspector proxy serves it at /ws; workerd's own
  // inspector (Miniflare) names it after the worker.
  const devtools = await connectDevtools(INSPECTOR_PORT, "127.0.0.1", WRANGLER_DEV ? "ws" : `core:user:${worker}`);
  if (!devtools) {
    console.warn("loadtest: no devtools connection; the JS heap will not be reported");
    return { sample: () => Promise.resolve(null), afterGc: () => Promise.resolve(null), close() {} };
  }
  /** @returns {Promise<HeapUsage | null>} */
  const sample = async () => {
    const usage = /** @type {{ usedSize?: number, totalSize?: number, backingStorageSize?: number } | null} */ (await devtools.call("Runtime.getHeapUsage"));
    if (!usage) return null;
    /** @param {number | undefined} bytes */
    const mib = (bytes) => (typeof bytes === "number" ? Math.round((bytes / 1048576) * 10) / 10 : null);
    return { usedMiB: mib(usage.usedSize), totalMiB: mib(usage.totalSize), buffersMiB: mib(usage.backingStorageSize) };
  };
  return {
    sample,
    /**
     * The heap after a full garbage collection: what the worker really holds. workerd runs a
     * requested collection (HeapProfiler.collectGarbage, which it never answers) the next time
     * the isolate runs, so one light request to the worker follows the call.
     */
    async afterGc() {
      await devtools.call("HeapProfiler.collectGarbage", {}, 200);
      const res = await fetch(`${BASE}/api/auth/user`, { headers: { "CF-Connecting-IP": nextIp() } });
      await res.arrayBuffer();
      return sample();
    },
    close() {
      devtools.close();
    },
  };
}

// ---- helpers -------------------------------------------------------------------------------

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * @template T
 * @param {readonly T[]} list
 * @returns {T}
 */
const pick = (list) => list[Math.floor(Math.random() * list.length)];
/**
 * @param {number} min
 * @param {number} max
 */
const randomInt = (min, max) => min + Math.floor(Math.random() * (max - min + 1));

let ipCounter = 0;
/** One visitor address from a pool of 1024 (documentation range 198.18.0.0/15, benchmarking). */
function nextIp() {
  const n = ipCounter++ % 1024;
  return `198.18.${n >> 8}.${n & 255}`;
}

/** @param {Response} res */
function sessionCookieOf(res) {
  const cookies = res.headers.getSetCookie().map((raw) => raw.split(";")[0]);
  return cookies.filter((c) => c.startsWith(`${COOKIE}=`) || c.startsWith(`${COOKIE}.`)).join("; ") || null;
}

/**
 * The same session cookie with the access token expired (as far as the client can tell).
 * @param {string} cookie
 */
function expireCookie(cookie) {
  const value = decodeURIComponent(cookie.slice(COOKIE.length + 1));
  const json = /** @type {Record<string, unknown>} */ (parseJson(Buffer.from(value.slice("base64-".length), "base64url").toString("utf8")));
  json.expires_at = Math.floor(Date.now() / 1000) - 60;
  json.expires_in = -60;
  return `${COOKIE}=base64-${Buffer.from(JSON.stringify(json), "utf8").toString("base64url")}`;
}

/**
 * @param {readonly number[]} sorted
 * @param {number} p
 */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

// ---- the load ------------------------------------------------------------------------------

/** @param {number} i */
async function signUp(i) {
  const email = `load-${Date.now().toString(36)}-${i}@example.com`;
  const res = await fetch(`${BASE}/api/auth/sign-up`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextIp() },
    body: JSON.stringify({ email, password: PASSWORD, confirmPassword: PASSWORD }),
  });
  const body = await res.text();
  const cookie = sessionCookieOf(res);
  if (res.status !== 200 || !cookie) throw new Error(`sign-up failed: ${res.status} ${body.slice(0, 200)}`);
  return { email, cookie };
}

async function mediaSizes() {
  const sizes = [];
  for (let n = 1; n <= 50; n++) {
    const res = await fetch(`${BASE}/${n}.mp4`, { method: "HEAD" });
    const size = Number(res.headers.get("Content-Length"));
    if (res.status === 200 && size > 0) sizes.push({ n, size });
  }
  if (sizes.length === 0) throw new Error("no media found: run `npm run media` (or let prepare-local seed it)");
  return sizes;
}

function chooseKind() {
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  let r = Math.random() * total;
  for (const [kind, weight] of Object.entries(MIX)) {
    if ((r -= weight) < 0) return kind;
  }
  return "page";
}

function pagePath() {
  const r = Math.random();
  if (r < 0.25) return "/";
  if (r < 0.45) return "/category/all?page=2";
  if (r < 0.75) return `/video/video_${String(randomInt(1, 50)).padStart(3, "0")}`;
  return `/search?q=${encodeURIComponent(pick(SEARCH_TERMS))}`;
}

/**
 * One request of a kind; returns what to record.
 * @param {string} kind
 * @param {WorkerState} state
 * @returns {Promise<Outcome>}
 */
async function runOne(kind, state) {
  let url;
  /** @type {Record<string, string>} */
  const headers = { "CF-Connecting-IP": nextIp() };
  /** @type {RequestInit} */
  const init = { redirect: "manual", headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  /** @type {(res: Response) => Promise<string | null>} */
  let check;
  if (kind === "page") {
    url = BASE + pagePath();
    check = async (res) => {
      const html = await res.text();
      if (res.status !== 200) return `status ${res.status}`;
      if (!html.trimEnd().endsWith("</html>")) return "truncated HTML";
      state.cache[res.headers.get("X-Cache") ?? "none"] = (state.cache[res.headers.get("X-Cache") ?? "none"] ?? 0) + 1;
      return null;
    };
  } else if (kind === "media") {
    const { n, size } = pick(state.media);
    const start = randomInt(0, size - 1);
    const end = Math.min(size - 1, start + randomInt(0, 256 * 1024));
    url = `${BASE}/${n}.mp4`;
    headers.Range = `bytes=${start}-${end}`;
    check = async (res) => {
      const body = await res.arrayBuffer();
      if (res.status !== 206) return `status ${res.status}`;
      if (body.byteLength !== end - start + 1) return `length ${body.byteLength} ≠ ${end - start + 1}`;
      if (res.headers.get("Content-Range") !== `bytes ${start}-${end}/${size}`) return "Content-Range";
      return null;
    };
  } else if (kind === "signin") {
    const user = pick(state.users);
    url = `${BASE}/api/auth/sign-in`;
    init.method = "POST";
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify({ email: user.email, password: PASSWORD });
    check = async (res) => {
      const body = await res.text();
      if (res.status !== 200) return `status ${res.status} ${body.slice(0, 80)}`;
      if (!sessionCookieOf(res)) return "no session cookie";
      return null;
    };
  } else {
    // Session refresh: each worker owns one session and rotates its refresh token.
    const session = state.sessions[state.worker];
    url = `${BASE}/api/auth/user`;
    headers.Cookie = expireCookie(session.cookie);
    check = async (res) => {
      const body = await res.text();
      if (res.status !== 200) return `status ${res.status} ${body.slice(0, 80)}`;
      const { user } = /** @type {{ user?: unknown }} */ (parseJson(body));
      const cookie = sessionCookieOf(res);
      if (!user) return "session lost";
      if (!cookie || res.headers.get("X-Auth-Event") !== "TOKEN_REFRESHED") return "not refreshed";
      session.cookie = cookie;
      return null;
    };
  }
  const started = performance.now();
  let status = 0;
  let problem = null;
  try {
    const res = await fetch(url, init);
    status = res.status;
    problem = await check(res);
  } catch (caught) {
    const error = /** @type {Error & { cause?: { code?: string } }} */ (caught);
    problem = error.name === "TimeoutError" ? "timeout" : `network: ${error.cause?.code ?? error.message}`;
  }
  return { kind, ms: performance.now() - started, status, problem };
}

/**
 * @param {number} seconds
 * @param {SharedState} shared
 * @param {(outcome: Outcome) => void} record
 */
async function runLoad(seconds, shared, record) {
  const stopAt = Date.now() + seconds * 1000;
  const workers = Array.from({ length: CONCURRENCY }, async (_, worker) => {
    const state = { ...shared, worker };
    while (Date.now() < stopAt) record(await runOne(chooseKind(), state));
  });
  await Promise.all(workers);
}

/** @returns {Stats} */
function newStats() {
  return { latencies: { all: [] }, counts: {}, fiveXX: 0, otherErrors: 0, problems: {} };
}

/**
 * @param {Stats} stats
 * @returns {(r: Outcome) => void}
 */
function recorder(stats) {
  return (r) => {
    (stats.latencies[r.kind] ??= []).push(r.ms);
    stats.latencies.all.push(r.ms);
    stats.counts[r.kind] = (stats.counts[r.kind] ?? 0) + 1;
    if (r.status >= 500) stats.fiveXX++;
    else if (r.problem) stats.otherErrors++;
    if (r.problem) {
      const key = `${r.kind}: ${r.problem}`;
      stats.problems[key] = (stats.problems[key] ?? 0) + 1;
    }
  };
}

// ---- main ----------------------------------------------------------------------------------

/**
 * Serves the worker of `cwd` with its local state (`state`, a --persist-to directory), through
 * Miniflare or (--wrangler-dev) `wrangler dev`, and waits until it answers `probePath`.
 * `server.workerd`: the runtime process that runs the worker, and wrangler dev's entry proxy.
 * @param {string} cwd
 * @param {string} probePath
 * @param {string | null} state
 * @returns {Promise<Server>}
 */
async function serve(cwd, probePath, state = null) {
  if (!WRANGLER_DEV) {
    const { mf, pid, worker } = await startMiniflare(cwd, { port: PORT, state, inspectorPort: HEAP ? INSPECTOR_PORT : undefined });
    /** @type {Server} */
    const server = { mf, worker, workerd: { entry: null, runtime: pid }, alive: () => isAlive(pid) };
    servers.add(server);
    const res = await fetch(`${BASE}${probePath}`);
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`the site answered ${probePath} with ${res.status}`);
    return server;
  }
  const { child, log } = startServer(cwd, state ? ["--persist-to", state] : []);
  /** @type {Server} */
  const server = { child, worker: null, workerd: { entry: null, runtime: null }, alive: () => child.exitCode === null };
  servers.add(server);
  await waitForServer({ url: `${BASE}${probePath}`, child, output: () => log.join("") });
  server.workerd = findWorkerd(child.pid ?? 0, PORT);
  return server;
}

/** @param {Server} server */
async function shutdown(server) {
  servers.delete(server);
  if (server.mf) await server.mf.dispose();
  else if (server.child) await stopServer(server.child, [server.workerd.entry, server.workerd.runtime]);
}

/** Servers of this run, stopped on exit whatever happens. @type {Set<Server>} */
const servers = new Set();

/**
 * Runs `load` for `seconds` while sampling RSS (every 5 s) and the JS heap (every 2 s). `wrangler
 * dev` restarts its runtime when watched files change (a build in the same tree, an edit): then
 * the samples follow the new process and the before/after comparison is reported as void.
 * @param {Server} server
 * @param {number} seconds
 * @param {(seconds: number) => Promise<void>} load
 * @param {HeapSampler | null} heap
 */
async function measured(server, seconds, load, heap) {
  let pid = server.workerd.runtime;
  /** @type {{ t: number, from: number | null, to: number }[]} */
  const restarts = [];
  const current = () => {
    if (!server.child) return pid;
    const now = findWorkerd(server.child.pid ?? 0, PORT);
    if (now.runtime && now.runtime !== pid) {
      restarts.push({ t: Math.round((Date.now() - started) / 1000), from: pid, to: now.runtime });
      pid = now.runtime;
      server.workerd = now;
    }
    return pid;
  };
  // What the worker's isolate holds after a full GC, before the soak and after it: a leak in
  // the site's code shows as a difference here, whatever the runtime around it does.
  const gcBefore = heap ? await heap.afterGc() : null;
  const rssBefore = pid ? rssMiB(pid) : null;
  const entryBefore = server.workerd.entry ? rssMiB(server.workerd.entry) : null;
  const started = Date.now();
  /** @type {RssSample[]} */
  const samples = rssBefore === null ? [] : [{ t: 0, rssMiB: rssBefore }];
  const rssTimer = setInterval(() => {
    const p = current();
    samples.push({ t: Math.round((Date.now() - started) / 1000), rssMiB: p ? rssMiB(p) : null });
  }, 5000);
  /** @type {({ t: number } & Partial<HeapUsage>)[]} */
  const heapSamples = [];
  /** @type {Promise<unknown>} */
  let sampling = Promise.resolve();
  const heapTimer = heap
    ? setInterval(() => {
        sampling = sampling.then(async () => heapSamples.push({ t: Math.round((Date.now() - started) / 100) / 10, ...(await heap.sample()) }));
      }, 2000)
    : null;
  await load(seconds);
  const elapsed = (Date.now() - started) / 1000;
  clearInterval(rssTimer);
  if (heapTimer) clearInterval(heapTimer);
  await sampling;
  await sleep(3000);
  const endPid = current();
  const rssAfter = endPid ? rssMiB(endPid) : null;
  const entryAfter = server.workerd.entry ? rssMiB(server.workerd.entry) : null;
  const heapEnd = heap ? await heap.sample() : null;
  const gcAfter = heap ? await heap.afterGc() : null;
  const window = Math.min(30, elapsed / 4);
  const comparable = restarts.length === 0 && rssBefore !== null && rssAfter !== null;
  const first = comparable ? rssWindow(samples, 0, window) : null;
  const last = comparable ? rssWindow(samples, elapsed - window, elapsed) : null;
  if (restarts.length)
    console.warn(`loadtest: wrangler dev restarted its runtime ${restarts.length}× (files changed under it); RSS before/after are not comparable`);
  return {
    elapsed,
    memory: {
      runtimePid: pid,
      runtimeRestarts: restarts,
      rssBeforeMiB: rssBefore,
      rssAfterMiB: rssAfter,
      rssGrowthMiB: rssAfter !== null && rssBefore !== null && comparable ? Math.round((rssAfter - rssBefore) * 10) / 10 : null,
      rssFirstWindow: first,
      rssLastWindow: last,
      /** The soak's figure: mean RSS of the last window minus that of the first. */
      rssMeanGrowthMiB: first && last ? last.meanMiB - first.meanMiB : null,
      rssSlopeMiBPerMin: comparable ? rssSlope(samples) : null,
      rssSamples: samples,
      entryProxy: server.workerd.entry ? { pid: server.workerd.entry, rssBeforeMiB: entryBefore, rssAfterMiB: entryAfter } : null,
      jsHeap: heap
        ? {
            ...Object.fromEntries(
              /** @type {const} */ (["usedMiB", "totalMiB", "buffersMiB"]).map((field) => [
                field.replace("MiB", ""),
                {
                  firstWindow: heapWindow(heapSamples, 0, window, field),
                  lastWindow: heapWindow(heapSamples, elapsed - window, elapsed, field),
                  after: heapEnd?.[field] ?? null,
                },
              ]),
            ),
            afterFullGc: { before: gcBefore, after: gcAfter },
            samples: heapSamples,
          }
        : null,
    },
  };
}

/** A trivial worker for the control run. */
function writeControlWorker() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yingshi-loadtest-control-"));
  fs.writeFileSync(path.join(dir, "worker.js"), 'export default { fetch() { return new Response("ok"); } };\n');
  fs.writeFileSync(path.join(dir, "wrangler.toml"), 'name = "loadtest-control"\nmain = "worker.js"\ncompatibility_date = "2026-04-01"\nsend_metrics = false\n');
  return dir;
}

/** @param {number | null | undefined} x */
const signed = (x) => (x === null || x === undefined ? "?" : `${x >= 0 ? "+" : ""}${x}`);
/** @param {RssBand} w */
const band = (w) => (w ? `${w.minMiB}–${w.maxMiB} (mean ${w.meanMiB})` : "?");

/**
 * @param {string} label
 * @param {Awaited<ReturnType<typeof measured>>["memory"]} memory
 */
function printMemory(label, memory) {
  console.log(
    `${label} workerd runtime RSS: ${memory.rssBeforeMiB} MiB before → ${memory.rssAfterMiB} MiB after (${signed(memory.rssGrowthMiB)} MiB); every 5 s: ${memory.rssSamples.map((s) => s.rssMiB).join(", ")}`,
  );
  console.log(
    `${label} workerd runtime RSS, first 30 s ${band(memory.rssFirstWindow)} MiB, last 30 s ${band(memory.rssLastWindow)} MiB: mean ${signed(memory.rssMeanGrowthMiB)} MiB, slope ${signed(memory.rssSlopeMiBPerMin)} MiB/min`,
  );
  if (memory.entryProxy)
    console.log(`${label} workerd entry proxy RSS: ${memory.entryProxy.rssBeforeMiB} MiB before → ${memory.entryProxy.rssAfterMiB} MiB after`);
  if (memory.jsHeap) {
    /** @type {[string, string][]} */
    const names = [
      ["used", "JS heap in use"],
      ["total", "JS heap committed"],
      ["buffers", "ArrayBuffers (bodies)"],
    ];
    for (const [key, name] of names) {
      const figures =
        /** @type {Record<string, { firstWindow: { minMiB: number, maxMiB: number } | null, lastWindow: { minMiB: number, maxMiB: number } | null, after: number | null }>} */ (
          /** @type {unknown} */ (memory.jsHeap)
        );
      const { firstWindow: a, lastWindow: b, after } = figures[key];
      console.log(
        `${label} worker isolate, ${name}: first ${a ? `${a.minMiB}–${a.maxMiB}` : "?"} MiB, last ${b ? `${b.minMiB}–${b.maxMiB}` : "?"} MiB, after ${after ?? "?"} MiB`,
      );
    }
    const { before, after } = memory.jsHeap.afterFullGc;
    console.log(
      `${label} worker isolate after a full GC: JS heap in use ${before?.usedMiB ?? "?"} MiB before the soak → ${after?.usedMiB ?? "?"} MiB after (${before?.usedMiB != null && after?.usedMiB != null ? signed(Math.round((after.usedMiB - before.usedMiB) * 10) / 10) : "?"} MiB), ArrayBuffers ${before?.buffersMiB ?? "?"} → ${after?.buffersMiB ?? "?"} MiB`,
    );
  }
}

async function main() {
  if (BUILD) {
    build();
    const { prepareLocal } = await import("./prepare-local.mjs");
    await prepareLocal({ log: () => {} });
  }
  const site = siteSnapshot(serverEnv);
  cleanups.push(() => fs.rmSync(site, { recursive: true, force: true }));
  console.log(`loadtest: serving with ${WRANGLER_DEV ? "wrangler dev" : "Miniflare (one workerd process)"} on ${BASE} (a snapshot of the build in ${site})`);
  // A copy of the local state (media in R2, accounts in D1) with the account service's rate-limit
  // counters cleared: the sign-ups of earlier runs within the hour must not answer 429 here.
  const state = path.join(site, "state");
  fs.cpSync(path.join(root, ".wrangler/state"), state, { recursive: true });
  const clear = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "d1", "execute", "DB", "--local", "--persist-to", state, "--command", "DELETE FROM rate_limits"],
    { cwd: site, env: serverEnv, encoding: "utf8" },
  );
  if (clear.status !== 0) throw new Error(`clearing the rate limits of the state copy failed:\n${clear.stdout}\n${clear.stderr}`);
  const server = await serve(site, "/robots.txt", state);
  console.log(
    `loadtest: workerd runtime PID ${server.workerd.runtime}${server.workerd.entry ? `, entry proxy PID ${server.workerd.entry}` : ""}, worker bundled as ${serverEnv.NODE_ENV}`,
  );
  // Connected before any load: wrangler's inspector proxy holds the isolate's messages until a
  // devtools client connects, and a client that connects late gets that whole backlog at once.
  const heap = HEAP ? await heapSampler(server.worker) : null;

  const users = [];
  for (let i = 0; i < USERS; i++) users.push(await signUp(i));
  const sessions = [];
  for (let i = 0; i < CONCURRENCY; i++) sessions.push({ cookie: (await signUp(USERS + i)).cookie });
  const media = await mediaSizes();
  /** @type {SharedState} */
  const shared = { users, sessions, media, cache: {} };
  const posterCookies = [];
  if (!ONLY && DANMAKU_VIEWERS > 0) for (let i = 0; i < DANMAKU_POSTERS; i++) posterCookies.push((await signUp(USERS + CONCURRENCY + i)).cookie);
  // Open through the warm-up and the soak; the posters post during the soak.
  const danmaku = posterCookies.length ? await startDanmakuSoak({ base: BASE, viewers: DANMAKU_VIEWERS, posterCookies }) : null;

  console.log(`loadtest: warm-up ${WARMUP_S} s, then ${DURATION_S} s with ${CONCURRENCY} concurrent workers (mix ${JSON.stringify(MIX)})`);
  const warm = newStats();
  const warmStarted = Date.now();
  /** @type {RssSample[]} */
  const warmRss = [];
  const warmTimer = setInterval(
    () => warmRss.push({ t: Math.round((Date.now() - warmStarted) / 1000), rssMiB: server.workerd.runtime === null ? null : rssMiB(server.workerd.runtime) }),
    5000,
  );
  await runLoad(WARMUP_S, shared, recorder(warm));
  clearInterval(warmTimer);
  if (warmRss.length) console.log(`loadtest: warm-up RSS every 5 s: ${warmRss.map((s) => s.rssMiB).join(", ")}`);
  await sleep(1000);

  const stats = newStats();
  shared.cache = {};
  const run = await measured(
    server,
    DURATION_S,
    async (seconds) => {
      await Promise.all([runLoad(seconds, shared, recorder(stats)), danmaku?.run(seconds)]);
    },
    heap,
  );
  const danmakuReport = danmaku?.report() ?? null;
  danmaku?.close();
  const alive = server.alive();
  heap?.close();
  await shutdown(server);

  let control = null;
  if (CONTROL) {
    console.log(`loadtest: control — the same load shape on a trivial worker for ${DURATION_S} s`);
    const dir = writeControlWorker();
    try {
      const controlServer = await serve(dir, "/");
      let requests = 0;
      /** @param {number} seconds */
      const load = async (seconds) => {
        const stopAt = Date.now() + seconds * 1000;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (Date.now() < stopAt) {
              const res = await fetch(`${BASE}/`);
              await res.arrayBuffer();
              requests++;
            }
          }),
        );
      };
      // A trivial worker's runtime settles within a minute or two (README).
      await load(Math.min(WARMUP_S, 180));
      requests = 0;
      const measuredControl = await measured(controlServer, DURATION_S, load, null);
      await shutdown(controlServer);
      control = { requests, throughputRps: Math.round((requests / measuredControl.elapsed) * 10) / 10, memory: measuredControl.memory };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  const elapsed = run.elapsed;
  const kinds = Object.keys(MIX).filter((k) => stats.latencies[k]);
  /** @type {Record<string, { requests: number, rps: number, p50Ms: number | null, p99Ms: number | null, maxMs: number | null }>} */
  const perKind = {};
  for (const kind of ["all", ...kinds]) {
    const sorted = [...stats.latencies[kind]].sort((a, b) => a - b);
    perKind[kind] = {
      requests: sorted.length,
      rps: Math.round((sorted.length / elapsed) * 10) / 10,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: percentile(sorted, 100),
    };
  }
  const result = {
    date: new Date().toISOString(),
    command: `npm run loadtest -- ${process.argv.slice(2).join(" ")}`.trim(),
    durationS: Math.round(elapsed * 10) / 10,
    warmupS: WARMUP_S,
    concurrency: CONCURRENCY,
    mix: MIX,
    workerBundle: serverEnv.NODE_ENV,
    machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100), node: process.version },
    totalRequests: stats.latencies.all.length,
    throughputRps: perKind.all.rps,
    latency: perKind,
    fiveXX: stats.fiveXX,
    otherErrors: stats.otherErrors,
    problems: stats.problems,
    pageCache: shared.cache,
    danmaku: danmakuReport,
    runtime: WRANGLER_DEV ? "wrangler dev" : "miniflare",
    warmup: { requests: warm.latencies.all.length, fiveXX: warm.fiveXX, otherErrors: warm.otherErrors, rssSamples: warmRss },
    memory: run.memory,
    control,
    serverAliveAtEnd: alive,
  };

  console.log("\nkind      requests   req/s    p50 ms   p99 ms   max ms");
  for (const [kind, s] of Object.entries(perKind)) {
    console.log(
      `${kind.padEnd(9)} ${String(s.requests).padStart(8)} ${String(s.rps).padStart(7)} ${String(s.p50Ms).padStart(9)} ${String(s.p99Ms).padStart(8)} ${String(s.maxMs).padStart(8)}`,
    );
  }
  console.log(`\n5xx: ${stats.fiveXX}   other errors: ${stats.otherErrors}${Object.keys(stats.problems).length ? ` ${JSON.stringify(stats.problems)}` : ""}`);
  console.log(`page cache: ${JSON.stringify(shared.cache)}`);
  if (danmakuReport) {
    const d = danmakuReport;
    console.log(
      `弹幕: ${d.viewers} viewers and ${d.posters} posters in ${d.rooms.length} rooms; ${d.posted} posted, ${d.acknowledged} acknowledged, refused ${JSON.stringify(d.refused)}; ${d.deliveriesReceived}/${d.deliveriesExpected} deliveries, lost ${d.lostComments}; delivery p50 ${d.deliveryP50Ms} ms, p99 ${d.deliveryP99Ms} ms; sockets closed under load ${d.socketsClosedUnexpectedly}`,
    );
  }
  printMemory("site:", run.memory);
  if (control) {
    console.log(`control: ${control.requests} requests, ${control.throughputRps} req/s`);
    printMemory("control:", control.memory);
  }

  const dir = path.join(root, "bench-results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `loadtest-${result.date.replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
  console.log(`\nwritten: ${path.relative(root, file)}`);
  const lost = (danmakuReport?.lostComments ?? 0) > 0 || (danmakuReport?.socketsClosedUnexpectedly ?? 0) > 0;
  return stats.fiveXX > 0 || lost || !alive ? 1 : 0;
}

/** Temporary directories to remove at the end. @type {(() => void)[]} */
const cleanups = [];

async function stopAll() {
  for (const server of [...servers]) await shutdown(server);
  for (const cleanup of cleanups.splice(0)) cleanup();
}

for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

main().then(
  async (code) => {
    await stopAll();
    process.exit(code);
  },
  async (error) => {
    console.error(error);
    await stopAll();
    process.exit(1);
  },
);
