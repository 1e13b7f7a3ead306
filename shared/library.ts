import { isTitleId } from "./catalogue/title-ids";
import type { ListName, SeriesLists } from "./series-lists";
import { DEFAULT_VOLUME, parseQuality, parseVolume, type QualityChoice } from "./stored-prefs";
import { isSubtitleLanguage, type SubtitleLanguage } from "./stream/contract";

/**
 * The visitor's library (favourites and watch history with resume positions)
 * and player preferences: pure types and logic. The pages read them from a React
 * context (shared/components/library-context.ts); the browser implementation
 * (localStorage) lives in client/library-provider.tsx; on the server the context
 * default is used.
 */

export const HISTORY_LIMIT = 100;
/** A saved position is offered only from this many seconds on, and not this close to the end. */
export const RESUME_MARGIN = 5;
/** Playback speeds of the player's menu. */
export const PLAYBACK_RATES: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2];

export interface HistoryEntry {
  id: string;
  /** The episode of a series, from 2; absent for episode 1 and single titles (stored libraries from before episodes stay valid). */
  episode?: number;
  /** Seconds into the video. */
  position: number;
  /** Seconds; 0 when unknown. */
  duration: number;
  /** Epoch milliseconds of the last save. */
  updatedAt: number;
}

export interface Library {
  favourites: string[];
  /** Newest first, at most HISTORY_LIMIT, one entry per id and episode (each episode resumes on its own). */
  history: HistoryEntry[];
}

/** The episode of an entry (1 when absent). */
export function entryEpisode(entry: HistoryEntry): number {
  return entry.episode ?? 1;
}

const sameItem = (entry: HistoryEntry, id: string, episode: number) => entry.id === id && entryEpisode(entry) === episode;

export { parseQuality, type QualityChoice } from "./stored-prefs";

export interface PlayerPrefs {
  /** 0..1 */
  volume: number;
  muted: boolean;
  /** One of PLAYBACK_RATES. */
  rate: number;
  /** The 清晰度 last chosen; a height that a title lacks falls back to the nearest lower rendition. */
  quality: QualityChoice;
  /** 字幕 shown. */
  subtitles: boolean;
  /** The 字幕 language last chosen (a title without it shows its first language). */
  subtitleLanguage: SubtitleLanguage;
  /** 自动跳过片头片尾 (docs/decisions/0092-intro-outro.md). */
  autoSkip: boolean;
  /** 自动连播: the next episode follows the end (and the outro's countdown); off, the player stops at the end. */
  autoNext: boolean;
  /** A title leaves 稍后再看 once watched to its end (its last episode for a series). */
  watchLaterAutoRemove: boolean;
}

export const DEFAULT_PREFS: PlayerPrefs = Object.freeze({
  volume: DEFAULT_VOLUME,
  muted: false,
  rate: 1,
  quality: "auto",
  subtitles: false,
  subtitleLanguage: "zh-CN",
  autoSkip: false,
  autoNext: true,
  watchLaterAutoRemove: true,
});

export const EMPTY_LIBRARY: Library = Object.freeze({ favourites: [], history: [] });

const isNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const nonNegative = (x: unknown): x is number => isNumber(x) && x >= 0;

export function toggleFavourite(lib: Library, id: string): Library {
  const favourites = lib.favourites.includes(id) ? lib.favourites.filter((f) => f !== id) : [id, ...lib.favourites];
  return { ...lib, favourites };
}

/**
 * Saves the position of episode `episode` (default 1) of `id`: the entry moves to the front; the
 * history keeps HISTORY_LIMIT entries.
 */
export function recordPosition(lib: Library, id: string, position: number, duration: number, now: number, episode: number = 1): Library {
  const d = nonNegative(duration) ? duration : 0;
  let p = nonNegative(position) ? position : 0;
  if (d > 0 && p > d) p = d;
  const ep = Number.isInteger(episode) && episode > 1 ? episode : 1;
  const entry: HistoryEntry = { id, ...(ep > 1 ? { episode: ep } : {}), position: p, duration: d, updatedAt: nonNegative(now) ? now : 0 };
  const history = [entry, ...lib.history.filter((h) => !sameItem(h, id, ep))].slice(0, HISTORY_LIMIT);
  return { ...lib, history };
}

/** Watched to within RESUME_MARGIN of its end. */
export function finished(entry: Pick<HistoryEntry, "position" | "duration">): boolean {
  return entry.duration > 0 && entry.position > entry.duration - RESUME_MARGIN;
}

/**
 * The position to offer for episode `episode` (default 1) of `id`, or null when there is none worth
 * offering (< 5 s, or within 5 s of the end).
 */
export function resumePosition(lib: Library, id: string, episode: number = 1): number | null {
  const entry = lib.history.find((h) => sameItem(h, id, episode));
  if (!entry || entry.position < RESUME_MARGIN || finished(entry)) return null;
  return entry.position;
}

/** The episode of `id` watched last (1 when none was, or when the title is single). */
export function lastEpisode(lib: Library, id: string): number {
  const entry = lib.history.find((h) => h.id === id);
  return entry ? entryEpisode(entry) : 1;
}

/** The highest episode number kept in the library (the catalogue's own limit). */
const MAX_EPISODE = 9999;

/** A 继续观看 item: where to pick a title up again. */
export interface ContinueItem {
  id: string;
  episode: number;
  /** Seconds to resume at (0: from the start of the next episode). */
  position: number;
  duration: number;
}

/**
 * 继续观看: per title the episode watched last, newest first. An episode watched to its end gives
 * way to the next episode (from its start); a finished single title or last episode is left out.
 */
export function continueWatching(lib: Library, limit: number, episodesOf: (id: string) => number | undefined): ContinueItem[] {
  const seen = new Set<string>();
  const items: ContinueItem[] = [];
  for (const entry of lib.history) {
    if (items.length >= limit) break;
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    const episodes = episodesOf(entry.id);
    const episode = entryEpisode(entry);
    // A title the catalogue no longer has, or an episode it no longer has, is left out.
    if (episodes === undefined || episode > episodes) continue;
    if (!finished(entry)) {
      items.push({ id: entry.id, episode, position: entry.position, duration: entry.duration });
      continue;
    }
    const next = episode < episodes ? episode + 1 : null;
    if (next !== null) items.push({ id: entry.id, episode: next, position: 0, duration: 0 });
  }
  return items;
}

/** Newest first, one entry per id and episode (the newest), at most HISTORY_LIMIT. */
function normaliseHistory(entries: HistoryEntry[]): HistoryEntry[] {
  const byId = new Map<string, HistoryEntry>();
  for (const entry of entries) {
    const key = `${entry.id}#${entryEpisode(entry)}`;
    const seen = byId.get(key);
    if (!seen || entry.updatedAt > seen.updatedAt) byId.set(key, entry);
  }
  // Array.prototype.sort is stable: equal times keep their input order.
  return [...byId.values()].sort((x, y) => y.updatedAt - x.updatedAt).slice(0, HISTORY_LIMIT);
}

/** Union of favourites (a's order first, then b's new ones); history per id and episode the newest save, newest first, capped. */
export function mergeLibraries(a: Library, b: Library): Library {
  const favourites = [...new Set([...a.favourites, ...b.favourites])];
  return { favourites, history: normaliseHistory([...a.history, ...b.history]) };
}

/**
 * What the browser does with its library when an account is signed in: "merge" it into the account
 * when it belongs to nobody yet (collected while signed out) or to this same account; "adopt" the
 * account's library, pushing nothing, when it belongs to another account — a session this browser
 * did not sign in to by the visitor's own action must never receive another account's library.
 */
export function librarySyncStep(owner: string | null, userId: string): "merge" | "adopt" {
  return owner === null || owner === userId ? "merge" : "adopt";
}

function parseEntry(raw: unknown): HistoryEntry | null {
  if (!raw || typeof raw !== "object") return null;
  const { id, episode, position, duration, updatedAt } = raw as Record<string, unknown>;
  if (!isTitleId(id)) return null;
  if (!nonNegative(position) || !nonNegative(duration) || !nonNegative(updatedAt)) return null;
  // Absent means episode 1; pages leave out episodes the title no longer has.
  const ep = episode === undefined ? 1 : episode;
  if (typeof ep !== "number" || !Number.isInteger(ep) || ep < 1 || ep > MAX_EPISODE) return null;
  return { id, ...(ep > 1 ? { episode: ep } : {}), position: duration > 0 ? Math.min(position, duration) : position, duration, updatedAt };
}

/**
 * A library from untrusted data (storage, an account): malformed ids, bad numbers and duplicates
 * are dropped. Ids of titles since removed from the catalogue stay, and pages show only those
 * the catalogue still has (the profile asks the worker for their cards).
 */
export function parseLibrary(raw: unknown): Library {
  if (!raw || typeof raw !== "object") return { favourites: [], history: [] };
  const { favourites, history } = raw as Record<string, unknown>;
  const favs = Array.isArray(favourites) ? favourites.filter(isTitleId) : [];
  const entries = Array.isArray(history) ? history.map(parseEntry).filter((e): e is HistoryEntry => e !== null) : [];
  return { favourites: [...new Set(favs)], history: normaliseHistory(entries) };
}

/** The allowed rate nearest to `rate`. */
export function nearestRate(rate: number): number {
  return PLAYBACK_RATES.reduce((best, r) => (Math.abs(r - rate) < Math.abs(best - rate) ? r : best), 1);
}

/** Preferences from untrusted data: volume clamped to 0..1, rate to the allowed list, defaults for the rest. */
export function parsePrefs(raw: unknown): PlayerPrefs {
  const o = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  return {
    volume: parseVolume(o.volume),
    muted: typeof o.muted === "boolean" ? o.muted : DEFAULT_PREFS.muted,
    rate: isNumber(o.rate) && o.rate > 0 ? nearestRate(o.rate) : DEFAULT_PREFS.rate,
    quality: parseQuality(o.quality),
    subtitles: typeof o.subtitles === "boolean" ? o.subtitles : DEFAULT_PREFS.subtitles,
    subtitleLanguage: isSubtitleLanguage(o.subtitleLanguage) ? o.subtitleLanguage : DEFAULT_PREFS.subtitleLanguage,
    autoSkip: typeof o.autoSkip === "boolean" ? o.autoSkip : DEFAULT_PREFS.autoSkip,
    autoNext: typeof o.autoNext === "boolean" ? o.autoNext : DEFAULT_PREFS.autoNext,
    watchLaterAutoRemove: typeof o.watchLaterAutoRemove === "boolean" ? o.watchLaterAutoRemove : DEFAULT_PREFS.watchLaterAutoRemove,
  };
}

export interface LibraryApi {
  library: Library;
  prefs: PlayerPrefs;
  /** False on the server and during hydration; true once the browser's stored library is read. */
  ready: boolean;
  toggleFavourite: (id: string) => void;
  /**
   * Saves the watch position of episode `episode` (default 1) of `id`; `lastEpisode`: the episode
   * is the title's last (a finished last episode leaves 稍后再看 when the setting says so).
   */
  savePosition: (id: string, position: number, duration: number, episode?: number, lastEpisode?: boolean) => void;
  setPrefs: (p: Partial<PlayerPrefs>) => void;
  /** 追剧 and 稍后再看 (shared/series-lists.ts). */
  lists: SeriesLists;
  /**
   * Adds `id` to the list or takes it out; `seenEpisodes` (追剧) the series' episodes now. False
   * when the list is full (nothing changed).
   */
  toggleList: (name: ListName, id: string, seenEpisodes?: number) => boolean;
  /** The viewer has opened a followed series that has `episodes` episodes (its 新 badge goes). */
  markSeen: (id: string, episodes: number) => void;
}
