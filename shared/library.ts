import { createContext, useContext } from "react";
import { getVideo } from "./catalogue/index";

/**
 * The visitor's library (favourites and watch history with resume positions)
 * and player preferences: pure types and logic, plus the React context the
 * pages read them from. The browser implementation (localStorage) lives in
 * client/library-provider.tsx; on the server the context default is used.
 * Nothing here touches `window`.
 */

export const HISTORY_LIMIT = 100;
/** A saved position is offered only from this many seconds on, and not this close to the end. */
export const RESUME_MARGIN = 5;
/** Playback speeds of the player's menu. */
export const PLAYBACK_RATES: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2];

export interface HistoryEntry {
  id: string;
  /** Seconds into the video. */
  position: number;
  /** Seconds; 0 when unknown. */
  duration: number;
  /** Epoch milliseconds of the last save. */
  updatedAt: number;
}

export interface Library {
  favourites: string[];
  /** Newest first, at most HISTORY_LIMIT, one entry per id. */
  history: HistoryEntry[];
}

/** 清晰度 choice: automatic (adaptive) or a rendition height such as 720. */
export type QualityChoice = "auto" | number;

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
}

export const DEFAULT_PREFS: PlayerPrefs = Object.freeze({ volume: 0.8, muted: false, rate: 1, quality: "auto", subtitles: false });

/** A stored 清晰度: "auto" or a plausible rendition height (144–4320). */
export function parseQuality(raw: unknown): QualityChoice {
  return typeof raw === "number" && Number.isInteger(raw) && raw >= 144 && raw <= 4320 ? raw : "auto";
}

export const EMPTY_LIBRARY: Library = Object.freeze({ favourites: [], history: [] });

const isNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const nonNegative = (x: unknown): x is number => isNumber(x) && x >= 0;

export function toggleFavourite(lib: Library, id: string): Library {
  const favourites = lib.favourites.includes(id) ? lib.favourites.filter((f) => f !== id) : [id, ...lib.favourites];
  return { ...lib, favourites };
}

/** Saves the position of `id`: the entry moves to the front; the history keeps HISTORY_LIMIT entries. */
export function recordPosition(lib: Library, id: string, position: number, duration: number, now: number): Library {
  const d = nonNegative(duration) ? duration : 0;
  let p = nonNegative(position) ? position : 0;
  if (d > 0 && p > d) p = d;
  const entry: HistoryEntry = { id, position: p, duration: d, updatedAt: nonNegative(now) ? now : 0 };
  const history = [entry, ...lib.history.filter((h) => h.id !== id)].slice(0, HISTORY_LIMIT);
  return { ...lib, history };
}

/** The position to offer for `id`, or null when there is none worth offering (< 5 s, or within 5 s of the end). */
export function resumePosition(lib: Library, id: string): number | null {
  const entry = lib.history.find((h) => h.id === id);
  if (!entry || entry.position < RESUME_MARGIN) return null;
  if (entry.duration > 0 && entry.position > entry.duration - RESUME_MARGIN) return null;
  return entry.position;
}

/** Newest first, one entry per id (the newest), at most HISTORY_LIMIT. */
function normaliseHistory(entries: HistoryEntry[]): HistoryEntry[] {
  const byId = new Map<string, HistoryEntry>();
  for (const entry of entries) {
    const seen = byId.get(entry.id);
    if (!seen || entry.updatedAt > seen.updatedAt) byId.set(entry.id, entry);
  }
  // Array.prototype.sort is stable: equal times keep their input order.
  return [...byId.values()].sort((x, y) => y.updatedAt - x.updatedAt).slice(0, HISTORY_LIMIT);
}

/** Union of favourites (a's order first, then b's new ones); history per id the newest save, newest first, capped. */
export function mergeLibraries(a: Library, b: Library): Library {
  const favourites = [...new Set([...a.favourites, ...b.favourites])];
  return { favourites, history: normaliseHistory([...a.history, ...b.history]) };
}

function parseEntry(raw: unknown): HistoryEntry | null {
  if (!raw || typeof raw !== "object") return null;
  const { id, position, duration, updatedAt } = raw as Record<string, unknown>;
  if (typeof id !== "string" || !getVideo(id)) return null;
  if (!nonNegative(position) || !nonNegative(duration) || !nonNegative(updatedAt)) return null;
  return { id, position: duration > 0 ? Math.min(position, duration) : position, duration, updatedAt };
}

/** A library from untrusted data (storage, an account): unknown ids, bad numbers and duplicates are dropped. */
export function parseLibrary(raw: unknown): Library {
  if (!raw || typeof raw !== "object") return { favourites: [], history: [] };
  const { favourites, history } = raw as Record<string, unknown>;
  const favs = Array.isArray(favourites) ? favourites.filter((id): id is string => typeof id === "string" && getVideo(id) !== undefined) : [];
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
    volume: isNumber(o.volume) ? Math.min(1, Math.max(0, o.volume)) : DEFAULT_PREFS.volume,
    muted: typeof o.muted === "boolean" ? o.muted : DEFAULT_PREFS.muted,
    rate: isNumber(o.rate) && o.rate > 0 ? nearestRate(o.rate) : DEFAULT_PREFS.rate,
    quality: parseQuality(o.quality),
    subtitles: typeof o.subtitles === "boolean" ? o.subtitles : DEFAULT_PREFS.subtitles,
  };
}

export interface LibraryApi {
  library: Library;
  prefs: PlayerPrefs;
  /** False on the server and during hydration; true once the browser's stored library is read. */
  ready: boolean;
  toggleFavourite: (id: string) => void;
  savePosition: (id: string, position: number, duration: number) => void;
  setPrefs: (p: Partial<PlayerPrefs>) => void;
}

const noop = () => {};

export const LibraryContext = createContext<LibraryApi>({
  library: EMPTY_LIBRARY,
  prefs: DEFAULT_PREFS,
  ready: false,
  toggleFavourite: noop,
  savePosition: noop,
  setPrefs: noop,
});

export function useLibrary(): LibraryApi {
  return useContext(LibraryContext);
}
