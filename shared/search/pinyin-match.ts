/**
 * Pinyin matching of a query term against a folded field whose pinyin
 * syllables were computed at build time (one syllable per folded character;
 * a character without pinyin has itself as its "syllable").
 *
 * Each character of the field can be typed as the character itself (`雾`), its
 * full syllable (`wu`) or any start of it (`w`, `zh`, `gan` for `gang`), so full
 * pinyin, initials and mixes such as `wu港` or `wgangl` all match. `ü` is typed
 * `v` or `u` (`lv`, `lu`).
 */

/** A matched run of characters of the field: [start, end) in folded characters. */
export interface CharRange {
  start: number;
  end: number;
}

const LETTER = /[a-z]/;

/** Whether a term can match by pinyin at all (it holds at least one Latin letter). */
export function hasPinyinLetters(term: string): boolean {
  return LETTER.test(term);
}

function spellings(syllable: string): string[] {
  return syllable.includes("v") ? [syllable, syllable.replaceAll("v", "u")] : [syllable];
}

/**
 * Where `term` matches `chars` by pinyin, the earliest start first; null when
 * it does not. `syllables[i]` is the pinyin of `chars[i]` (lower case, no tone).
 */
export function matchPinyin(chars: readonly string[], syllables: readonly string[], term: string): CharRange | null {
  const n = chars.length;
  if (!term || n === 0 || syllables.length !== n) return null;
  // failed[i * (term.length + 1) + p]: no match of term[p..] can start at character i.
  const width = term.length + 1;
  const failed = new Uint8Array((n + 1) * width);

  const from = (i: number, p: number): number => {
    if (p === term.length) return i;
    if (i === n || failed[i * width + p]) return -1;
    const char = chars[i];
    if (term.startsWith(char, p)) {
      const end = from(i + 1, p + char.length);
      if (end >= 0) return end;
    }
    const syllable = syllables[i];
    if (syllable !== char && LETTER.test(term[p])) {
      for (const spelling of spellings(syllable)) {
        // Longest first: the full syllable, then every shorter start of it.
        for (let k = Math.min(spelling.length, term.length - p); k >= 1; k--) {
          if (!term.startsWith(spelling.slice(0, k), p)) continue;
          const end = from(i + 1, p + k);
          if (end >= 0) return end;
        }
      }
    }
    failed[i * width + p] = 1;
    return -1;
  };

  for (let start = 0; start < n; start++) {
    const end = from(start, 0);
    if (end >= 0) return { start, end };
  }
  return null;
}
