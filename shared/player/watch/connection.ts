/**
 * A member's WebSocket to a 一起看 room (/api/watch/{code}/ws): joins with the nickname, joins
 * again after a dropped connection (a growing pause between tries), and keeps the offset of the
 * server's clock from pings (the sample with the shortest round trip of the last few wins). Loaded
 * with the rest of 一起看 on demand (WatchMount.tsx).
 */
import { clockOffset, type ClientMessage, type ServerMessage } from "../../watch/protocol";

/** How often a member pings for the server's clock (ms). */
export const PING_EVERY_MS = 5000;
/** Close codes after which the room is gone or full: no new try. */
const FINAL_CODES = new Set([4403, 4404]);

export interface ConnectionEvents {
  message(message: ServerMessage): void;
  /** The socket dropped (a new try follows unless `final`). */
  down(final: boolean): void;
}

export class WatchConnection {
  private ws: WebSocket | null = null;
  private stopped = false;
  private tries = 0;
  private pinger: ReturnType<typeof setInterval> | undefined;
  private samples: Array<{ offset: number; rtt: number }> = [];
  /** Server clock minus this one (ms). */
  offset = 0;

  constructor(
    private readonly code: string,
    private readonly nickname: string,
    private readonly events: ConnectionEvents,
  ) {
    this.open();
  }

  /** The server's clock now (ms). */
  serverNow(): number {
    return Date.now() + this.offset;
  }

  private open(): void {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/api/watch/${this.code}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.tries = 0;
      this.send({ type: "join", nickname: this.nickname });
      this.ping();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(), PING_EVERY_MS);
    });
    ws.addEventListener("message", (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === "pong") this.takeSample(message.t, message.now);
      else if (message.type === "welcome" || message.type === "state") this.roughOffset(message.now);
      this.events.message(message);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      const final = this.stopped || FINAL_CODES.has(event.code);
      this.events.down(final);
      if (final) return;
      this.tries += 1;
      setTimeout(() => this.open(), Math.min(10_000, 500 * 2 ** Math.min(this.tries, 5)));
    });
  }

  /** Until a ping came back: the server's `now` as if it had just been sent. */
  private roughOffset(now: number): void {
    if (this.samples.length === 0) this.offset = now - Date.now();
  }

  private takeSample(sent: number, now: number): void {
    this.samples = [...this.samples.slice(-4), clockOffset(sent, now, Date.now())];
    this.offset = this.samples.reduce((best, s) => (s.rtt < best.rtt ? s : best)).offset;
  }

  private ping(): void {
    this.send({ type: "ping", t: Date.now() });
  }

  send(message: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(): void {
    this.stopped = true;
    clearInterval(this.pinger);
    this.ws?.close(1000, "bye");
  }
}
