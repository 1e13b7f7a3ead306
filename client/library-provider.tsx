import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  DEFAULT_PREFS,
  EMPTY_LIBRARY,
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
import { LIBRARY_KEY, LIBRARY_OWNER_KEY, PREFS_KEY } from "../shared/stored-prefs";

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

export function readStoredPrefs(): PlayerPrefs {
  return parsePrefs(readJson(PREFS_KEY));
}

export function writeStoredPrefs(prefs: PlayerPrefs): boolean {
  return writeJson(PREFS_KEY, prefs);
}

interface State {
  library: Library;
  prefs: PlayerPrefs;
  ready: boolean;
}

/**
 * The browser's LibraryApi, backed by localStorage. The first render uses the
 * context defaults (as the server did), so hydration matches; the stored data
 * is read in an effect, and `ready` becomes true then.
 */
export function LibraryProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ library: EMPTY_LIBRARY, prefs: DEFAULT_PREFS, ready: false });
  // The latest values, so the callbacks can stay stable and never lose a concurrent change.
  const current = useRef(state);

  const update = useCallback((next: Partial<State>) => {
    current.current = { ...current.current, ...next };
    setState(current.current);
  }, []);

  useEffect(() => {
    const reload = () => update({ library: readStoredLibrary(), prefs: readStoredPrefs(), ready: true });
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === LIBRARY_KEY || event.key === PREFS_KEY) afterIslandsHydrate(reload);
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
    return {
      ...state,
      toggleFavourite: (id) => saveLibrary(toggleIn(base(), id)),
      savePosition: (id, position, duration, episode) => saveLibrary(recordPosition(base(), id, position, duration, Date.now(), episode)),
      setPrefs: (p) => {
        const prefs = parsePrefs({ ...(current.current.ready ? current.current.prefs : readStoredPrefs()), ...p });
        update({ prefs });
        writeStoredPrefs(prefs);
      },
    };
  }, [state, update]);

  return <LibraryContext.Provider value={api}>{children}</LibraryContext.Provider>;
}
