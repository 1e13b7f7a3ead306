// @ts-check
/**
 * A phone's link in the bench's local front (scripts/production-site.mjs): one bottleneck per
 * direction, shared by every connection of a run, as the radio link of a real phone is — the
 * page's JavaScript, the playlists and the segments all compete for the same bits per second —
 * plus the round trip, applied to the bytes of the connection (so TLS and HTTP/2 pay their
 * round trips too, and a TCP connection costs one round trip before its first byte).
 *
 * The sending side (the front's TLS/HTTP2 server) sees the bottleneck as back-pressure: a write
 * completes once its bytes have left the link, so the server's HTTP/2 scheduler, not a hidden
 * queue, decides which stream's bytes go next — as a real server's does when its TCP window is
 * full. Not modelled: TCP slow start and loss, the radio's own scheduling, the queue of a real
 * cellular base station (bufferbloat).
 */
import { Duplex } from "node:stream";

/** The largest piece sent through the link at once: pieces of other connections interleave between them. */
export const PIECE_BYTES = 4096;

/**
 * One direction of a link: a serial transmitter of `bps` bits per second followed by `delayMs`
 * of propagation. Pure arithmetic over the caller's clock (ms).
 */
export class Bottleneck {
  /** @param {{ bps: number, delayMs: number }} options */
  constructor({ bps, delayMs }) {
    if (!(bps > 0)) throw new Error("a link needs a positive bandwidth");
    this.bps = bps;
    this.delayMs = delayMs;
    /** When the transmitter is free again. */
    this.freeAt = Number.NEGATIVE_INFINITY;
  }

  /**
   * `bytes` offered at `now`: when they have left the transmitter (it is free again for the next
   * bytes, of any connection) and when they arrive at the other end.
   * @param {number} bytes
   * @param {number} now
   */
  send(bytes, now) {
    const start = Math.max(now, this.freeAt);
    const departAt = start + (bytes * 8 * 1000) / this.bps;
    this.freeAt = departAt;
    return { departAt, arriveAt: departAt + this.delayMs };
  }
}

/**
 * @typedef {{ downBps: number, upBps: number, rttMs: number }} LinkProfile
 * @typedef {{ profile: LinkProfile, down: Bottleneck, up: Bottleneck, bytesDown: number }} Link
 */

/**
 * A fresh link (empty queues): give every connection of one run the same one.
 * @param {LinkProfile} profile
 * @returns {Link}
 */
export function createLink(profile) {
  return {
    profile,
    down: new Bottleneck({ bps: profile.downBps, delayMs: profile.rttMs / 2 }),
    up: new Bottleneck({ bps: profile.upBps, delayMs: profile.rttMs / 2 }),
    bytesDown: 0,
  };
}

/**
 * Runs `fn` at `at` (a performance.now() time).
 * @param {number} at
 * @param {() => void} fn
 */
function runAt(at, fn) {
  const wait = at - performance.now();
  if (wait <= 0) setImmediate(fn);
  else setTimeout(fn, wait);
}

/**
 * Deliveries in the order they were scheduled, each at its time (one timer per queue: timers of
 * nearby times may fire out of order, and a little early).
 * @param {(item: Buffer | null) => void} deliver
 */
function orderedDelivery(deliver) {
  /** @type {Array<{ at: number, item: Buffer | null }>} */
  const queue = [];
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  const drain = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0].at <= now + 1) deliver(/** @type {{ item: Buffer | null }} */ (queue.shift()).item);
    if (queue.length > 0) timer = setTimeout(drain, Math.max(0, queue[0].at - performance.now()));
  };
  return {
    /** @param {number} at  not earlier than the previous one's @param {Buffer | null} item */
    add(at, item) {
      queue.push({ at, item });
      timer ??= setTimeout(drain, Math.max(0, queue[0].at - performance.now()));
    },
    get pending() {
      return queue.length;
    },
  };
}

/**
 * The server's end of one client connection through `link`: hand it to a server with
 * `server.emit("connection", throttled(socket, link))`.
 * @param {import("node:net").Socket} client
 * @param {Link} link
 * @returns {Duplex}
 */
export function throttled(client, link) {
  const openedAt = performance.now();
  const { rttMs } = link.profile;
  // The client's first byte (its TLS hello) arrives after the TCP handshake's round trip and half of another.
  const firstArrival = openedAt + rttMs * 1.5;
  let lastUp = 0;
  let endWanted = false;
  const toClient = orderedDelivery((piece) => {
    if (piece && !client.destroyed) client.write(piece);
    if (endWanted && toClient.pending === 0 && !client.destroyed) client.end();
  });

  const duplex = new Duplex({
    writableHighWaterMark: PIECE_BYTES * 2,
    read() {},
    /** @param {Buffer} buffer  (no decodeStrings: false, so always a Buffer) @param {BufferEncoding} _encoding @param {(error?: Error | null) => void} callback */
    write(buffer, _encoding, callback) {
      let offset = 0;
      const next = () => {
        if (offset >= buffer.length || client.destroyed) return callback();
        const piece = buffer.subarray(offset, offset + PIECE_BYTES);
        offset += piece.length;
        const { departAt, arriveAt } = link.down.send(piece.length, performance.now());
        link.bytesDown += piece.length;
        toClient.add(arriveAt, piece);
        runAt(departAt, next);
      };
      next();
    },
    final(callback) {
      endWanted = true;
      if (toClient.pending === 0 && !client.destroyed) client.end();
      callback();
    },
    destroy(error, callback) {
      client.destroy();
      callback(error);
    },
  });
  const toServer = orderedDelivery((chunk) => {
    if (!duplex.destroyed) duplex.push(chunk);
  });

  client.on("data", (chunk) => {
    const { arriveAt } = link.up.send(chunk.length, performance.now());
    lastUp = Math.max(arriveAt, firstArrival, lastUp);
    toServer.add(lastUp, chunk);
  });
  client.on("end", () => {
    lastUp = Math.max(lastUp, performance.now() + rttMs / 2);
    toServer.add(lastUp, null);
  });
  client.on("close", () => duplex.destroy());
  client.on("error", () => duplex.destroy());
  return duplex;
}
