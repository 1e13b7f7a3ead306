/**
 * Where a page opened in a 一起看 room on the browser's own HLS loads first (decision 0100): its
 * <video> has nothing to load (client/inline/page-head.ts took the src off its <source>) until the
 * room's sync says where the room is (ROOM_START, sync.ts). Its own chunk, loaded only by such a
 * page (shared/player/stream-engine.ts); in-room.ts's names come as literals checked by their
 * types, and `inRoom` from the caller — a value import would make in-room.ts a chunk of its own.
 */
import type { ROOM_ROLE, ROOM_START, RoomStart } from "./in-room";

const ROOM_START_EVENT: typeof ROOM_START = "roomstart";
const ROOM_ROLE_EVENT: typeof ROOM_ROLE = "roomrole";

/**
 * How long (ms) the player waits for its room's first answer before it loads the video from its
 * own start (a room that does not answer: the page then plays as a page not in a room would).
 */
export const ROOM_START_WAIT_MS = 8000;

/**
 * The room's first answer; or the page's own start (from 0:00, as its <video autoplay> would)
 * when none came within ROOM_START_WAIT_MS or the page left the room (a closed room: WatchParty.tsx).
 */
export function roomStart(video: HTMLVideoElement, inRoom: () => boolean): Promise<RoomStart> {
  return new Promise((resolve) => {
    const finish = (at: RoomStart) => {
      clearTimeout(timer);
      document.removeEventListener(ROOM_START_EVENT, onStart);
      document.removeEventListener(ROOM_ROLE_EVENT, onRole);
      resolve(at);
    };
    const own = () => finish({ time: 0, play: video.autoplay });
    const onStart = (event: Event) => finish((event as CustomEvent<RoomStart>).detail);
    const onRole = () => inRoom() || own();
    const timer = setTimeout(own, ROOM_START_WAIT_MS);
    document.addEventListener(ROOM_START_EVENT, onStart);
    document.addEventListener(ROOM_ROLE_EVENT, onRole);
  });
}
