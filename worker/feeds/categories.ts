/**
 * Category ids of the feeds (MacCMS's type_id / type_pid): the four main categories, 动画 and
 * the sub-types under their main category. Ids are part of what apps store (a TV box keeps the
 * tab's type_id), so they never change; a new category gets the next free id.
 */
import type { Video } from "../../shared/catalogue/types";

export interface FeedCategory {
  id: number;
  /** Parent category id, 0 for a top-level one. */
  pid: number;
  name: string;
}

export const FEED_CATEGORIES: readonly FeedCategory[] = Object.freeze([
  { id: 1, pid: 0, name: "电影" },
  { id: 2, pid: 0, name: "电视剧" },
  { id: 3, pid: 0, name: "综艺" },
  { id: 4, pid: 0, name: "纪录片" },
  { id: 5, pid: 0, name: "动画" },
  { id: 6, pid: 2, name: "网络剧" },
  { id: 7, pid: 2, name: "短剧" },
  { id: 8, pid: 1, name: "微电影" },
  { id: 9, pid: 0, name: "其他" },
]);

/** Titles whose categories name none of the above. */
export const OTHER_TYPE_ID = 9;

const idsByName = new Map(FEED_CATEGORIES.map((c) => [c.name, c]));

/** A title's category id: a sub-type it names (短剧) before a main category (电视剧), else 其他. */
export function typeIdOf(video: Video): number {
  const known = video.category.flatMap((name) => idsByName.get(name) ?? []);
  return (known.find((c) => c.pid !== 0) ?? known[0])?.id ?? OTHER_TYPE_ID;
}

export function categoryName(id: number, categories: readonly FeedCategory[] = FEED_CATEGORIES): string {
  return categories.find((c) => c.id === id)?.name ?? "";
}
