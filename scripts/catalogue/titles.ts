import type { Video } from "../../shared/catalogue/types";
import catalogueFile from "../../catalogue/titles.json";
import { normaliseMediaPath } from "../../shared/catalogue/categories";

export type { Episode, Video } from "../../shared/catalogue/types";
export { categoryDisplayName, MAIN_CATEGORIES, normaliseMediaPath } from "../../shared/catalogue/categories";

/**
 * The catalogue file as written by operators (catalogue/titles.json), whole, in memory: for
 * scripts and unit tests only. The worker and the browser never import this module: they read
 * titles from D1 (worker/catalogue/; docs/decisions/0050-catalogue-in-d1.md). The build
 * validates the file with shared/catalogue/schema.ts and stops on any problem.
 */
export const rawVideos = catalogueFile as readonly Video[];

/** The catalogue with media paths normalised (spec §3: a leading / is added if missing). */
export const videos: readonly Video[] = Object.freeze(rawVideos.map((video) => ({ ...video, videoFile: normaliseMediaPath(video.videoFile) })));

const videosById: ReadonlyMap<string, Video> = new Map(videos.map((video) => [video.id, video]));

export function getVideo(id: string): Video | undefined {
  return videosById.get(id);
}

/** The number in a video id: video_007 → 7. */
export function videoNumber(video: Video): number {
  return Number.parseInt(video.id.replace(/^video_/, ""), 10);
}
