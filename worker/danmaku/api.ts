/**
 * 弹幕 over HTTP and WebSocket (/api/danmaku/*), in front of one DanmakuRoom per episode (room.ts)
 * and its socket shards (shard.ts: the room picks one per socket).
 * {room} is a room key, `{videoId}` or `{videoId}~{episode}` (room-id.ts):
 *   GET  /api/danmaku/{room}?from=&to=   comments in a time window (JSON, short edge cache)
 *   GET  /api/danmaku/v3/?id={room}      the same in DPlayer's v3 shape
 *   OPTIONS on both                      CORS preflight: the reads are open to any origin (cors.ts)
 *   POST /api/danmaku/v3/                DPlayer's send (signed in, same-site Origin)
 *   GET  /api/danmaku/{room}/ws          the room's WebSocket (same-site Origin; anyone reads,
 *                                        signed-in users post)
 * The worker checks the Origin and the session before anything reaches the room; the room
 * checks the comment itself, the blocked words, whether the user may post (poster.ts: a socket's
 * session is asked again before its posts) and the user's rate limit (rate-limit.ts).
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { DANMAKU_MESSAGES, MAX_MESSAGE_BYTES, MAX_VIDEO_TIME, modeOfDplayerType, toDplayerItem, type DanmakuErrorCode } from "../../shared/danmaku/model";
import type { AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { configOf } from "../config";
import { applySession, createRequestSession, currentUser, storedSession, userFromStoredToken, type RequestSession } from "../auth/session";
import { shardName } from "../../shared/danmaku/shards";
import { MAX_READ, type PostResult, type RoomInfo, type SocketSession } from "./room";
import { SESSION_HEADER, WORDS_HEADER } from "./shard";
import { findRoom, type RoomRef } from "./room-id";
import { cachedJson } from "../edge-answers";
import { allowAnyOrigin, danmakuPreflight } from "./cors";
import { defaultBlockedWords } from "./policy";

/** Response header of a socket's 101: the index of the shard that holds it. */
export const SHARD_HEADER = "X-Danmaku-Shard";

/** Seconds the edge (and the browser) keeps a window or v3 answer: new comments arrive over the socket. */
export const READ_CACHE_SECONDS = 5;

const STATUS: Record<DanmakuErrorCode, 400 | 401 | 403 | 404 | 413 | 429 | 503> = {
  notSignedIn: 401,
  sessionEnded: 401,
  empty: 400,
  tooLong: 400,
  control: 400,
  badTime: 400,
  badMode: 400,
  badColor: 400,
  blocked: 400,
  tooFast: 429,
  tooLarge: 413,
  badRequest: 400,
  foreign: 403,
  unknownVideo: 404,
  unavailable: 503,
  muted: 403,
};

/** The default blocked words (policy.ts): the room uses them unless 弹幕管理 saved a list. */
const blockedWords = defaultBlockedWords;

function roomOf(env: Env, room: RoomRef) {
  return env.DANMAKU.get(env.DANMAKU.idFromName(room.key));
}

const infoOf = (room: RoomRef): RoomInfo => ({ key: room.key, sampleSeconds: room.sampleSeconds });

/**
 * The session of a WebSocket upgrade, without refreshing it (a 101 answer cannot carry the
 * refreshed cookie): the stored access token, while valid, is asked about; the room keeps it and
 * asks again before posts (poster.ts).
 */
async function socketSession(session: RequestSession, site: string): Promise<SocketSession | null> {
  const stored = await storedSession(session);
  const user = stored ? await userFromStoredToken(session) : null;
  return stored && user ? { user: user.id, accessToken: stored.access_token, expiresAt: stored.expires_at * 1000, site } : null;
}

/** Reads a query number in [0, MAX_VIDEO_TIME]; `fallback` when absent, null when malformed. */
function timeParam(value: string | undefined, fallback: number): number | null {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, MAX_VIDEO_TIME) : null;
}

/** Cache-Control of a window or v3 answer: kept at the edge (keyed by the URL) and in the browser for READ_CACHE_SECONDS. */
const READ_CACHE_CONTROL = `public, max-age=${READ_CACHE_SECONDS}`;
const noStore = { "Cache-Control": "no-store" };

function apiError(c: Context<AppEnv>, code: DanmakuErrorCode, retryAfterMs?: number): Response {
  const headers: Record<string, string> = { ...noStore };
  if (retryAfterMs !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return c.json({ error: { code, message: DANMAKU_MESSAGES[code] } }, STATUS[code], headers);
}

function dplayerError(c: Context<AppEnv>, code: DanmakuErrorCode, retryAfterMs?: number, message?: string): Response {
  const headers: Record<string, string> = { ...noStore };
  if (retryAfterMs !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return c.json({ code: 1, msg: message ?? DANMAKU_MESSAGES[code] }, STATUS[code], headers);
}

export const danmakuApi = new Hono<AppEnv>();

// DPlayer v3 read: {code: 0, data: [[time, type, colour, author, text], …]} by time.
danmakuApi.get("/v3/", async (c) => allowAnyOrigin(await readV3(c)));
danmakuApi.get("/v3", async (c) => allowAnyOrigin(await readV3(c)));
danmakuApi.options("/v3/", danmakuPreflight);
danmakuApi.options("/v3", danmakuPreflight);

async function readV3(c: Context<AppEnv>): Promise<Response> {
  const room = await findRoom(c.env, c.req.query("id") ?? "");
  if (!room) return dplayerError(c, "unknownVideo");
  const maxText = c.req.query("max");
  const max = maxText && /^\d{1,6}$/.test(maxText) ? Math.min(Number(maxText), MAX_READ) : MAX_READ;
  return cachedJson(c, new URL(c.req.url), READ_CACHE_CONTROL, async () => {
    const comments = await roomOf(c.env, room).list(infoOf(room), 0, MAX_VIDEO_TIME, max);
    return { body: { code: 0, data: comments.map(toDplayerItem) } };
  });
}

// DPlayer v3 send: {id, time, text, color, type} (token and author are ignored: the author is the session's user).
const postV3 = [
  bodyLimit({ maxSize: MAX_MESSAGE_BYTES, onError: (c) => dplayerError(c as Context<AppEnv>, "tooLarge") }),
  async (c: Context<AppEnv>) => {
    // Another origin may read the refusal (cors.ts), never write.
    if (!isFromThisSite(c.req.raw, c.env)) return allowAnyOrigin(dplayerError(c, "foreign"));
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(await c.req.arrayBuffer()));
    } catch {
      return dplayerError(c, "badRequest");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return dplayerError(c, "badRequest");
    const fields = body as Record<string, unknown>;
    const room = typeof fields.id === "string" ? await findRoom(c.env, fields.id) : null;
    if (!room) return dplayerError(c, "unknownVideo");
    const session = createRequestSession(c);
    const result = await currentUser(session);
    if (!result.user) return applySession(session, dplayerError(c, result.transient ? "unavailable" : "notSignedIn"));
    const mode = fields.type === undefined ? "scroll" : modeOfDplayerType(fields.type);
    if (!mode) return applySession(session, dplayerError(c, "badMode"));
    let posted: PostResult;
    try {
      posted = await roomOf(c.env, room).post(
        infoOf(room),
        result.user.id,
        { time: fields.time, text: fields.text, color: fields.color, mode },
        blockedWords(c.env),
      );
    } catch (error) {
      console.error("danmaku: the room failed", error);
      return applySession(session, dplayerError(c, "unavailable"));
    }
    if (!posted.ok) return applySession(session, dplayerError(c, posted.code, posted.retryAfterMs, posted.message));
    return applySession(session, c.json({ code: 0, data: posted.comment }, 200, noStore));
  },
] as const;
danmakuApi.post("/v3/", ...postV3);
danmakuApi.post("/v3", ...postV3);

// The room's WebSocket.
danmakuApi.get("/:room/ws", async (c) => {
  const room = await findRoom(c.env, c.req.param("room"));
  if (!room) return apiError(c, "unknownVideo");
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket")
    return c.json({ error: { code: "upgrade_required", message: "需要 WebSocket 连接" } }, 426, noStore);
  if (!isFromThisSite(c.req.raw, c.env)) return apiError(c, "foreign");
  const session = createRequestSession(c);
  const url = new URL(c.req.url);
  const poster = session.hasCookie ? await socketSession(session, url.origin) : null;
  const headers = new Headers({ Upgrade: "websocket", [WORDS_HEADER]: encodeURIComponent(JSON.stringify(blockedWords(c.env))) });
  if (poster) headers.set(SESSION_HEADER, encodeURIComponent(JSON.stringify(poster)));
  const after = url.searchParams.get("after");
  // The room picks the shard that will hold the socket (docs/decisions/0065-danmaku-shards.md).
  const shard = await roomOf(c.env, room).seat(infoOf(room), configOf(c.env).DANMAKU_SHARD_SIZE);
  const target = new URL("https://shard/ws");
  target.searchParams.set("key", room.key);
  target.searchParams.set("shard", String(shard));
  if (room.sampleSeconds !== null) target.searchParams.set("samples", String(room.sampleSeconds));
  if (after) target.searchParams.set("after", after);
  const upgraded = await c.env.DANMAKU_SHARD.get(c.env.DANMAKU_SHARD.idFromName(shardName(room.key, shard))).fetch(new Request(target, { headers }));
  // The shard's answer has immutable headers: a fresh 101 lets the security middleware add its own
  // (and names the shard, for the load generator: scripts/bench-danmaku-shards.mjs).
  return upgraded.webSocket ? new Response(null, { status: 101, webSocket: upgraded.webSocket, headers: { [SHARD_HEADER]: String(shard) } }) : upgraded;
});

// A time window of one room's comments, readable from any origin.
danmakuApi.options("/:room", danmakuPreflight);
danmakuApi.get("/:room", async (c) => allowAnyOrigin(await readWindow(c)));

async function readWindow(c: Context<AppEnv>): Promise<Response> {
  const room = await findRoom(c.env, c.req.param("room") ?? "");
  if (!room) return apiError(c, "unknownVideo");
  const from = timeParam(c.req.query("from"), 0);
  const to = timeParam(c.req.query("to"), MAX_VIDEO_TIME);
  if (from === null || to === null || from > to) return c.json({ error: { code: "bad_window", message: "时间范围无效" } }, 400, noStore);
  return cachedJson(c, new URL(c.req.url), READ_CACHE_CONTROL, async () => {
    const comments = await roomOf(c.env, room).list(infoOf(room), from, to);
    return { body: { room: room.key, videoId: room.videoId, episode: room.episode, from, to, comments } };
  });
}
