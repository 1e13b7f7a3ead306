/**
 * The D1 rows of catalogue entries (migrations/0004_catalogue.sql): listing columns, the card,
 * the entry and the search keys, computed once at import (pinyin with pinyin-pro, folding with
 * the worker's traditional→simplified table), so the worker never computes them per request.
 */
import { cardOf } from "./card";
import { normaliseMediaPath } from "./categories";
import type { TitleEntry } from "./schema";
import type { Video } from "./types";
import { compareTitles } from "../collation";
import { fold } from "../search/normalise";
import { pinyinKeys, pinyinKeysByPosition } from "../search/pinyin-keys";
import { titleNames } from "../search/index";
import { TIER } from "../search/rank";
import { toSimplified } from "../search/t2s";
import type { TitleRow } from "./import-plan";
import { splitPublication } from "./publication";
import { pinyinKey, pinyinLetter } from "./pinyin";

/** FNV-1a, 2 × 32 bits: tells whether an entry's content changed between two imports. */
export function contentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** A name as search keys: its folded text and its pinyin. */
function nameKeys(name: string): [string, string] {
  return [fold(name, toSimplified), pinyinKey(name).join(" ")];
}

/**
 * The rows of `search_chars` (migrations/0006_search_in_sql.sql): every folded character of the
 * title, the names (their text, not their pinyin), the labels and the description once, with
 * the best tier at which the character alone matches (shared/search/rank.ts TIER): the tier
 * a one-character query gets, and the set that narrows longer queries.
 */
export function searchChars(title: string, names: readonly string[], labels: readonly string[], description: string): Array<[string, number]> {
  const best = new Map<string, number>();
  const note = (char: string, tier: number) => {
    const known = best.get(char);
    if (known === undefined || tier < known) best.set(char, tier);
  };
  const titleChars = [...title];
  titleChars.forEach((c, i) => note(c, titleChars.length === 1 ? TIER.exactTitle : i === 0 ? TIER.titlePrefix : TIER.titleContains));
  for (const name of names) for (const c of name) note(c, TIER.aliasOrPerson);
  for (const label of labels) for (const c of label) note(c, TIER.tagOrCategory);
  for (const c of description) note(c, TIER.description);
  return [...best];
}

/**
 * The `search_pinyin` rows (migrations/0007_search_pinyin.sql) of the title's folded text and of
 * each name's, from their syllables (one per folded character, as the worker's matcher reads
 * them): each key once, with the best tier it gives — the title's first position 3 (a pinyin
 * match from the start), its other positions 4, a name's 5 (shared/search/rank.ts TIER).
 */
export function searchPinyinKeys(title: string, titleSyllables: readonly string[], names: ReadonlyArray<[string, string]>): Array<[string, number]> {
  const best = new Map<string, number>();
  const note = (keys: readonly string[], tier: number) => {
    for (const key of keys) if ((best.get(key) ?? Infinity) > tier) best.set(key, tier);
  };
  pinyinKeysByPosition([...title], titleSyllables).forEach((keys, i) => note(keys, i === 0 ? TIER.pinyinPrefix : TIER.pinyinContains));
  for (const [text, pinyin] of names) note(pinyinKeys([...text], pinyin ? pinyin.split(" ") : []), TIER.aliasOrPerson);
  return [...best];
}

/** The catalogue entry as the site uses it: media paths with exactly one leading slash, no publication fields. */
export function normaliseEntry(entry: TitleEntry): Video {
  return {
    ...splitPublication(entry).content,
    videoFile: normaliseMediaPath(entry.videoFile),
    ...(entry.episodes ? { episodes: entry.episodes.map((e) => ({ ...e, videoFile: normaliseMediaPath(e.videoFile) })) } : {}),
  };
}

/** The media number of "/12.mp4". */
export const mediaNumberOf = (file: string): number => Number(file.replace(/^\/+/, "").replace(/\.\w+$/, ""));

/**
 * What tells whether an entry changed: its catalogue fields and how it is published (not the
 * version the file may carry). A published title without a time hashes as before publication
 * states existed, so an older database sees no change.
 */
export function entryHash(entry: TitleEntry): string {
  const { state, publishAt } = splitPublication(entry);
  const publication = state !== "published" || publishAt > 0 ? `\n${state}\n${publishAt}` : "";
  return contentHash(JSON.stringify(normaliseEntry(entry)) + publication);
}

/** The rows of a whole (validated) catalogue, in file order. */
export function titleRows(entries: readonly TitleEntry[]): TitleRow[] {
  // Rank of each title in pinyin collation: the 按标题 sort in SQL gives compareTitles' order.
  const sorted = [...new Set(entries.map((e) => e.title))].sort(compareTitles);
  const order = new Map<string, number>();
  sorted.forEach((title, i) => {
    const prev = i > 0 ? sorted[i - 1] : null;
    order.set(title, prev !== null && compareTitles(prev, title) === 0 ? (order.get(prev) as number) : i);
  });
  return entries.map((entry, position) => {
    const video = normaliseEntry(entry);
    const publication = splitPublication(entry);
    const syllables = pinyinKey(video.title);
    const names = titleNames(video).map(nameKeys);
    const entryJson = JSON.stringify(video);
    const searchTitle = fold(video.title, toSimplified);
    const labels = [...video.tags, ...video.category].map((l) => fold(l, toSimplified));
    const description = fold(video.description, toSimplified);
    return {
      id: video.id,
      position,
      title: video.title,
      title_order: order.get(video.title) as number,
      year: video.year,
      rating: video.rating,
      duration: video.duration,
      area: video.area ?? null,
      language: video.language ?? null,
      letter: pinyinLetter(video.title),
      episode_count: video.episodes?.length ?? 1,
      content_hash: entryHash(entry),
      state: publication.state,
      publish_at: publication.publishAt,
      card: JSON.stringify(cardOf(video)),
      entry: entryJson,
      search_title: searchTitle,
      search_pinyin: syllables.join(" "),
      search_pinyin_flat: syllables.join(""),
      search_names: JSON.stringify(names),
      search_names_flat: names.map(([text, pinyin]) => `${text}\n${pinyin.replaceAll(" ", "")}`).join("\n"),
      search_labels: labels.join("\n"),
      search_description: description,
      search_chars: searchChars(
        searchTitle,
        names.map(([text]) => text),
        labels,
        description,
      ),
      search_pinyin_keys: searchPinyinKeys(searchTitle, syllables, names),
      categories: [...video.category],
      media: [...new Set([video.videoFile, ...(video.episodes ?? []).map((e) => e.videoFile)].map(mediaNumberOf))],
      episodes: (video.episodes ?? []).map((e, i) => ({ number: i + 1, name: e.name ?? null, video_file: e.videoFile, duration: e.duration })),
    };
  });
}
