import type { QualityChoice } from "../library";

/** One rendition of a title's ladder, as the 清晰度 menu shows it. */
export interface Level {
  height: number;
  /** Peak bits per second (the master playlist's BANDWIDTH). */
  bandwidth: number;
  /** The rendition's media playlist (absolute path), for playing one rendition natively. */
  url: string;
}

/** Renditions from the lowest up (by height, then bandwidth). */
export function sortedLevels(levels: Level[]): Level[] {
  return [...levels].sort((a, b) => a.height - b.height || a.bandwidth - b.bandwidth);
}

/** The short name of a height: 1080P, 720P … */
export function heightLabel(height: number): string {
  return `${height}P`;
}

/** Chinese sites' names for the usual heights: 1080P 高清, 720P 清晰, 360P 流畅 … */
export function qualityName(height: number): string {
  if (height >= 2160) return "超清 4K";
  if (height >= 1080) return "高清";
  if (height >= 720) return "清晰";
  if (height >= 480) return "标清";
  if (height >= 360) return "流畅";
  return "极速";
}

/** The menu label of one rendition: "720P 清晰". */
export function levelLabel(height: number): string {
  return `${heightLabel(height)} ${qualityName(height)}`;
}

/** The menu label of automatic: 自动, or 自动(720P) once the height in use is known. */
export function autoLabel(currentHeight: number | null): string {
  return currentHeight ? `自动(${heightLabel(currentHeight)})` : "自动";
}

/** The control bar's short label of a choice. */
export function choiceLabel(choice: QualityChoice): string {
  return choice === "auto" ? "自动" : heightLabel(choice);
}

/**
 * The rendition to play for a remembered choice: the exact height, else the highest one below it
 * (a title without 1080P plays its best lower one), else the lowest; null for automatic or no levels.
 * `levels` is sorted by height, lowest first.
 */
export function levelForChoice(levels: readonly Level[], choice: QualityChoice): Level | null {
  if (choice === "auto" || levels.length === 0) return null;
  let best: Level | null = null;
  for (const level of levels) if (level.height <= choice) best = level;
  return best ?? levels[0];
}

/** The share of the browser's link estimate a rendition's peak bitrate may take in levelForLink. */
export const LINK_SHARE = 0.7;

/**
 * The rendition that fits a link of `downlinkMbps` (the browser's own estimate, Mbit/s): the
 * highest whose peak bitrate is at most LINK_SHARE of it, else the lowest. Null where automatic is
 * right as it is: no estimate, no levels, or the highest rendition fits.
 */
export function levelForLink(levels: readonly Level[], downlinkMbps: number | undefined): Level | null {
  if (levels.length === 0 || typeof downlinkMbps !== "number" || !(downlinkMbps > 0)) return null;
  const budget = downlinkMbps * 1_000_000 * LINK_SHARE;
  const byRate = [...levels].sort((a, b) => a.bandwidth - b.bandwidth);
  const best = byRate.filter((l) => l.bandwidth <= budget).pop() ?? byRate[0];
  return best === byRate[byRate.length - 1] ? null : best;
}

/** The rendition nearest to a decoded picture height (what native playback reports as videoHeight). */
export function nearestHeight(levels: readonly Level[], videoHeight: number): number | null {
  if (!(videoHeight > 0) || levels.length === 0) return videoHeight > 0 ? videoHeight : null;
  return levels.reduce((best, l) => (Math.abs(l.height - videoHeight) < Math.abs(best - videoHeight) ? l.height : best), levels[0].height);
}
