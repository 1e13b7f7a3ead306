#!/usr/bin/env node
/**
 * `npm run loadtest`: a bounded mixed load on loopback against the locally served site.
 *
 *  1. builds the client (vite build) and prepares the local bindings (media in R2, D1),
 *  2. starts `wrangler dev` on 127.0.0.1:8795 (the same command as `npm start`),
 *  3. signs up a few users, warms up, then runs a fixed number of concurrent workers (fetch
 *     with keep-alive, all in this process) for a fixed time, each picking at random:
 *       - page     SSR pages: /, /category/all?page=2, /video/video_0NN, /search?q=…
 *       - media    206 seeks: GET /N.mp4 with a random `Range: bytes=a-b`
 *       - signin   POST /api/auth/sign-in (JSON) with a signed-up user
 *       - refresh  GET /api/auth/user with a session whose access token was made to expire
 *                  (the worker refreshes it; the new cookie is kept for the next round)
 *  4. reports requests, throughput, p50/p99 latency per kind and overall, 5xx and other errors,
 *     and the RSS of the workerd process before and after; writes
 *     bench-results/loadtest-<timestamp>.json; exits 1 on any 5xx.
 *
 * Options: --duration <s> (120), --warmup <s> (10), --concurrency <n> (8), --port <n> (8795),
 *          --no-build (reuse dist/ and the prepared bindings).
 *
 * Visitor addresses: the worker rate-limits sign-in per CF-Connecting-IP, which on loopback
 * the client sets itself; each request takes one address from a fixed pool (so counters stay
 * bounded and under the limits). In production Cloudflare sets CF-Connecting-IP itself and
 * overwrites whatever a client sends.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// ---- options -------------------------------------------------------------------------------

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
const WARMUP_S = option("warmup", 10);
const CONCURRENCY = option("concurrency", 8);
const PORT = option("port", 8795);
const BUILD = !process.argv.includes("--no-build");
const USERS = 8;
const PASSWORD = "loadtest-pass-1";
const BASE = `http://127.0.0.1:${PORT}`;
const COOKIE = "yingshi-auth";

/** The mix: relative weights of the request kinds. */
const MIX = { page: 55, media: 30, refresh: 10, signin: 5 };
const SEARCH_TERMS = ["家", "爱情", "电影", "纪录", "综艺", "城市", "星", "hello", "%", "2024"];

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", FORCE_COLOR: "0" };

// ---- the server ----------------------------------------------------------------------------

function build() {
  const res = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit", env });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

function startServer() {
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "dev", "--port", String(PORT), "--ip", "127.0.0.1", "--log-level", "warn", "--show-interactive-dev-session=false"],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = [];
  const keep = (chunk) => {
    log.push(String(chunk));
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return { child, log };
}

async function waitForServer(child, log, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${log.join("")}`);
    try {
      const res = await fetch(`${BASE}/robots.txt`);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`the site did not answer at ${BASE} within ${timeoutMs} ms\n${log.join("")}`);
}

/** Stops our wrangler (and, through it, its workerd) by PID only. */
async function stopServer(child, workerdPid) {
  if (child.exitCode === null) child.kill("SIGTERM");
  for (let i = 0; i < 40 && child.exitCode === null; i++) await sleep(100);
  if (child.exitCode === null) child.kill("SIGKILL");
  if (workerdPid && isAlive(workerdPid)) {
    await sleep(500);
    if (isAlive(workerdPid)) process.kill(workerdPid, "SIGTERM");
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---- processes and memory ------------------------------------------------------------------

/** Parent PID and command name of every process, from /proc. */
function processTable() {
  const table = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      table.set(Number(entry), { ppid, comm });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The workerd process started by our wrangler (a descendant of its PID). */
function findWorkerd(rootPid) {
  const table = processTable();
  const queue = [rootPid];
  const seen = new Set();
  while (queue.length) {
    const pid = queue.shift();
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const [child, info] of table) {
      if (info.ppid !== pid) continue;
      if (info.comm.startsWith("workerd")) return child;
      queue.push(child);
    }
  }
  return null;
}

/** Resident memory of a process in MiB (VmRSS), or null. */
function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round((kb / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

// ---- helpers -------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const randomInt = (min, max) => min + Math.floor(Math.random() * (max - min + 1));

let ipCounter = 0;
/** One visitor address from a pool of 1024 (documentation range 198.18.0.0/15, benchmarking). */
function nextIp() {
  const n = ipCounter++ % 1024;
  return `198.18.${n >> 8}.${n & 255}`;
}

function sessionCookieOf(res) {
  const cookies = res.headers.getSetCookie().map((raw) => raw.split(";")[0]);
  return cookies.filter((c) => c.startsWith(`${COOKIE}=`) || c.startsWith(`${COOKIE}.`)).join("; ") || null;
}

/** The same session cookie with the access token expired (as far as the client can tell). */
function expireCookie(cookie) {
  const value = decodeURIComponent(cookie.slice(COOKIE.length + 1));
  const json = JSON.parse(Buffer.from(value.slice("base64-".length), "base64url").toString("utf8"));
  json.expires_at = Math.floor(Date.now() / 1000) - 60;
  json.expires_in = -60;
  return `${COOKIE}=base64-${Buffer.from(JSON.stringify(json), "utf8").toString("base64url")}`;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 10) / 10;
}

// ---- the load ------------------------------------------------------------------------------

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

/** One request of a kind; returns what to record. */
async function runOne(kind, state) {
  let url;
  const init = { redirect: "manual", headers: { "CF-Connecting-IP": nextIp() } };
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
    init.headers.Range = `bytes=${start}-${end}`;
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
    init.headers["Content-Type"] = "application/json";
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
    init.headers.Cookie = expireCookie(session.cookie);
    check = async (res) => {
      const body = await res.text();
      if (res.status !== 200) return `status ${res.status} ${body.slice(0, 80)}`;
      const user = JSON.parse(body).user;
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
  } catch (error) {
    problem = `network: ${error.cause?.code ?? error.message}`;
  }
  return { kind, ms: performance.now() - started, status, problem };
}

async function runLoad(seconds, shared, record) {
  const stopAt = Date.now() + seconds * 1000;
  const workers = Array.from({ length: CONCURRENCY }, async (_, worker) => {
    const state = { ...shared, worker };
    while (Date.now() < stopAt) record(await runOne(chooseKind(), state));
  });
  await Promise.all(workers);
}

function newStats() {
  return { latencies: { all: [] }, counts: {}, fiveXX: 0, otherErrors: 0, problems: {} };
}

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

async function main() {
  if (BUILD) {
    build();
    const { prepareLocal } = await import(path.join(root, "scripts/prepare-local.mjs"));
    await prepareLocal({ log: () => {} });
  }
  console.log(`loadtest: starting wrangler dev on ${BASE}`);
  const { child, log } = startServer();
  let workerdPid = null;
  const onSignal = async () => {
    await stopServer(child, workerdPid);
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await waitForServer(child, log);
    workerdPid = findWorkerd(child.pid);
    if (!workerdPid) console.warn("loadtest: workerd process not found; memory will not be reported");

    const users = [];
    for (let i = 0; i < USERS; i++) users.push(await signUp(i));
    const sessions = [];
    for (let i = 0; i < CONCURRENCY; i++) sessions.push({ cookie: (await signUp(USERS + i)).cookie });
    const media = await mediaSizes();
    const shared = { users, sessions, media, cache: {} };

    console.log(`loadtest: warm-up ${WARMUP_S} s, then ${DURATION_S} s with ${CONCURRENCY} concurrent workers (mix ${JSON.stringify(MIX)})`);
    const warm = newStats();
    await runLoad(WARMUP_S, shared, recorder(warm));
    await sleep(1000);
    const rssBefore = workerdPid ? rssMiB(workerdPid) : null;

    const stats = newStats();
    shared.cache = {};
    const samples = [];
    const sampler = setInterval(() => {
      if (workerdPid) samples.push({ t: Math.round((Date.now() - started) / 1000), rssMiB: rssMiB(workerdPid) });
    }, 5000);
    const started = Date.now();
    await runLoad(DURATION_S, shared, recorder(stats));
    const elapsed = (Date.now() - started) / 1000;
    clearInterval(sampler);
    await sleep(3000);
    const rssAfter = workerdPid ? rssMiB(workerdPid) : null;
    const alive = child.exitCode === null;

    const kinds = Object.keys(MIX).filter((k) => stats.latencies[k]);
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
      command: `npm run loadtest -- --duration ${DURATION_S}`,
      durationS: Math.round(elapsed * 10) / 10,
      warmupS: WARMUP_S,
      concurrency: CONCURRENCY,
      mix: MIX,
      machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
      totalRequests: stats.latencies.all.length,
      throughputRps: perKind.all.rps,
      latency: perKind,
      fiveXX: stats.fiveXX,
      otherErrors: stats.otherErrors,
      problems: stats.problems,
      pageCache: shared.cache,
      warmup: { requests: warm.latencies.all.length, fiveXX: warm.fiveXX, otherErrors: warm.otherErrors },
      memory: {
        workerdPid,
        rssBeforeMiB: rssBefore,
        rssAfterMiB: rssAfter,
        growthMiB: rssBefore !== null && rssAfter !== null ? Math.round((rssAfter - rssBefore) * 10) / 10 : null,
        samples,
      },
      serverAliveAtEnd: alive,
    };

    console.log("\nkind      requests   req/s    p50 ms   p99 ms   max ms");
    for (const [kind, s] of Object.entries(perKind)) {
      console.log(`${kind.padEnd(9)} ${String(s.requests).padStart(8)} ${String(s.rps).padStart(7)} ${String(s.p50Ms).padStart(9)} ${String(s.p99Ms).padStart(8)} ${String(s.maxMs).padStart(8)}`);
    }
    console.log(`\n5xx: ${stats.fiveXX}   other errors: ${stats.otherErrors}${Object.keys(stats.problems).length ? ` ${JSON.stringify(stats.problems)}` : ""}`);
    console.log(`page cache: ${JSON.stringify(shared.cache)}`);
    console.log(`workerd RSS: ${rssBefore} MiB before → ${rssAfter} MiB after (${result.memory.growthMiB >= 0 ? "+" : ""}${result.memory.growthMiB} MiB); samples ${samples.map((s) => s.rssMiB).join(", ")}`);

    const dir = path.join(root, "bench-results");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `loadtest-${result.date.replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
    console.log(`\nwritten: ${path.relative(root, file)}`);
    return stats.fiveXX > 0 || !alive ? 1 : 0;
  } finally {
    await stopServer(child, workerdPid);
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
