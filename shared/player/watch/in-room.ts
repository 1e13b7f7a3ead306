import { useSyncExternalStore } from "react";

/**
 * The player's side of a 一起看 room, kept tiny (it is in the player's first chunk; the room itself
 * is a lazy chunk, WatchParty.tsx): a page in a room has ?room= on its URL (from the room's link,
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

function subscribeRoomGuest(listener: () => void): () => void {
  document.addEventListener(ROOM_ROLE, listener);
  return () => document.removeEventListener(ROOM_ROLE, listener);
}

/** Whether this viewer is a guest of the 一起看 room the page is in (false on the server). */
export const useRoomGuest = (): boolean => useSyncExternalStore(subscribeRoomGuest, isRoomGuest, () => false);
