import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchPinyin } from "../../shared/search/pinyin-match";
import { keysDecide, pinyinKeyLookup, pinyinKeys, pinyinKeysByPosition, type PinyinKeyLookup } from "../../shared/search/pinyin-keys";

/** Whether the lookup finds one of the keys, as the SQL of worker/catalogue/search.ts does. */
function finds(lookup: PinyinKeyLookup, keys: readonly string[]): boolean {
  if (lookup === null) return false;
  return "exact" in lookup ? keys.includes(lookup.exact) : keys.some((k) => k.startsWith(lookup.prefix));
}

/** A field: Chinese characters with syllables (some with ü as v), Latin letters and digits that stand for themselves. */
const CHINESE: Array<[string, string]> = [
  ["雾", "wu"],
  ["港", "gang"],
  ["来", "lai"],
  ["信", "xin"],
  ["爱", "ai"],
  ["绿", "lv"],
  ["女", "nv"],
  ["阿", "a"],
  ["庄", "zhuang"],
  ["长", "chang"],
  ["鑫", "鑫"],
];
const symbol = fc.oneof(
  fc.constantFrom(...CHINESE),
  fc.constantFrom("a", "x", "4", "k").map((c): [string, string] => [c, c]),
);
const field = fc.array(symbol, { minLength: 1, maxLength: 8 });

/** A term that matches the field from `start`: each character written as itself or a start of one of its spellings. */
function typedRun(pairs: Array<[string, string]>, start: number, length: number, choices: number[]): string {
  let term = "";
  for (let i = start; i < Math.min(pairs.length, start + length); i++) {
    const [char, syllable] = pairs[i];
    const choice = choices[i % choices.length];
    if (syllable === char || choice % 3 === 0) term += char;
    else {
      const spelling = choice % 2 === 0 ? syllable : syllable.replaceAll("v", "u");
      term += spelling.slice(0, 1 + (choice % spelling.length));
    }
  }
  return term;
}

describe("pinyin index keys", () => {
  it("keys of 雾港来信: two letters of the syllables from each position, and the first letters of each pair", () => {
    expect(pinyinKeys([..."雾港来信"], ["wu", "gang", "lai", "xin"]).sort()).toEqual(["wu", "wg", "ga", "gl", "la", "lx", "xi", "x"].sort());
  });

  it("ü is written v or u; a character without pinyin ends the key; unpaired syllables give none", () => {
    expect(pinyinKeys([..."绿鑫"], ["lv", "鑫"]).sort()).toEqual(["l", "lu", "lv"]);
    expect(pinyinKeys([..."阿长"], ["a", "chang"]).sort()).toEqual(["ac", "c", "ch"]);
    expect(pinyinKeys([..."雾港"], ["wu"])).toEqual([]);
  });

  it("a term is looked up by its first two typed symbols, by its first alone when the second is a character, not at all when it starts with one", () => {
    expect(pinyinKeyLookup("wgl")).toEqual({ exact: "wg" });
    expect(pinyinKeyLookup("4k")).toEqual({ exact: "4k" });
    expect(pinyinKeyLookup("w")).toEqual({ prefix: "w" });
    expect(pinyinKeyLookup("w港")).toEqual({ prefix: "w" });
    expect(pinyinKeyLookup("雾g")).toBeNull();
    expect(pinyinKeyLookup("")).toBeNull();
  });

  it("every pinyin match of a term starting with a typed symbol is found through the keys", () => {
    fc.assert(
      fc.property(field, fc.nat(), fc.integer({ min: 1, max: 8 }), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (pairs, startSeed, length, choices) => {
        const chars = pairs.map(([c]) => c);
        const syllables = pairs.map(([, s]) => s);
        const term = typedRun(pairs, startSeed % pairs.length, length, choices);
        expect(matchPinyin(chars, syllables, term)).not.toBeNull();
        const lookup = pinyinKeyLookup(term);
        if (lookup !== null) expect(finds(lookup, pinyinKeys(chars, syllables)), `${chars.join("")} ${term}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("and for any term at all: a match implies the keys find it", () => {
    fc.assert(
      fc.property(field, fc.stringMatching(/^[a-z4港雾]{1,6}$/), (pairs, term) => {
        const chars = pairs.map(([c]) => c);
        const syllables = pairs.map(([, s]) => s);
        const lookup = pinyinKeyLookup(term);
        if (lookup !== null && matchPinyin(chars, syllables, term) !== null) expect(finds(lookup, pinyinKeys(chars, syllables))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("terms of one or two letters: the keys decide", () => {
  it("which terms", () => {
    expect(keysDecide("w")).toBe(true);
    expect(keysDecide("wg")).toBe(true);
    expect(keysDecide("a4")).toBe(true);
    expect(keysDecide("wgl")).toBe(false);
    expect(keysDecide("w港")).toBe(false);
    expect(keysDecide("44")).toBe(false);
  });

  it("a match exactly when the lookup finds a key, from the start exactly when the first position's keys hold it", () => {
    fc.assert(
      fc.property(field, fc.stringMatching(/^[a-z4]{1,2}$/), (pairs, term) => {
        fc.pre(keysDecide(term));
        const chars = pairs.map(([c]) => c);
        const syllables = pairs.map(([, s]) => s);
        const lookup = pinyinKeyLookup(term);
        const match = matchPinyin(chars, syllables, term);
        const byPosition = pinyinKeysByPosition(chars, syllables);
        expect(finds(lookup, byPosition.flat()), `${chars.join("")} ${term}`).toBe(match !== null);
        expect(finds(lookup, byPosition[0] ?? []), `${chars.join("")} ${term} at 0`).toBe(match?.start === 0);
      }),
      { numRuns: 5000 },
    );
  });
});
