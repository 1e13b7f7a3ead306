/**
 * Which 弹幕 room a key names (shared/danmaku/model.ts roomKey: `{videoId}` or
 * `{videoId}~{episode}`), and whether that title exists: the one place the 弹幕 code asks the
 * catalogue. Every route and the room's sample seeding go through it.
 */
import { parseRoomKey, roomKey } from "../../shared/danmaku/model";
import { durationSeconds } from "../../shared/danmaku/samples";

/** A room that exists, as the routes hand it to the DanmakuRoom object. */
export interface RoomRef {
  /** The canonical key: also the Durable Object's name. */
  key: string;
  videoId: string;
  episode: number;
  /** Running time (s) for the sample comments of a built-in title's room; null: no samples. */
  sampleSeconds: number | null;
}

/** The room of `key` when the key is well formed and its title (and episode) exists in the D1 catalogue; null otherwise. */
export async function findRoom(env: Pick<Env, "DB">, key: string): Promise<RoomRef | null> {
  const place = parseRoomKey(key);
  if (!place) return null;
  const title = await env.DB.prepare("SELECT duration, episode_count FROM titles WHERE id = ?")
    .bind(place.videoId)
    .first<{ duration: string; episode_count: number }>();
  if (!title || place.episode > title.episode_count) return null;
  return {
    key: roomKey(place.videoId, place.episode),
    videoId: place.videoId,
    episode: place.episode,
    sampleSeconds: place.episode === 1 ? durationSeconds(title.duration) : null,
  };
}
