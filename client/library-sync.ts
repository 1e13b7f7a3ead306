import { EMPTY_LIBRARY, librarySyncStep, mergeLibraries, type Library } from "../shared/library";
import type { AccountClient } from "./account-client";
import { LOCAL_CHANGE, readLibraryOwner, readStoredLibrary, writeLibraryOwner, writeStoredLibrary } from "./library-provider";

/** A favourite is saved to the account this long after the last change… */
const FAVOURITE_SAVE_DELAY_MS = 800;
/** …watch positions (saved every few seconds while playing) at most this often; pagehide flushes. */
const HISTORY_SAVE_DELAY_MS = 30_000;

const same = (a: Library | null, b: Library | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Keeps the browser's library and the signed-in account's library together:
 * at sign-in (and on a page load while signed in) the two are merged; every
 * later change in this tab is saved to the account; sign-out forgets the
 * account's data in this browser (a shared computer must not keep it).
 *
 * The browser remembers which account its library mirrors (LIBRARY_OWNER_KEY). A library that
 * belongs to another account than the one now signed in — the session changed without this
 * browser's sign-out — is never pushed into it: the account's own library replaces it instead.
 */
export function startLibrarySync(account: AccountClient): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending = false;
  let applying = false;

  const save = (keepalive = false) => {
    timer = null;
    pending = false;
    const local = readStoredLibrary();
    if (!same(local, account.savedLibrary())) void account.saveLibrary(local, keepalive);
  };

  const mergeWithAccount = (userId: string) => {
    const saved = account.savedLibrary() ?? EMPTY_LIBRARY;
    const step = librarySyncStep(readLibraryOwner(), userId);
    const merged = step === "merge" ? mergeLibraries(readStoredLibrary(), saved) : saved;
    applying = true;
    writeStoredLibrary(merged);
    writeLibraryOwner(userId);
    applying = false;
    if (step === "merge" && !same(merged, saved)) void account.saveLibrary(merged);
  };

  window.addEventListener(LOCAL_CHANGE, () => {
    if (applying || !account.currentUser()) return;
    const favouritesChanged = JSON.stringify(readStoredLibrary().favourites) !== JSON.stringify(account.savedLibrary()?.favourites ?? []);
    if (!favouritesChanged && pending) return; // a history save is already due
    pending = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, favouritesChanged ? FAVOURITE_SAVE_DELAY_MS : HISTORY_SAVE_DELAY_MS);
  });
  window.addEventListener("pagehide", () => {
    if (pending && account.currentUser()) {
      if (timer) clearTimeout(timer);
      save(true);
    }
  });

  account.onAuthStateChange((event) => {
    const user = account.currentUser();
    if (user && (event === "SIGNED_IN" || event === "INITIAL_SESSION")) mergeWithAccount(user.id);
    if (event === "SIGNED_OUT") {
      if (timer) clearTimeout(timer);
      pending = false;
      applying = true;
      writeStoredLibrary(EMPTY_LIBRARY);
      writeLibraryOwner(null);
      applying = false;
    }
  });
}
