import { useSyncExternalStore } from "react";
import { isRoomGuest, ROOM_ROLE } from "./in-room";

function subscribeRoomGuest(listener: () => void): () => void {
  document.addEventListener(ROOM_ROLE, listener);
  return () => document.removeEventListener(ROOM_ROLE, listener);
}

/** Whether this viewer is a guest of the 一起看 room the page is in (false on the server). */
export const useRoomGuest = (): boolean => useSyncExternalStore(subscribeRoomGuest, isRoomGuest, () => false);
