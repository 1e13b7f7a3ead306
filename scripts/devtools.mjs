// @ts-check
/**
 * A minimal Chrome DevTools Protocol client for a worker isolate on an inspector port: `wrangler
 * dev`'s (ws://<ip>:<port>/ws) or workerd's own under Miniflare (ws://<ip>:<port>/core:user:<name>).
 * Used by the benchmark (CPU profile of SSR requests) and the load test (JS heap samples).
 */

import { parseJson } from "./json.mjs";

/**
 * Request options for the SSR CPU figures: an uncompressed answer. Miniflare's entry worker
 * gzips HTML as Cloudflare's front line does, but inside workerd, while the site's isolate pumps
 * the body, so a V8 profile of the isolate counts that gzip too (the nameless native frame at the
 * profile's root: 0.64–0.73 ms of `/` with gzip, 0.15–0.17 ms without). In production the front
 * line compresses outside the worker, so the worker's own CPU is measured without it.
 * Node's fetch asks for gzip unless told otherwise.
 */
export const UNCOMPRESSED = { headers: { "accept-encoding": "identity" } };

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {number} port  the inspector port given to `wrangler dev --inspector-port` (or Miniflare's `inspectorPort`)
 * @param {string} ip
 * @param {string} target  the websocket path: "ws" for wrangler's inspector proxy; workerd's own
 *   inspector (Miniflare) names each worker, e.g. "core:user:yingshi"
 * @returns {Promise<{ call: (method: string, params?: object, timeoutMs?: number) => Promise<unknown>, close: () => void } | null>}
 *   null when nothing answers on the port
 */
export async function connectDevtools(port, ip = "127.0.0.1", target = "ws") {
  // Node 20 has no global WebSocket: the `ws` package that wrangler installs (browser-compatible events).
  const WebSocketImpl = globalThis.WebSocket ?? (await import("ws")).default;
  /** @type {WebSocket} */
  let socket;
  try {
    socket = new WebSocketImpl(`ws://${ip}:${port}/${target}`);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", reject, { once: true });
    });
  } catch {
    return null;
  }
  let id = 0;
  /** @type {Map<number, (result: unknown) => void>} */
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = /** @type {{ id?: number, error?: unknown, result?: unknown }} */ (parseJson(String(event.data)));
    if (message.id === undefined) return; // events (console messages, …) are not needed here
    pending.get(message.id)?.(message.error ? null : (message.result ?? null));
    pending.delete(message.id);
  });
  return {
    /**
     * Resolves with the result, or null on an error answer or after `timeoutMs`.
     * @param {string} method
     * @param {object} [params]
     * @param {number} [timeoutMs]
     * @returns {Promise<unknown>}
     */
    call(method, params = {}, timeoutMs = 3000) {
      return Promise.race([
        new Promise((resolve) => {
          pending.set(++id, resolve);
          socket.send(JSON.stringify({ id, method, params }));
        }),
        sleep(timeoutMs).then(() => null),
      ]);
    },
    close() {
      socket.close();
    },
  };
}

/**
 * Busy time of a V8 CPU profile in milliseconds: every sampled interval whose node is not
 * "(idle)" — the isolate's JavaScript, its native work ("(program)") and garbage collection.
 *
 * workerd samples an isolate only while it runs: the time between two requests shows up as one
 * long `timeDeltas` entry on the next sample, not as idle samples. So an interval counts for at
 * most `capFactor` times the median interval (the sampler's real period).
 * @param {{ nodes: { id: number, callFrame: { functionName: string } }[], samples: number[], timeDeltas: number[] }} profile
 */
export function busyMs(profile, capFactor = 4) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const deltas = profile.timeDeltas.slice(1).sort((a, b) => a - b);
  if (deltas.length === 0) return 0;
  const cap = deltas[Math.floor(deltas.length / 2)] * capFactor;
  let micros = 0;
  // timeDeltas[i] is the time from sample i-1 to sample i: the interval that sample i stands for
  for (let i = 1; i < profile.samples.length; i++) if (!idle.has(profile.samples[i])) micros += Math.min(profile.timeDeltas[i], cap);
  return micros / 1000;
}
