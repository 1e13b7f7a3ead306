/**
 * 一起看 over HTTP and WebSocket, in front of one WatchRoom per room code (room.ts):
 *   POST /api/watch              {videoId, episode, position} → {code, path}: opens a room (signed in, same-site Origin)
 *   GET  /api/watch/{code}       what the room plays (JSON), 404 once closed
 *   GET  /api/watch/{code}/ws    the room's WebSocket (same-site Origin; anyone joins with a nickname, signed-in members chat)
 *   GET  /w/{code}               the short link: 302 to the video page with ?room={code}
 * docs/decisions/0100-watch-rooms.md.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { MAX_VIDEO_TIME } from "../../shared/danmaku/model";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { videoPath } from "../../shared/episodes";
import { isRoomCode, roomCodeFrom, roomPath, WATCH_MESSAGES, type RoomState } from "../../shared/watch/protocol";
import type { AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { applySession, createRequestSession, currentUser, storedSession, userFromStoredToken } from "../auth/session";
import { defaultBlockedWords } from "../danmaku/policy";
import type { SocketSession } from "../danmaku/room";
import { WATCH_SESSION_HEADER, WATCH_WORDS_HEADER } from "./room";

const noStore = { "Cache-Control": "no-store" };

function roomOf(env: Env, code: string) {
  return env.WATCH.get(env.WATCH.idFromName(code));
}

const error = (c: Context<AppEnv>, code: string, message: string, status: 400 | 401 | 403 | 404 | 413 | 426 | 503) =>
  c.json({ error: { code, message } }, status, noStore);

/** The path a room's members watch: the episode's page (a film's own page) with ?room=. */
export function watchPagePath(state: Pick<RoomState, "videoId" | "episode" | "episodeCount">, code: string): string {
  return `${state.episodeCount > 1 ? videoPath(state.videoId, state.episode) : videoPath(state.videoId)}?room=${code}`;
}

export const watchApi = new Hono<AppEnv>();

watchApi.post("/", bodyLimit({ maxSize: 1024, onError: (c) => error(c as Context<AppEnv>, "too_large", "请求过大", 413) }), async (c) => {
  if (!isFromThisSite(c.req.raw, c.env)) return error(c, "foreign", "禁止跨站请求", 403);
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return error(c, "bad_request", "请求格式有误", 400);
  }
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const { videoId } = fields;
  const episode = fields.episode ?? 1;
  const position = fields.position ?? 0;
  if (!isTitleId(videoId)) return error(c, "unknown_video", "视频不存在", 404);
  if (typeof episode !== "number" || !Number.isInteger(episode) || episode < 1) return error(c, "bad_episode", WATCH_MESSAGES.badEpisode, 400);
  if (typeof position !== "number" || !Number.isFinite(position) || position < 0 || position > MAX_VIDEO_TIME)
    return error(c, "bad_position", WATCH_MESSAGES.badControl, 400);
  const session = createRequestSession(c);
  const result = await currentUser(session);
  if (!result.user)
    return applySession(
      session,
      result.transient ? error(c, "unavailable", "服务暂时不可用，请稍后再试", 503) : error(c, "not_signed_in", WATCH_MESSAGES.signInToCreate, 401),
    );
  const title = await c.env.DB.prepare("SELECT title, episode_count FROM titles WHERE id = ?").bind(videoId).first<{ title: string; episode_count: number }>();
  if (!title) return applySession(session, error(c, "unknown_video", "视频不存在", 404));
  if (episode > title.episode_count) return applySession(session, error(c, "bad_episode", WATCH_MESSAGES.badEpisode, 400));
  const code = roomCodeFrom(crypto.getRandomValues(new Uint8Array(8)));
  const opened = await roomOf(c.env, code).create({
    owner: result.user.id,
    videoId,
    title: title.title,
    episode,
    episodeCount: title.episode_count,
    position,
  });
  if (!opened) return applySession(session, error(c, "unavailable", "服务暂时不可用，请稍后再试", 503));
  return applySession(session, c.json({ code, path: roomPath(code) }, 201, noStore));
});

watchApi.get("/:code", async (c) => {
  const code = c.req.param("code");
  const state = isRoomCode(code) ? await roomOf(c.env, code).summary() : null;
  if (!state) return error(c, "closed", WATCH_MESSAGES.closed, 404);
  return c.json({ code, path: roomPath(code), page: watchPagePath(state, code), state }, 200, noStore);
});

/** The session of a WebSocket upgrade, without refreshing it (as worker/danmaku/api.ts reads it): the room asks it again before each chat line. */
async function socketSession(c: Context<AppEnv>): Promise<SocketSession | null> {
  const session = createRequestSession(c);
  if (!session.hasCookie) return null;
  const stored = await storedSession(session);
  const user = stored ? await userFromStoredToken(session) : null;
  return stored && user ? { user: user.id, accessToken: stored.access_token, expiresAt: stored.expires_at * 1000, site: new URL(c.req.url).origin } : null;
}

watchApi.get("/:code/ws", async (c) => {
  const code = c.req.param("code");
  if (!isRoomCode(code)) return error(c, "closed", WATCH_MESSAGES.closed, 404);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") return error(c, "upgrade_required", "需要 WebSocket 连接", 426);
  if (!isFromThisSite(c.req.raw, c.env)) return error(c, "foreign", "禁止跨站请求", 403);
  const member = await socketSession(c);
  const headers = new Headers({ Upgrade: "websocket", [WATCH_WORDS_HEADER]: encodeURIComponent(JSON.stringify(defaultBlockedWords(c.env))) });
  if (member) headers.set(WATCH_SESSION_HEADER, encodeURIComponent(JSON.stringify(member)));
  const upgraded = await roomOf(c.env, code).fetch(new Request("https://room/ws", { headers }));
  return upgraded.webSocket ? new Response(null, { status: 101, webSocket: upgraded.webSocket }) : upgraded;
});

/** GET /w/{code}: the short link. */
export async function shortLink(c: Context<AppEnv>): Promise<Response> {
  const code = c.req.param("code") ?? "";
  const state = isRoomCode(code) ? await roomOf(c.env, code).summary() : null;
  if (state) {
    const moved = c.redirect(watchPagePath(state, code), 302);
    moved.headers.set("Cache-Control", "no-store");
    return moved;
  }
  const page = `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${WATCH_MESSAGES.closed}</title><p>${WATCH_MESSAGES.closed}。<a href="/">返回首页</a></p></html>`;
  return c.html(page, 404, noStore);
}
