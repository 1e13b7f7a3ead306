/**
 * 追剧 and 稍后再看 (docs/decisions/0091-follow-and-watch-later.md): two lists of titles a viewer
 * keeps, in the browser while signed out and on the account (D1) while signed in, merged into the
 * account at sign-in like the library. Pure: the browser (client/library-provider.tsx,
 * client/lists-sync.ts) and the worker (worker/lists/) share these rules.
 */
import { isTitleId } from "./catalogue/title-ids";

/** The two lists: 追剧 (followed series) and 稍后再看. */
export const LIST_NAMES = ["follows", "watchLater"] as const;
export type ListName = (typeof LIST_NAMES)[number];

/** The most titles a list holds: adding past it is refused (列表已满) rather than dropping the oldest. */
export const LIST_LIMIT = 200;

export interface ListItem {
  id: string;
  /** Epoch ms when it was added. */
  addedAt: number;
  /**
   * 追剧 only: how many episodes the series had when the viewer last opened it (or followed it):
   * more episodes than this is 新.
   */
  seenEpisodes?: number;
}

export interface SeriesLists {
  /** Newest first. */
  follows: ListItem[];
  watchLater: ListItem[];
}

export const EMPTY_LISTS: SeriesLists = Object.freeze({ follows: [], watchLater: [] });

export function isListName(name: unknown): name is ListName {
  return name === "follows" || name === "watchLater";
}

const isCount = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= 9999;
const isTime = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;

function parseItem(raw: unknown): ListItem | null {
  if (!raw || typeof raw !== "object") return null;
  const { id, addedAt, seenEpisodes } = raw as Record<string, unknown>;
  if (!isTitleId(id) || !isTime(addedAt)) return null;
  return { id, addedAt, ...(isCount(seenEpisodes) ? { seenEpisodes } : {}) };
}

/** Newest first, each id once (its newest entry), at most LIST_LIMIT. */
function normalise(items: readonly ListItem[]): ListItem[] {
  const byId = new Map<string, ListItem>();
  for (const item of items) {
    const seen = byId.get(item.id);
    if (!seen) byId.set(item.id, item);
    else
      byId.set(item.id, {
        ...(item.addedAt > seen.addedAt ? item : seen),
        ...mergedSeen(seen, item),
      });
  }
  return [...byId.values()].sort((a, b) => b.addedAt - a.addedAt).slice(0, LIST_LIMIT);
}

/** Of two entries of one series, the larger count of episodes seen (either device saw them). */
function mergedSeen(a: ListItem, b: ListItem): { seenEpisodes?: number } {
  const seen = Math.max(a.seenEpisodes ?? -1, b.seenEpisodes ?? -1);
  return seen >= 0 ? { seenEpisodes: seen } : {};
}

/** Lists from untrusted data (storage, a request): bad items dropped, duplicates merged, capped. */
export function parseLists(raw: unknown): SeriesLists {
  const o = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const list = (value: unknown) => normalise(Array.isArray(value) ? value.map(parseItem).filter((i): i is ListItem => i !== null) : []);
  return { follows: list(o.follows), watchLater: list(o.watchLater) };
}

/** Both lists' union: each title once, the larger seen count, newest first, capped. */
export function mergeLists(a: SeriesLists, b: SeriesLists): SeriesLists {
  return { follows: normalise([...a.follows, ...b.follows]), watchLater: normalise([...a.watchLater, ...b.watchLater]) };
}

export const inList = (lists: SeriesLists, name: ListName, id: string): boolean => lists[name].some((i) => i.id === id);

/** Adds `item` at the front (replacing the title's entry), or null when the list is full. */
export function addToList(lists: SeriesLists, name: ListName, item: ListItem): SeriesLists | null {
  const rest = lists[name].filter((i) => i.id !== item.id);
  if (rest.length >= LIST_LIMIT) return null;
  return { ...lists, [name]: [item, ...rest] };
}

export function removeFromList(lists: SeriesLists, name: ListName, id: string): SeriesLists {
  return { ...lists, [name]: lists[name].filter((i) => i.id !== id) };
}

/** Records that the viewer has seen a followed series with `episodes` episodes (the 新 badge goes). */
export function markSeen(lists: SeriesLists, id: string, episodes: number): SeriesLists {
  let changed = false;
  const follows = lists.follows.map((i) => {
    if (i.id !== id || (i.seenEpisodes ?? 0) >= episodes) return i;
    changed = true;
    return { ...i, seenEpisodes: episodes };
  });
  return changed ? { ...lists, follows } : lists;
}

/**
 * 新: the series has an episode the viewer has not seen listed — more episodes than when they last
 * opened it (or followed it). An entry without a count (from before counts) is never 新.
 */
export function hasNewEpisode(item: ListItem, episodeCount: number): boolean {
  return item.seenEpisodes !== undefined && episodeCount > item.seenEpisodes;
}

/** 更新至第N集 while 连载, 已完结 (全N集) once ended. */
export function followStatus(episodeCount: number, ended: boolean): string {
  return ended ? `已完结 · 全${episodeCount}集` : `更新至第${episodeCount}集`;
}
