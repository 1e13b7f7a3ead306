// @ts-check
/**
 * Response scheduling of the bench's local front (scripts/production-site.mjs) by the browser's
 * RFC 9218 `priority` request header (`u=0..7`, lower first; `i` = incremental), as Cloudflare's
 * edge schedules HTTP/2 and HTTP/3 responses: of the responses of one connection that have bytes
 * ready, the most urgent goes first; among equally urgent ones, non-incremental responses go one
 * at a time in request order, incremental ones take turns. Chromium sends u=0 for stylesheets,
 * u=1 for scripts and fetch preloads, u=2 for images, u=3 incremental for media.
 *
 * Without it, Node's HTTP/2 server interleaves every response round-robin: over a slow link the
 * render-blocking stylesheet then arrives only with the last byte of the page's JavaScript.
 * The scheduler keeps at most `window` bytes written but not yet sent on the connection (a
 * write completes once its bytes have left the link: scripts/throttle.mjs), so it decides the
 * order close to the wire.
 */

/** The largest piece handed to HTTP/2 at once. */
const PIECE_BYTES = 4096;
/** Unsent bytes a connection may hold before the scheduler waits (about two pieces on the link). */
const WINDOW_BYTES = 3 * PIECE_BYTES;
/** A response's body is read from the origin until this much waits in the front. */
const READ_AHEAD_BYTES = 256 * 1024;

/**
 * RFC 9218 priority of a request (defaults: u=3, not incremental).
 * @param {string | string[] | undefined} header
 */
export function parsePriority(header) {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  let urgency = 3;
  let incremental = false;
  for (const part of value.split(",")) {
    const item = part.trim();
    const u = /^u=([0-7])$/.exec(item);
    if (u) urgency = Number(u[1]);
    else if (item === "i" || item === "i=?1") incremental = true;
    else if (item === "i=?0") incremental = false;
  }
  return { urgency, incremental };
}

/**
 * @typedef {{ write: (chunk: Buffer, callback: () => void) => unknown, end: () => unknown, once: (event: "close", listener: () => void) => unknown }} Sink
 * @typedef {{ sink: Sink, urgency: number, incremental: boolean, seq: number, turns: number, queue: Buffer[], queued: number, unsent: number, ended: boolean, closed: boolean, source: NodeJS.ReadableStream }} Entry
 */

/** One connection's scheduler. */
export class PriorityScheduler {
  constructor() {
    /** @type {Entry[]} */
    this.entries = [];
    this.unsent = 0;
    this.seq = 0;
    this.turn = 0;
  }

  /**
   * Sends `source` to `sink` under this connection's schedule.
   * @param {Sink} sink
   * @param {{ urgency: number, incremental: boolean }} priority
   * @param {NodeJS.ReadableStream} source
   */
  add(sink, priority, source) {
    /** @type {Entry} */
    const entry = { sink, ...priority, seq: this.seq++, turns: 0, queue: [], queued: 0, unsent: 0, ended: false, closed: false, source };
    this.entries.push(entry);
    // A response the browser cancelled (a media request it no longer needs): its unsent bytes no longer count.
    sink.once("close", () => {
      if (entry.closed) return;
      entry.closed = true;
      this.unsent -= entry.unsent;
      entry.unsent = 0;
      entry.queue = [];
      entry.queued = 0;
      this.entries = this.entries.filter((e) => e !== entry);
      entry.source.resume();
      this.pump();
    });
    source.on("data", (/** @type {Buffer} */ chunk) => {
      entry.queue.push(chunk);
      entry.queued += chunk.length;
      if (entry.queued > READ_AHEAD_BYTES) source.pause();
      this.pump();
    });
    source.on("end", () => {
      entry.ended = true;
      this.pump();
    });
    source.on("error", () => {
      entry.ended = true;
      entry.queue = [];
      entry.queued = 0;
      this.pump();
    });
  }

  /** The response whose bytes go next, or null. @returns {Entry | null} */
  pick() {
    /** @type {Entry | null} */
    let best = null;
    for (const e of this.entries) {
      if (e.queued === 0) continue;
      if (!best || e.urgency < best.urgency) best = e;
      else if (e.urgency === best.urgency) {
        // Non-incremental before incremental, in request order; incremental ones by turns.
        if (best.incremental && !e.incremental) best = e;
        else if (!best.incremental && !e.incremental && e.seq < best.seq) best = e;
        else if (best.incremental && e.incremental && e.turns < best.turns) best = e;
      }
    }
    return best;
  }

  pump() {
    // Finished responses end at once (their last bytes are already written).
    this.entries = this.entries.filter((e) => {
      if (e.ended && e.queued === 0) {
        e.sink.end();
        return false;
      }
      return true;
    });
    while (this.unsent < WINDOW_BYTES) {
      const entry = this.pick();
      if (!entry) return;
      const head = /** @type {Buffer} */ (entry.queue[0]);
      const piece = head.subarray(0, PIECE_BYTES);
      if (piece.length === head.length) entry.queue.shift();
      else entry.queue[0] = head.subarray(PIECE_BYTES);
      entry.queued -= piece.length;
      entry.turns = ++this.turn;
      if (entry.queued < READ_AHEAD_BYTES / 2) entry.source.resume();
      this.unsent += piece.length;
      entry.unsent += piece.length;
      entry.sink.write(piece, () => {
        if (entry.closed) return;
        entry.unsent -= piece.length;
        this.unsent -= piece.length;
        this.pump();
      });
      if (entry.ended && entry.queued === 0) {
        entry.sink.end();
        this.entries = this.entries.filter((e) => e !== entry);
      }
    }
  }
}
