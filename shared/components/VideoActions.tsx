import type { Video } from "../catalogue/types";

/** Favourite and share buttons under the player. */
export function VideoActions({ video }: { video: Video }) {
  void video;
  return null;
}
