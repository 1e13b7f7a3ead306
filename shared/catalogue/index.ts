import type { Video } from "./types";
import { rawVideos } from "./videos";

export type { Video } from "./types";

/** The four main categories shown in the header and on the home tiles (spec §2). */
export const MAIN_CATEGORIES = ["电影", "电视剧", "综艺", "纪录片"] as const;

/** Strips any number of leading slashes and adds exactly one: "1.mp4", "/1.mp4", "//1.mp4" → "/1.mp4". */
export function normaliseMediaPath(path: string): string {
  return "/" + path.replace(/^\/+/, "");
}

/** The catalogue with media paths normalised (spec §3: a leading / is added if missing). */
export const videos: readonly Video[] = Object.freeze(rawVideos.map((video) => ({ ...video, videoFile: normaliseMediaPath(video.videoFile) })));

const videosById: ReadonlyMap<string, Video> = new Map(videos.map((video) => [video.id, video]));

export function getVideo(id: string): Video | undefined {
  return videosById.get(id);
}

const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  all: "全部视频",
  电影: "电影大全",
  电视剧: "电视剧",
  综艺: "综艺节目",
  纪录片: "纪录片",
  动画: "动画片",
  微电影: "微电影",
  网络剧: "网络剧",
};

/** Display name of a category (spec §9); names without a special display name are returned as given. */
export function categoryDisplayName(name: string): string {
  return Object.hasOwn(DISPLAY_NAMES, name) ? DISPLAY_NAMES[name] : name;
}

/** The number in a video id: video_007 → 7. */
export function videoNumber(video: Video): number {
  return Number.parseInt(video.id.replace(/^video_/, ""), 10);
}
