// @ts-check
/**
 * The 弹幕 part of `npm run loadtest` (scripts/loadtest.mjs): read-only viewers' WebSockets spread
 * over a few rooms, and signed-in posters that post over their own sockets at the pace the room's
 * rate limits allow for ever (one comment a user every POST_EVERY_MS: under both the 2 s limit and
 * 30 per 10 minutes). Every comment the room acknowledges must reach every viewer of its room: the
 * report counts comments posted, acknowledged and refused, deliveries expected and received (the
 * difference is lost comments), delivery latency (post sent → viewer received) and sockets that
 * closed under the load.
 */
import WebSocket from "ws";
import { parseJson } from "./json.mjs";

/** Rooms the sockets are spread over. */
const ROOMS = ["video_002", "video_004"];
/** Between two posts of one poster (ms): 30 per 10 minutes is one per 20 s. */
export const POST_EVERY_MS = 21_000;
/** How long the end waits for the last comments to arrive (ms). */
const DRAIN_MS = 5_000;

/** @typedef {import("../shared/danmaku/model").ServerMessage} ServerMessage */

/**
 * A socket to `room`, once its hello arrived.
 * @param {string} base
 * @param {string} room
 * @param {string | null} cookie
 * @returns {Promise<WebSocket>}
 */
function open(base, room, cookie) {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/danmaku/${room}/ws`, { headers: { Origin: base, ...(cookie ? { Cookie: cookie } : {}) } });
  return new Promise((resolve, reject) => {
    ws.once("message", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** @param {number[]} sorted @param {number} p */
const percentile = (sorted, p) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10 : null);

/**
 * Opens the sockets; `run(seconds)` posts for that long and waits for the deliveries; `report()`
 * gives the figures; `close()` closes every socket.
 * @param {{ base: string, viewers: number, posterCookies: string[] }} options
 */
export async function startDanmakuSoak({ base, viewers, posterCookies }) {
  /** @type {Map<string, { room: string, sentAt: number }>} */
  const posts = new Map();
  /** @type {Set<string>} texts the room acknowledged */
  const acked = new Set();
  /** @type {Record<string, number>} */
  const refused = {};
  /** @type {Map<string, number>} viewers per room */
  const viewersIn = new Map(ROOMS.map((room) => [room, 0]));
  /** @type {number[]} */
  const latencies = [];
  let received = 0;
  let closedUnexpectedly = 0;
  let closing = false;
  /** @type {WebSocket[]} */
  const sockets = [];

  for (let i = 0; i < viewers; i++) {
    const room = ROOMS[i % ROOMS.length];
    const ws = await open(base, room, null);
    viewersIn.set(room, (viewersIn.get(room) ?? 0) + 1);
    ws.on("message", (data) => {
      const now = performance.now();
      const message = /** @type {ServerMessage} */ (parseJson(String(data)));
      if (message.type !== "comment") return;
      const post = posts.get(message.comment.text);
      if (!post || post.room !== room) return;
      received++;
      latencies.push(now - post.sentAt);
    });
    ws.addEventListener("close", () => {
      if (!closing) closedUnexpectedly++;
    });
    sockets.push(ws);
  }
  /** @type {{ ws: WebSocket, room: string }[]} */
  const posters = [];
  for (const [i, cookie] of posterCookies.entries()) {
    const room = ROOMS[i % ROOMS.length];
    const ws = await open(base, room, cookie);
    ws.on("message", (data) => {
      const message = /** @type {ServerMessage & { message?: string }} */ (parseJson(String(data)));
      if (message.type === "ack") acked.add(message.comment.text);
      else if (message.type === "error") refused[message.message ?? "?"] = (refused[message.message ?? "?"] ?? 0) + 1;
    });
    ws.addEventListener("close", () => {
      if (!closing) closedUnexpectedly++;
    });
    sockets.push(ws);
    posters.push({ ws, room });
  }

  /** @param {number} seconds */
  async function run(seconds) {
    const stopAt = Date.now() + seconds * 1000;
    let n = 0;
    await Promise.all(
      posters.map(async (poster, i) => {
        // Spread the posters' turns over the interval.
        await new Promise((r) => setTimeout(r, (POST_EVERY_MS / posters.length) * i));
        while (Date.now() < stopAt) {
          const text = `soak-${Date.now().toString(36)}-${n++}`;
          posts.set(text, { room: poster.room, sentAt: performance.now() });
          poster.ws.send(JSON.stringify({ type: "post", nonce: text, time: (n % 50) + 1, text }));
          await new Promise((r) => setTimeout(r, Math.min(POST_EVERY_MS, Math.max(0, stopAt - Date.now()))));
        }
      }),
    );
    await new Promise((r) => setTimeout(r, DRAIN_MS));
  }

  function report() {
    let expected = 0;
    for (const text of acked) expected += viewersIn.get(posts.get(text)?.room ?? "") ?? 0;
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      rooms: ROOMS,
      viewers,
      posters: posters.length,
      posted: posts.size,
      acknowledged: acked.size,
      refused,
      deliveriesExpected: expected,
      deliveriesReceived: received,
      lostComments: Math.max(0, expected - received),
      deliveryP50Ms: percentile(sorted, 50),
      deliveryP99Ms: percentile(sorted, 99),
      socketsClosedUnexpectedly: closedUnexpectedly,
    };
  }

  function close() {
    closing = true;
    for (const ws of sockets) ws.close();
  }

  return { run, report, close };
}
