/** Category names and display rules: small, fixed, safe for both bundles (no catalogue data). */

/** The four main categories shown in the header and on the home tiles (spec §2). */
export const MAIN_CATEGORIES = ["电影", "电视剧", "综艺", "纪录片"] as const;

/** Strips any number of leading slashes and adds exactly one: "1.mp4", "/1.mp4", "//1.mp4" → "/1.mp4". */
export function normaliseMediaPath(path: string): string {
  return "/" + path.replace(/^\/+/, "");
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
