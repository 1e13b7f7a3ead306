import { createContext, useContext } from "react";
import { DEFAULT_PREFS, EMPTY_LIBRARY, type LibraryApi } from "../library";
import { EMPTY_LISTS } from "../series-lists";

const noop = () => {};

/** The visitor's library for the pages (client/library-provider.tsx provides the browser's; the server renders with this default). */
export const LibraryContext = createContext<LibraryApi>({
  library: EMPTY_LIBRARY,
  prefs: DEFAULT_PREFS,
  ready: false,
  toggleFavourite: noop,
  savePosition: noop,
  setPrefs: noop,
  lists: EMPTY_LISTS,
  toggleList: () => false,
  markSeen: noop,
});

export function useLibrary(): LibraryApi {
  return useContext(LibraryContext);
}
