#!/usr/bin/env node
// @ts-check
/**
 * One receiving process of scripts/bench-danmaku-shards.mjs, which forks BENCH_RECEIVERS of them
 * so that reading the read-only sockets' frames does not share an event loop with the posters and
 * the clock that times them. Driven over IPC (advanced serialisation):
 *   → { type: "open", base, room, count, concurrency, probeEvery }   opens `count` read-only sockets
 *   ← { type: "progress", opened }                                   every 250 sockets
 *   ← { type: "opened", shards, failure, errors }                    the shard of each socket, the first that would not open
 *   → { type: "reset" }                                              counters to zero (after the warm-up)
 *   ← { type: "reset" }                                              done
 *   ← { type: "delivered", delivered }                               every 100 ms: comments received since the reset
 *   → { type: "report", sentAt }                                     sentAt[n]: wall-clock ms the comment `b{n}` was sent
 *   ← { type: "report", perShard, total, post, fanOut, cpuSeconds, loopDelayP99Ms, loopDelayMaxMs }
 *   → { type: "close" }                                              closes every socket and exits
 * Each comment a probe socket receives is timed: send → arrival (total), send → the room's store
 * (the comment's `created`: the post path), store → arrival (the fan-out).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
import { parseJson } from "./json.mjs";

/** @typedef {{ type: "open", base: string, room: string, count: number, concurrency: number, probeEvery: number }} OpenCommand */
/** @typedef {OpenCommand | { type: "reset" } | { type: "report", sentAt: number[] } | { type: "close" }} Command */

/** Wall-clock ms with a fraction (comparable with the `created` stamps workerd's Date.now() gives). */
const wallNow = () => performance.timeOrigin + performance.now();

const TEXT_MARK = Buffer.from('"text":"');
/** @param {Buffer} data */
function countComments(data) {
  let n = 0;
  for (let at = data.indexOf(TEXT_MARK); at >= 0; at = data.indexOf(TEXT_MARK, at + 1)) n++;
  return n;
}

/** @param {unknown} message */
const tell = (message) => process.send?.(message);

/** Errors of sockets (opening or open). */
/** @type {string[]} */
const errors = [];

/**
 * A read-only socket once its hello came, with the shard that holds it (the 101's X-Danmaku-Shard).
 * @param {string} base
 * @param {string} room
 * @returns {Promise<{ ws: WebSocket, shard: number }>}
 */
function open(base, room) {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/danmaku/${room}/ws`, { headers: { Origin: base }, perMessageDeflate: false });
  let shard = -1;
  ws.once("upgrade", (res) => (shard = Number(res.headers["x-danmaku-shard"] ?? -1)));
  return new Promise((resolve, reject) => {
    ws.once("message", () => resolve({ ws, shard }));
    ws.once("error", (error) => {
      errors.push(error.message);
      reject(error);
    });
  });
}

/** {@link open}, tried up to three times. */
async function openRetrying(/** @type {string} */ base, /** @type {string} */ room) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await open(base, room);
    } catch (error) {
      if (attempt === 3) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

/** @type {Array<{ ws: WebSocket, shard: number }>} */
const sockets = [];
/** Per shard: frames and comments its sockets received since the reset. */
/** @type {Map<number, { frames: number, comments: number }>} */
const perShard = new Map();
let delivered = 0;
/** Probe arrivals since the reset: the comment's number (text `b{n}`), when it arrived, its `created`. */
const arrivals = { n: /** @type {number[]} */ ([]), at: /** @type {number[]} */ ([]), created: /** @type {number[]} */ ([]) };
let cpuAtReset = process.cpuUsage();
let resetAt = performance.now();
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

/** @param {OpenCommand} command */
async function openAll({ base, room, count, concurrency, probeEvery }) {
  /** @type {{ at: number, error: string } | null} */
  let failure = null;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count && !failure) {
        const i = next++;
        try {
          sockets.push(await openRetrying(base, room));
          if (sockets.length % 250 === 0) tell({ type: "progress", opened: sockets.length });
        } catch (error) {
          failure ??= { at: i, error: error instanceof Error ? error.message : String(error) };
        }
      }
    }),
  );
  sockets.forEach(({ ws, shard }, i) => {
    const tally = perShard.get(shard) ?? { frames: 0, comments: 0 };
    perShard.set(shard, tally);
    const probe = i % probeEvery === 0;
    ws.on("error", (error) => errors.push(error.message));
    ws.on("message", (/** @type {Buffer} */ data) => {
      const n = countComments(data);
      tally.frames++;
      tally.comments += n;
      delivered += n;
      if (!probe || n === 0) return;
      const now = wallNow();
      const message = /** @type {import("../shared/danmaku/model").ServerMessage} */ (parseJson(data.toString()));
      const comments = message.type === "comment" ? [message.comment] : message.type === "comments" ? message.comments : [];
      for (const c of comments) {
        if (!c.text.startsWith("b")) continue; // the warm-up's
        arrivals.n.push(Number(c.text.slice(1)));
        arrivals.at.push(now);
        arrivals.created.push(c.created);
      }
    });
  });
  tell({ type: "opened", shards: sockets.map((s) => s.shard), failure, errors: [...new Set(errors)] });
}

function reset() {
  delivered = 0;
  for (const tally of perShard.values()) [tally.frames, tally.comments] = [0, 0];
  arrivals.n.length = arrivals.at.length = arrivals.created.length = 0;
  cpuAtReset = process.cpuUsage();
  resetAt = performance.now();
  loopDelay.reset();
  loopDelay.enable();
}

/** @param {number[]} sentAt */
function report(sentAt) {
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuAtReset);
  const total = new Float64Array(arrivals.n.length);
  const post = new Float64Array(arrivals.n.length);
  const fanOut = new Float64Array(arrivals.n.length);
  let k = 0;
  for (let i = 0; i < arrivals.n.length; i++) {
    const start = sentAt[arrivals.n[i]];
    if (start === undefined) continue;
    total[k] = arrivals.at[i] - start;
    post[k] = arrivals.created[i] - start;
    fanOut[k] = arrivals.at[i] - arrivals.created[i];
    k++;
  }
  tell({
    type: "report",
    perShard: Object.fromEntries(perShard),
    total: total.subarray(0, k),
    post: post.subarray(0, k),
    fanOut: fanOut.subarray(0, k),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    seconds: (performance.now() - resetAt) / 1000,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
    errors: errors.length,
  });
}

setInterval(() => tell({ type: "delivered", delivered }), 100);
process.on("disconnect", () => process.exit(0));
process.on("message", (data) => {
  const command = /** @type {Command} */ (data);
  if (command.type === "open") void openAll(command);
  else if (command.type === "reset") {
    reset();
    tell({ type: "reset" });
  } else if (command.type === "report") report(command.sentAt);
  else if (command.type === "close") {
    for (const { ws } of sockets) ws.terminate();
    process.exit(0);
  }
});
