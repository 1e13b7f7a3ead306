/**
 * Series and episodes: which episodes a title has, their names, media and URLs, the 选集 grid's
 * ranges and order, and the episode that follows. Pure logic over catalogue entries
 * (shared/catalogue/types.ts): episode N is `episodes[N - 1]`, and a title without `episodes` is a
 * single video (a film), which has no episode URLs.
 */
import type { Video } from "./catalogue/types";
import { mediaNumberOf } from "./stream/contract";
import { roomKey } from "./danmaku/room-key";

/** "3.mp4", "/3.mp4" → "/3.mp4" (the catalogue file may omit the slash; pure, so no catalogue import). */
const normaliseMediaPath = (file: string) => "/" + file.replace(/^\/+/, "");

/** Episodes per range tab of the 选集 grid (1–50, 51–100 …). */
export const EPISODE_RANGE_SIZE = 50;

/** What the player and the page need of one episode (or of a single title). */
export interface EpisodeMedia {
  /** From 1; 1 for a single title. */
  number: number;
  /** 第N集, or the name the catalogue gives (variety shows: 第1期：初次见面). */
  name: string;
  /** "/N.mp4" */
  videoFile: string;
  /** "/N.webp": the title's cover for episode 1 and single titles, the episode's own frame otherwise. */
  coverImage: string;
  duration: string;
}

/** A series or variety title: it lists episodes. */
export function isSeries(video: Video): boolean {
  return (video.episodes?.length ?? 0) > 0;
}

/** How many episodes can be watched (1 for a single title). */
export function episodeCount(video: Video): number {
  return video.episodes?.length ?? 1;
}

/** 第N集 unless the catalogue names the episode. */
export function episodeName(video: Video, n: number): string {
  return video.episodes?.[n - 1]?.name ?? `第${n}集`;
}

/** Episode n of a video (1 for a single title), or null when it has no such episode. */
export function episodeMedia(video: Video, n: number): EpisodeMedia | null {
  if (!Number.isInteger(n) || n < 1 || n > episodeCount(video)) return null;
  const entry = video.episodes?.[n - 1];
  if (!entry || n === 1) {
    const name = entry ? episodeName(video, 1) : video.title;
    return {
      number: n,
      name,
      videoFile: normaliseMediaPath(video.videoFile),
      coverImage: normaliseMediaPath(video.coverImage),
      duration: entry?.duration ?? video.duration,
    };
  }
  const videoFile = normaliseMediaPath(entry.videoFile);
  const number = mediaNumberOf(videoFile);
  return { number: n, name: episodeName(video, n), videoFile, coverImage: `/${number}.webp`, duration: entry.duration };
}

/**
 * The episode number of a URL segment: digits only, no leading zero (so every episode has exactly
 * one URL), within the title's episodes; null otherwise (the route answers 404). Single titles
 * have no episode URLs.
 */
export function parseEpisodeParam(video: Video, raw: string): number | null {
  if (!isSeries(video) || !/^[1-9][0-9]{0,3}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= episodeCount(video) ? n : null;
}

/** The page of a title (`/video/{id}`) or of one of its episodes (`/video/{id}/{n}`). */
export function videoPath(id: string, episode?: number): string {
  return episode === undefined ? `/video/${id}` : `/video/${id}/${episode}`;
}

/** The episode after n, or null after the last one (and for single titles). */
export function nextEpisode(video: Video, n: number): number | null {
  return isSeries(video) && n < episodeCount(video) ? n + 1 : null;
}

/** The episode before n, or null before the first one. */
export function previousEpisode(video: Video, n: number): number | null {
  return isSeries(video) && n > 1 ? n - 1 : null;
}

/**
 * Where playback goes when episode n ends: the next episode, or — after the last episode and for
 * single titles — the page of `nextVideoId` (the spec's random next video).
 */
export function afterEnded(video: Video, n: number, nextVideoId: string): string {
  const next = nextEpisode(video, n);
  return next === null ? videoPath(nextVideoId) : videoPath(video.id, next);
}

/** One range tab of the 选集 grid: episodes `from`–`to` inclusive. */
export interface EpisodeRange {
  from: number;
  to: number;
  /** "1-50" */
  label: string;
}

/** The range tabs for `count` episodes, `size` per tab (none needed when one tab holds them all). */
export function episodeRanges(count: number, size: number = EPISODE_RANGE_SIZE): EpisodeRange[] {
  const ranges: EpisodeRange[] = [];
  for (let from = 1; from <= count; from += size) {
    const to = Math.min(count, from + size - 1);
    ranges.push({ from, to, label: `${from}-${to}` });
  }
  return ranges;
}

/** The index of the range holding episode n. */
export function rangeIndexOf(n: number, size: number = EPISODE_RANGE_SIZE): number {
  return Math.max(0, Math.floor((n - 1) / size));
}

export type EpisodeOrder = "asc" | "desc";

/** The episode numbers of a range, in 正序 (asc) or 倒序 (desc). */
export function rangeEpisodes(range: EpisodeRange, order: EpisodeOrder): number[] {
  const list = Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);
  return order === "desc" ? list.reverse() : list;
}

/** In 倒序 the ranges are listed from the last one. */
export function orderedRanges(ranges: readonly EpisodeRange[], order: EpisodeOrder): EpisodeRange[] {
  return order === "desc" ? [...ranges].reverse() : [...ranges];
}

/**
 * 更新至N集 / 全N集 for cards: the catalogue's status when given; otherwise from the episodes
 * (全N集 when every planned episode is there, 更新至N集 while more are planned); null for films
 * without a status.
 */
export function episodeStatus(video: Video): string | null {
  if (video.status) return video.status;
  if (!isSeries(video)) return null;
  const count = episodeCount(video);
  return video.totalEpisodes !== undefined && video.totalEpisodes > count ? `更新至${count}集` : `全${count}集`;
}

/**
 * The 弹幕 room of an episode: the one value the overlay's room prop gets. Episode 1 (and a single
 * title) is the title's room `{videoId}`, episode n its own room `{videoId}~{n}`
 * (shared/danmaku/model.ts, worker/danmaku/room-id.ts).
 */
export function danmakuRoomId(video: Pick<Video, "id">, episode: number): string {
  return roomKey(video.id, episode);
}
