/**
 * The player's side of a 一起看 room, kept tiny and free of React (it is in the player's first chunk
 * and in the player page's head script, client/inline/page-head.ts; the room itself is a lazy
 * chunk, WatchParty.tsx): a page in a room has ?room= on its URL (from the room's link,
 * or set by WatchParty.tsx while the viewer is in one). In a room the player never moves the page
 * on by itself: a failure shows its error overlay, and its end with 自动连播 sends ROOM_NEXT (an
 * event on the document) for the room to decide. docs/decisions/0100-watch-rooms.md.
 */
export const inRoom = (): boolean => /[?&]room=/.test(location.search);

/** The event the player sends on `document` at its end with 自动连播 while in a room (instead of going to the next page). */
export const ROOM_NEXT = "roomnext";

/**
 * Whether this viewer is a guest of the room they are in: WatchParty.tsx sets `data-room-guest` on
 * <html>. Only the host's end moves the room on, so a guest's player offers no 即将播放下一集
 * countdown. WatchParty.tsx sends ROOM_ROLE on `document` when the viewer's role changes and when
 * the page enters or leaves a room (what the browser's own HLS plays for 自动 depends on it:
 * stream-engine.ts).
 */
export const ROOM_ROLE = "roomrole";

export const isRoomGuest = (): boolean => document.documentElement.dataset.roomGuest === "1";

/**
 * A page opened in a room on the browser's own HLS starts with nothing loaded (client/inline/page-head.ts):
 * the player marks its <video> with this attribute while it waits, and the room's sync sends
 * ROOM_START on `document` with where to load (a RoomStart) once the room has answered
 * (stream-engine.ts, room-start.ts, sync.ts).
 */
export const ROOM_START_WAITING = "data-room-start" as const;
export const ROOM_START = "roomstart" as const;

/** Where a page waiting for its room loads: the position (s) and whether the room plays. */
export interface RoomStart {
  time: number;
  play: boolean;
}
