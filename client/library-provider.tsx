import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  DEFAULT_PREFS,
  EMPTY_LIBRARY,
  finished,
  parseLibrary,
  parsePrefs,
  recordPosition,
  toggleFavourite as toggleIn,
  type Library,
  type LibraryApi,
  type PlayerPrefs,
} from "../shared/library";
import { LibraryContext } from "../shared/components/library-context";
import { afterIslandsHydrate } from "../shared/player/island-hydration";
import { LIBRARY_KEY, LIBRARY_OWNER_KEY, LISTS_KEY, LISTS_OWNER_KEY, PREFS_KEY } from "../shared/stored-prefs";
import { addToList, EMPTY_LISTS, inList, markSeen, parseLists, removeFromList, type ListName, type SeriesLists } from "../shared/series-lists";

/** Fired on `window` when this tab writes the library, so every provider of the tab re-reads it. */
export const LOCAL_CHANGE = "yingshi:library-change";

/** localStorage, or null where it is unavailable (disabled cookies, sandboxed frames, old browsers). */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readJson(key: string): unknown {
  try {
    const raw = storage()?.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null; // corrupt JSON or storage refused
  }
}

function writeJson(key: string, value: unknown): boolean {
  try {
    const store = storage();
    if (!store) return false;
    store.setItem(key, JSON.stringify(value));
    return true;
  } catch (error) {
    console.warn(`无法保存到本地存储 (${key})`, error); // quota exceeded or storage refused
    return false;
  }
}

/** The library stored in this browser (empty when missing, corrupt or unavailable). */
export function readStoredLibrary(): Library {
  return parseLibrary(readJson(LIBRARY_KEY));
}

/**
 * Stores the library in this browser and tells the providers of this tab (other
 * tabs learn it from the `storage` event). On a quota error the history is cut
 * to its newest 20 entries and the write tried once more. Returns whether it was saved.
 */
export function writeStoredLibrary(library: Library): boolean {
  const ok = writeJson(LIBRARY_KEY, library) || writeJson(LIBRARY_KEY, { ...library, history: library.history.slice(0, 20) });
  if (ok) window.dispatchEvent(new Event(LOCAL_CHANGE));
  return ok;
}

/** The account id the stored library belongs to, or null (collected while signed out). */
export function readLibraryOwner(): string | null {
  try {
    return storage()?.getItem(LIBRARY_OWNER_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Records (or, with null, forgets) the account the stored library belongs to. */
export function writeLibraryOwner(owner: string | null): void {
  try {
    const store = storage();
    if (owner === null) store?.removeItem(LIBRARY_OWNER_KEY);
    else store?.setItem(LIBRARY_OWNER_KEY, owner);
  } catch {
    // storage refused: the library then counts as nobody's, as before this marker existed
  }
}

/** 追剧 and 稍后再看 stored in this browser. */
export function readStoredLists(): SeriesLists {
  return parseLists(readJson(LISTS_KEY));
}

/** Stores the lists and tells this tab's providers (the same event as the library's). */
export function writeStoredLists(lists: SeriesLists): boolean {
  const ok = writeJson(LISTS_KEY, lists);
  if (ok) window.dispatchEvent(new Event(LOCAL_CHANGE));
  return ok;
}

/** The account the stored lists mirror, or null (collected while signed out). */
export function readListsOwner(): string | null {
  try {
    return storage()?.getItem(LISTS_OWNER_KEY) ?? null;
  } catch {
    return null;
  }
}

export function writeListsOwner(owner: string | null): void {
  try {
    const store = storage();
    if (owner === null) store?.removeItem(LISTS_OWNER_KEY);
    else store?.setItem(LISTS_OWNER_KEY, owner);
  } catch {
    // storage refused: the lists then count as nobody's
  }
}

/** Fired on `window` for each change the viewer makes to a list; client/lists-sync.ts sends it to the account. */
export const LIST_CHANGE = "yingshi:list-change";

export interface ListChange {
  list: ListName;
  id: string;
  /** In the list after the change. */
  on: boolean;
  seenEpisodes?: number;
}

function announce(change: ListChange): void {
  window.dispatchEvent(new CustomEvent<ListChange>(LIST_CHANGE, { detail: change }));
}

export function readStoredPrefs(): PlayerPrefs {
  return parsePrefs(readJson(PREFS_KEY));
}

export function writeStoredPrefs(prefs: PlayerPrefs): boolean {
  return writeJson(PREFS_KEY, prefs);
}

interface State {
  library: Library;
  prefs: PlayerPrefs;
  lists: SeriesLists;
  ready: boolean;
}

/**
 * The browser's LibraryApi, backed by localStorage. The first render uses the
 * context defaults (as the server did), so hydration matches; the stored data
 * is read in an effect, and `ready` becomes true then.
 */
export function LibraryProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ library: EMPTY_LIBRARY, prefs: DEFAULT_PREFS, lists: EMPTY_LISTS, ready: false });
  // The latest values, so the callbacks can stay stable and never lose a concurrent change.
  const current = useRef(state);

  const update = useCallback((next: Partial<State>) => {
    current.current = { ...current.current, ...next };
    setState(current.current);
  }, []);

  useEffect(() => {
    const reload = () => update({ library: readStoredLibrary(), prefs: readStoredPrefs(), lists: readStoredLists(), ready: true });
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === LIBRARY_KEY || event.key === PREFS_KEY || event.key === LISTS_KEY) afterIslandsHydrate(reload);
    };
    const onLocalChange = () => afterIslandsHydrate(reload);
    // Not before the detail page's player island has hydrated: the new context value reaching its
    // server HTML first would make React render it anew — a new <video>, restarting the stream.
    afterIslandsHydrate(reload);
    window.addEventListener("storage", onStorage);
    window.addEventListener(LOCAL_CHANGE, onLocalChange);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener(LOCAL_CHANGE, onLocalChange);
    };
  }, [update]);

  const api = useMemo<LibraryApi>(() => {
    /** Before the effect has read storage, changes apply to what is stored, never to the empty default. */
    const base = () => (current.current.ready ? current.current.library : readStoredLibrary());
    const saveLibrary = (library: Library) => {
      update({ library });
      writeStoredLibrary(library);
    };
    const prefsNow = () => (current.current.ready ? current.current.prefs : readStoredPrefs());
    const listsNow = () => (current.current.ready ? current.current.lists : readStoredLists());
    const saveLists = (lists: SeriesLists) => {
      update({ lists });
      writeStoredLists(lists);
    };
    const remove = (name: ListName, id: string) => {
      if (!inList(listsNow(), name, id)) return;
      saveLists(removeFromList(listsNow(), name, id));
      announce({ list: name, id, on: false });
    };
    return {
      ...state,
      toggleFavourite: (id) => saveLibrary(toggleIn(base(), id)),
      savePosition: (id, position, duration, episode, lastEpisode) => {
        saveLibrary(recordPosition(base(), id, position, duration, Date.now(), episode));
        if (lastEpisode && prefsNow().watchLaterAutoRemove && finished({ position, duration })) remove("watchLater", id);
      },
      toggleList: (name, id, seenEpisodes) => {
        if (inList(listsNow(), name, id)) {
          remove(name, id);
          return true;
        }
        const seen = name === "follows" && seenEpisodes !== undefined ? { seenEpisodes } : {};
        const next = addToList(listsNow(), name, { id, addedAt: Date.now(), ...seen });
        if (!next) return false;
        saveLists(next);
        announce({ list: name, id, on: true, ...seen });
        return true;
      },
      markSeen: (id, episodes) => {
        const next = markSeen(listsNow(), id, episodes);
        if (next === listsNow()) return;
        saveLists(next);
        announce({ list: "follows", id, on: true, seenEpisodes: episodes });
      },
      setPrefs: (p) => {
        const prefs = parsePrefs({ ...prefsNow(), ...p });
        update({ prefs });
        writeStoredPrefs(prefs);
      },
    };
  }, [state, update]);

  return <LibraryContext.Provider value={api}>{children}</LibraryContext.Provider>;
}
