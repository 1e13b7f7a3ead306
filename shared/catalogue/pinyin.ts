/**
 * Pinyin of catalogue texts, computed when the catalogue is imported (and for the build-time
 * search keys): pinyin-pro's word-level readings (重生 → chong sheng, 行长 → hang zhang).
 */
import { pinyin } from "pinyin-pro";
import { foldText } from "../search/normalise";

/** The pinyin of a text, one lower-case syllable per folded character (characters without pinyin stand for themselves). */
export function pinyinKey(text: string): string[] {
  const { chars } = foldText(text);
  const folded = chars.join("");
  const whole = pinyin(folded, { toneType: "none", type: "array", v: true });
  // pinyin-pro gives one entry per character; fall back to one call per character otherwise.
  const syllables = whole.length === chars.length ? whole : chars.map((c) => pinyin(c, { toneType: "none", v: true }));
  return syllables.map((s, i) => {
    const lower = s.toLowerCase();
    return /^[a-z]+$/.test(lower) ? lower : chars[i];
  });
}

/**
 * The 字母 facet of a title: the first letter of its pinyin (or of a Latin first word), upper
 * case; "#" when the title starts with anything else (a digit, a character without pinyin).
 */
export function pinyinLetter(title: string): string {
  const first = pinyinKey(title)[0] ?? "";
  return /^[a-z]/.test(first) ? first[0].toUpperCase() : "#";
}
