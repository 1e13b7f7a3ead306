// @ts-check
/**
 * The workerd processes of a `wrangler dev` (or of Miniflare) and what /proc says about them: used by the load test
 * (memory) and the benchmark (CPU time). Linux only.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** Parent PID and command name of every process, from /proc. */
function processTable() {
  /** @type {Map<number, { ppid: number, comm: string }>} */
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

/**
 * The workerd processes started by our wrangler (descendants of its PID): the entry proxy
 * (listening on `port`) and the runtime that runs the worker.
 * @param {number} rootPid
 * @param {number | string} port
 * @returns {{ entry: number | null, runtime: number | null }}
 */
export function findWorkerd(rootPid, port) {
  const table = processTable();
  /** @type {number[]} */
  const found = [];
  const queue = [rootPid];
  const seen = new Set();
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const [child, info] of table) {
      if (info.ppid !== pid) continue;
      if (info.comm.startsWith("workerd")) found.push(child);
      else queue.push(child);
    }
  }
  /** @param {number} pid */
  const cmdline = (pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
    } catch {
      return "";
    }
  };
  const entry = found.find((pid) => cmdline(pid).includes(`entry=127.0.0.1:${port} `)) ?? null;
  const runtime = found.find((pid) => pid !== entry) ?? null;
  return { entry, runtime };
}

/**
 * The workerd process that `parent` started itself (Miniflare's), or null.
 * @param {number} parent
 * @returns {number | null}
 */
export function childWorkerd(parent) {
  for (const [pid, info] of processTable()) if (info.ppid === parent && info.comm.startsWith("workerd")) return pid;
  return null;
}

/**
 * Resident memory of a process in MiB (VmRSS), or null.
 * @param {number} pid
 * @returns {number | null}
 */
export function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round((kb / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, every thread) a process has used so far, in milliseconds, or null.
 * @param {number} pid
 * @returns {number | null}
 */
export function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ = 100 on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The loopback TCP ports a process listens on (`ss`): workerd's entry, its inspector, its debug port.
 * @param {number} pid
 * @returns {number[]}
 */
export function listeningPorts(pid) {
  /** @type {number[]} */
  const ports = [];
  for (const line of execFileSync("ss", ["-ltnpH"], { encoding: "utf8" }).split("\n"))
    if (line.includes(`pid=${pid},`)) ports.push(Number(/127\.0\.0\.1:(\d+)\s/.exec(line)?.[1] ?? Number.NaN));
  return ports.filter(Number.isFinite);
}

/**
 * The runtime's own address behind wrangler's dev proxy (`findWorkerd`'s `entry`, listening on
 * `port`, which relays every request and every WebSocket frame through one Durable Object of its
 * own: wrangler's ProxyWorker): the runtime's loopback port that answers `probePath` as the proxy
 * does (but for the host the answer names). Benches that measure the Durable Objects (scripts/bench-danmaku-shards.mjs) talk to it
 * directly, so their figures are the objects' and not the proxy's. Uses `ss`.
 * @param {number} rootPid
 * @param {number} port
 * @param {string} [probePath]
 * @returns {Promise<{ baseURL: string, entry: number, runtime: number }>}
 */
export async function runtimeAddress(rootPid, port, probePath = "/robots.txt") {
  const { entry, runtime } = findWorkerd(rootPid, port);
  if (entry === null || runtime === null) throw new Error(`expected the dev proxy's and the runtime's workerd under ${rootPid}`);
  const ports = listeningPorts(runtime);
  const expected = await (await fetch(`http://127.0.0.1:${port}${probePath}`)).text();
  for (const candidate of ports) {
    try {
      const res = await fetch(`http://127.0.0.1:${candidate}${probePath}`, { signal: AbortSignal.timeout(5000) });
      // The answer names the host it was asked on (a sitemap line, say).
      if (res.status === 200 && (await res.text()) === expected.replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${candidate}`))
        return { baseURL: `http://127.0.0.1:${candidate}`, entry, runtime };
    } catch {
      // not an HTTP port (the inspector's)
    }
  }
  throw new Error(`no loopback port of workerd ${runtime} answers ${probePath} as the dev proxy on ${port} does`);
}

/**
 * CPU time of a process split into user and system (kernel) time, in milliseconds, or null.
 * @param {number} pid
 * @returns {{ userMs: number, systemMs: number } | null}
 */
export function cpuSplitMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { userMs: Number(fields[11]) * 10, systemMs: Number(fields[12]) * 10 };
  } catch {
    return null;
  }
}

/**
 * Time every thread of a process has run on a CPU and has waited on a run queue, runnable but not
 * running (ms, /proc/<pid>/task/<tid>/schedstat), or null. The waiting time is what the other
 * processes of a shared machine cost it.
 * @param {number} pid
 * @returns {{ runMs: number, waitMs: number } | null}
 */
export function schedMs(pid) {
  try {
    let run = 0;
    let wait = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        const [onCpu, onQueue] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
        run += onCpu;
        wait += onQueue;
      } catch {
        // a thread that ended meanwhile
      }
    }
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}
