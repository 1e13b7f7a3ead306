/** The key of a 弹幕 room: a video and an episode (shared/danmaku/model.ts re-exports these). */
import { isTitleId } from "../catalogue/title-ids";

/** Highest episode number a room key may name. */
export const MAX_EPISODE = 9999;
/** The separator of a room key's episode: unreserved in URLs, so keys need no escaping in a path or query. */
export const EPISODE_SEPARATOR = "~";

/** One room's place: a video and an episode (1 for a single title). */
export interface RoomPlace {
  videoId: string;
  episode: number;
}

/**
 * The key of an episode's 弹幕 room, as the WebSocket path, the window path and DPlayer's id
 * carry it, and the name of its Durable Object: `{videoId}` for episode 1 (or a single title,
 * so the rooms made before episodes existed stay where they are), `{videoId}~{n}` for n ≥ 2.
 */
export function roomKey(videoId: string, episode = 1): string {
  return episode === 1 ? videoId : `${videoId}${EPISODE_SEPARATOR}${episode}`;
}

const EPISODE = /^[1-9]\d{0,3}$/;

/**
 * The video and episode of a room key (`{videoId}` or `{videoId}~{n}`, the video a well-formed
 * title id, shared/catalogue/title-ids.ts, and n a whole number 1–9999 without leading zeros);
 * null for anything else.
 */
export function parseRoomKey(key: string): RoomPlace | null {
  const at = key.lastIndexOf(EPISODE_SEPARATOR);
  const videoId = at < 0 ? key : key.slice(0, at);
  if (!isTitleId(videoId)) return null;
  if (at < 0) return { videoId, episode: 1 };
  const n = key.slice(at + 1);
  return EPISODE.test(n) && Number(n) <= MAX_EPISODE ? { videoId, episode: Number(n) } : null;
}
