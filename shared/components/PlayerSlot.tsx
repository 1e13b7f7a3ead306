import type { Video } from "../catalogue/types";
import { COVER_HEIGHT, COVER_WIDTH } from "./VideoCard";

/** The player's place on the detail page: the cover at the player's size. */
export function PlayerSlot({ video }: { video: Video }) {
  return (
    <div className="player-frame">
      <img src={`/${video.coverImage}`} data-fallback="/fallback-cover.svg" alt={`${video.title} 封面`} width={COVER_WIDTH} height={COVER_HEIGHT} fetchPriority="high" />
    </div>
  );
}
