/**
 * 搜索历史: the visitor's recent searches, kept in the browser (localStorage),
 * newest first. Pure list logic here; the header box reads and writes the storage
 * (shared/components/search-history-store.ts).
 */
import { normaliseQuery } from "./normalise";

export const HISTORY_KEY = "yingshi:search-history";
export const MAX_HISTORY = 10;

/** The stored list, whatever the storage holds: only non-empty strings, at most MAX_HISTORY, no duplicates. */
export function parseHistory(raw: string | null): string[] {
  let value: unknown;
  try {
    value = raw ? JSON.parse(raw) : [];
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== "string") continue;
    const q = normaliseQuery(item);
    if (q && !out.includes(q)) out.push(q);
    if (out.length === MAX_HISTORY) break;
  }
  return out;
}

/** The list after searching for `query`: it moves to the front; the oldest falls off. */
export function addToHistory(list: readonly string[], query: string): string[] {
  const q = normaliseQuery(query);
  if (!q) return list.slice(0, MAX_HISTORY);
  return [q, ...list.filter((item) => item !== q)].slice(0, MAX_HISTORY);
}
