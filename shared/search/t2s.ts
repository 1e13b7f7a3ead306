import { T2S_PAIRS } from "./generated/t2s-table";
import type { CharMap } from "./normalise";

let table: Map<string, string> | null = null;

/**
 * Traditional → simplified for one character (`霧` → `雾`); other characters are
 * returned as given. The table (generated from OpenCC at build time) is read once
 * per isolate, on first use. Imported by the worker only: never by the browser.
 */
export const toSimplified: CharMap = (char) => {
  if (!table) {
    table = new Map();
    const pairs = [...T2S_PAIRS];
    for (let i = 0; i + 1 < pairs.length; i += 2) table.set(pairs[i], pairs[i + 1]);
  }
  return table.get(char) ?? char;
};
