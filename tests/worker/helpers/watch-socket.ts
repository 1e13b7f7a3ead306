// A 一起看 room as a test sees it: opened through the worker (POST /api/watch), its WebSocket
// (/api/watch/{code}/ws) with a visitor's cookies, messages queued until a test waits for them.
import type { ServerMessage } from "../../../shared/watch/protocol";
import { BASE, call, type Jar } from "./visitor";

export interface WatchSocket {
  ws: WebSocket;
  /** The next message that matches (earlier unmatched ones stay queued). */
  next<T extends ServerMessage = ServerMessage>(match?: (m: ServerMessage) => boolean): Promise<T>;
  seen: ServerMessage[];
  send(message: unknown): void;
  /** Resolves when the socket closed, with its code. */
  closed: Promise<number>;
}

/** Opens a room on `videoId` (episode, position) as the signed-in `jar`; returns its code. */
export async function openRoom(jar: Jar, videoId: string, episode = 1, position = 0): Promise<string> {
  const res = await call("POST", "/api/watch", { jar, json: { videoId, episode, position }, headers: { Origin: BASE } });
  if (res.status !== 201) throw new Error(`room refused: ${res.status} ${await res.text()}`);
  return (await res.json<{ code: string }>()).code;
}

export async function connect(code: string, o: { jar?: Jar; origin?: string | null } = {}): Promise<WatchSocket> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (o.origin !== null) headers.Origin = o.origin ?? BASE;
  const res = await call("GET", `/api/watch/${code}/ws`, { jar: o.jar, headers });
  if (res.status !== 101) throw new Error(`upgrade refused: ${res.status} ${await res.text()}`);
  const ws = res.webSocket!;
  const queue: ServerMessage[] = [];
  const seen: ServerMessage[] = [];
  const waiters: Array<{ match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (event) => resolve(event.code)));
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
    closed,
    send: (message) => ws.send(JSON.stringify(message)),
    next<T extends ServerMessage>(match: (m: ServerMessage) => boolean = () => true): Promise<T> {
      const i = queue.findIndex(match);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0] as T);
      return new Promise<T>((resolve) => waiters.push({ match, resolve: resolve as (m: ServerMessage) => void }));
    },
  };
}

/** Connects and joins as `nickname`; resolves with the socket and its welcome. */
export async function join(code: string, nickname: string, o: { jar?: Jar } = {}) {
  const socket = await connect(code, o);
  socket.send({ type: "join", nickname });
  const welcome = await socket.next<Extract<ServerMessage, { type: "welcome" }>>(isType("welcome"));
  return { socket, welcome };
}

export const isType =
  <T extends ServerMessage["type"]>(type: T) =>
  (m: ServerMessage): m is Extract<ServerMessage, { type: T }> =>
    m.type === type;
