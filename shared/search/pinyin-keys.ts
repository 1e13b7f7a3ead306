/**
 * Index keys that narrow a pinyin query to a few titles in SQL (the `search_pinyin` table,
 * migrations/0007_search_pinyin.sql), before shared/search/pinyin-match.ts decides each match.
 *
 * A term matches a run of a field's characters when it is written as each character itself or a
 * start of its syllable, in order (matchPinyin). The term's first two symbols then come either
 * from the run's first syllable (its first two letters: `wu` for 雾 wu) or from the starts of the
 * run's first two characters (`wg` for 雾港 wu gang). So for every position of a field two keys
 * are stored: the first two letters of the syllables written together from there, and the first
 * letters of that character and the next; a term starting with two typed symbols (letters or
 * digits) is looked up by exactly those two, a term starting with one by the keys that start with
 * it. Characters without pinyin (Latin letters, digits) are their own syllable, and `ü` is written
 * `v` or `u`, as matchPinyin reads them. For a term of one or two symbols the keys are not only
 * necessary but sufficient (keysDecide): SQL then decides its pinyin tier without the worker.
 */

/** A symbol that is typed as itself, never a Chinese character: what a key is made of. */
const TYPED = /^[a-z0-9]$/;

/** How a syllable may be typed: `lv` also as `lu`; a syllable that is a character without pinyin as itself. */
function spellings(syllable: string): string[] {
  return syllable.includes("v") ? [syllable, syllable.replaceAll("v", "u")] : [syllable];
}

/** Whether the syllable is typed with Latin letters or digits (not a character without pinyin). */
const typable = (syllable: string | undefined): syllable is string => syllable !== undefined && /^[a-z0-9]+$/.test(syllable);

/**
 * The keys of one field, position by position: `syllables[i]` is the pinyin of `chars[i]` (the
 * character itself when it has none). Fields whose syllables do not pair up with their
 * characters get none (matchPinyin never matches them by pinyin).
 */
export function pinyinKeysByPosition(chars: readonly string[], syllables: readonly string[]): string[][] {
  if (syllables.length !== chars.length) return [];
  return syllables.map((syllable, i) => {
    if (!typable(syllable)) return [];
    const keys = new Set<string>();
    const next = typable(syllables[i + 1]) ? syllables[i + 1] : "";
    for (const spelling of spellings(syllable)) {
      // The syllables written together from here, cut to two letters.
      keys.add((spelling + next).slice(0, 2));
      // The first letters of this character and the next.
      keys.add(spelling[0] + next.slice(0, 1));
    }
    return [...keys];
  });
}

/** The keys of one field, each once. */
export function pinyinKeys(chars: readonly string[], syllables: readonly string[]): string[] {
  return [...new Set(pinyinKeysByPosition(chars, syllables).flat())];
}

/** How a term is looked up among the keys: one key exactly, or every key starting with one symbol; null when it cannot be. */
export type PinyinKeyLookup = { exact: string } | { prefix: string } | null;

/** The lookup of a folded query term (null when it does not start with a typed symbol: its characters narrow it instead). */
export function pinyinKeyLookup(term: string): PinyinKeyLookup {
  const [first, second] = [...term];
  if (first === undefined || !TYPED.test(first)) return null;
  return second !== undefined && TYPED.test(second) ? { exact: first + second } : { prefix: first };
}

/**
 * Whether the keys decide the term's pinyin match exactly: a term of one or two letters or
 * digits (with a letter) matches a field by pinyin exactly when its lookup finds one of the
 * field's keys, and starts the field's match at a position whose keys hold it.
 */
export function keysDecide(term: string): boolean {
  const symbols = [...term];
  return symbols.length <= 2 && symbols.every((c) => TYPED.test(c)) && /[a-z]/.test(term);
}
