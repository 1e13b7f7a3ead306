import { EMPTY_LISTS, parseLists, type SeriesLists } from "../shared/series-lists";
import type { AccountClient } from "./account-client";
import { LIST_CHANGE, readListsOwner, readStoredLists, writeListsOwner, writeStoredLists, type ListChange } from "./library-provider";

/**
 * Keeps 追剧 and 稍后再看 with the signed-in account (D1, worker/lists/api.ts;
 * docs/decisions/0091-follow-and-watch-later.md):
 *
 * - at sign-in, lists collected while signed out (nobody's yet) are merged into the account's
 *   (POST /api/lists/merge); on a page load while signed in the account's lists replace the
 *   browser's copy (GET /api/lists: another device may have changed them). Lists that belong to
 *   another account (the session changed without this browser's sign-out) are never pushed: the
 *   account's replace them, as the library does (client/library-sync.ts).
 * - each change the viewer makes while signed in is sent at once (PUT / DELETE one title).
 * - sign-out forgets the account's lists in this browser.
 */
export function startListsSync(account: AccountClient): void {
  const request = async (method: string, path: string, body?: unknown): Promise<SeriesLists | null> => {
    try {
      const res = await fetch(path, {
        method,
        credentials: "same-origin",
        keepalive: method !== "GET",
        headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) return null;
      const answer = await res.json<{ lists?: unknown }>();
      return answer.lists === undefined ? null : parseLists(answer.lists);
    } catch {
      return null; // offline: the browser keeps its copy; the next page load reads the account's
    }
  };

  const adopt = (lists: SeriesLists, userId: string) => {
    writeStoredLists(lists);
    writeListsOwner(userId);
  };

  account.onAuthStateChange((event) => {
    const user = account.currentUser();
    if (user && (event === "SIGNED_IN" || event === "INITIAL_SESSION")) {
      const owner = readListsOwner();
      const local = readStoredLists();
      const merging = owner === null && (local.follows.length > 0 || local.watchLater.length > 0);
      void (merging ? request("POST", "/api/lists/merge", { lists: local }) : request("GET", "/api/lists")).then((lists) => {
        if (lists && account.currentUser()?.id === user.id) adopt(lists, user.id);
      });
    }
    if (event === "SIGNED_OUT") {
      writeStoredLists(EMPTY_LISTS);
      writeListsOwner(null);
    }
  });

  window.addEventListener(LIST_CHANGE, (event) => {
    const user = account.currentUser();
    if (!user || readListsOwner() !== user.id) return; // merged at the next sign-in instead
    const { list, id, on, seenEpisodes } = (event as CustomEvent<ListChange>).detail;
    const path = `/api/lists/${list}/${encodeURIComponent(id)}`;
    void (on ? request("PUT", path, seenEpisodes === undefined ? {} : { seenEpisodes }) : request("DELETE", path));
  });
}
