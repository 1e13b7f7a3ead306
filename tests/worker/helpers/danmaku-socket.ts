// A 弹幕 room's WebSocket as a test sees it: opened through the worker (/api/danmaku/{room}/ws)
// with a visitor's cookies, its messages queued until a test waits for them.
import type { ServerMessage } from "../../../shared/danmaku/model";
import { call, type Jar } from "./visitor";

/** The origin the worker tests' requests come from (helpers/visitor.ts `call`). */
export const BASE = "https://yingshi.test";

export interface Socket {
  ws: WebSocket;
  /** The next message that matches (earlier unmatched ones stay queued). */
  next(match?: (m: ServerMessage) => boolean): Promise<ServerMessage>;
  /** Every message received so far. */
  seen: ServerMessage[];
  send(message: unknown): void;
}

export interface SocketOptions {
  jar?: Jar;
  /** The Origin header (default: the request's own origin); null: none. */
  origin?: string | null;
  after?: number;
  /** Origin of the request (default https://yingshi.test). */
  base?: string;
  /** Variables of this upgrade's worker request (e.g. DANMAKU_SHARD_SIZE). */
  env?: Partial<Env>;
}

export async function openSocket(room: string, o: SocketOptions = {}): Promise<Socket> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (o.origin !== null) headers.Origin = o.origin ?? o.base ?? BASE;
  const res = await call("GET", `/api/danmaku/${room}/ws${o.after !== undefined ? `?after=${o.after}` : ""}`, {
    jar: o.jar,
    headers,
    base: o.base,
    env: o.env,
  });
  if (res.status !== 101) throw new Error(`upgrade refused: ${res.status} ${await res.text()}`);
  const ws = res.webSocket!;
  const queue: ServerMessage[] = [];
  const seen: ServerMessage[] = [];
  const waiters: Array<{ match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data as string) as ServerMessage;
    seen.push(message);
    const i = waiters.findIndex((w) => w.match(message));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(message);
    else queue.push(message);
  });
  ws.accept();
  return {
    ws,
    seen,
    send: (message) => ws.send(JSON.stringify(message)),
    next(match = () => true) {
      const i = queue.findIndex(match);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

export const isType =
  <T extends ServerMessage["type"]>(type: T) =>
  (m: ServerMessage): m is Extract<ServerMessage, { type: T }> =>
    m.type === type;
