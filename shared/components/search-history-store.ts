/** 搜索历史 in the browser's localStorage (the list's rules: shared/search/history.ts). Called from handlers and effects only. */
import { addToHistory, HISTORY_KEY, parseHistory } from "../search/history";

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage blocked (privacy settings): history is simply off
  }
}

export function readHistory(): string[] {
  try {
    return parseHistory(storage()?.getItem(HISTORY_KEY) ?? null);
  } catch {
    return [];
  }
}

/** Saves the list; a full or blocked storage is ignored (the search itself still works). */
export function writeHistory(list: readonly string[]): void {
  try {
    const s = storage();
    if (!s) return;
    if (list.length === 0) s.removeItem(HISTORY_KEY);
    else s.setItem(HISTORY_KEY, JSON.stringify(list));
  } catch {
    // quota exceeded or storage disabled
  }
}

/** Records one search (the header box's submit or a picked suggestion). */
export function rememberSearch(query: string): void {
  writeHistory(addToHistory(readHistory(), query));
}
