/**
 * Relevance: how well one document matches a query, as a tier (lower is better).
 *
 * | tier | the term matches…                                   | example (雾港来信) |
 * |------|-----------------------------------------------------|--------------------|
 * | 0    | the whole title                                     | `雾港来信`, `霧港來信` |
 * | 1    | the start of the title                              | `雾港`             |
 * | 2    | inside the title                                    | `来信`             |
 * | 3    | the title's pinyin or initials, from its start      | `wglx`, `wugang`, `wu港` |
 * | 4    | the title's pinyin or initials, inside              | `laixin`, `lx`     |
 * | 5    | an alias or a person's name (text or pinyin)        |                    |
 * | 6    | a tag or a category                                 | `悬疑`             |
 * | 7    | the description                                     | `邮差`             |
 *
 * With several terms every term must match; the document's tier is that of its
 * weakest term, unless the terms written together match better (`雾 港` → `雾港`,
 * tier 1). Equal tiers keep catalogue order.
 */
import type { FoldedText } from "./normalise";
import { hasPinyinLetters, matchPinyin, type CharRange } from "./pinyin-match";

export const TIER = {
  exactTitle: 0,
  titlePrefix: 1,
  titleContains: 2,
  pinyinPrefix: 3,
  pinyinContains: 4,
  aliasOrPerson: 5,
  tagOrCategory: 6,
  description: 7,
} as const;

export type Tier = (typeof TIER)[keyof typeof TIER];

/** A searchable name: its folded text and, when known, one pinyin syllable per folded character. */
export interface NameField {
  folded: FoldedText;
  syllables: readonly string[] | null;
}

/** One catalogue entry as the search sees it (built once, from build-time keys). */
export interface SearchDoc {
  id: string;
  title: NameField;
  /** Other titles and people's names (none in today's catalogue). */
  names: readonly NameField[];
  /** Folded tags and categories. */
  labels: readonly string[];
  /** Folded description. */
  description: string;
}

export interface TermMatch {
  tier: Tier;
  /** The matched characters of the title (folded positions), for highlighting. */
  title: CharRange | null;
}

function matchName(field: NameField, term: string): CharRange | null {
  const at = field.folded.text.indexOf(term);
  if (at >= 0) {
    // Folded characters are single code points but may be two UTF-16 units.
    const start = [...field.folded.text.slice(0, at)].length;
    return { start, end: start + [...term].length };
  }
  if (field.syllables && hasPinyinLetters(term)) return matchPinyin(field.folded.chars, field.syllables, term);
  return null;
}

/** The best tier at which one folded term matches a document, or null. */
export function matchTerm(doc: SearchDoc, term: string): TermMatch | null {
  const title = doc.title.folded.text;
  if (title === term) return { tier: TIER.exactTitle, title: { start: 0, end: doc.title.folded.chars.length } };
  const at = title.indexOf(term);
  if (at >= 0) {
    const start = [...title.slice(0, at)].length;
    return { tier: at === 0 ? TIER.titlePrefix : TIER.titleContains, title: { start, end: start + [...term].length } };
  }
  if (doc.title.syllables && hasPinyinLetters(term)) {
    const range = matchPinyin(doc.title.folded.chars, doc.title.syllables, term);
    if (range) return { tier: range.start === 0 ? TIER.pinyinPrefix : TIER.pinyinContains, title: range };
  }
  if (doc.names.some((n) => matchName(n, term))) return { tier: TIER.aliasOrPerson, title: null };
  if (doc.labels.some((l) => l.includes(term))) return { tier: TIER.tagOrCategory, title: null };
  if (doc.description.includes(term)) return { tier: TIER.description, title: null };
  return null;
}

export interface DocMatch {
  tier: Tier;
  /** Matched runs of the title (folded positions). */
  title: CharRange[];
}

/** How a document matches all the terms (null if any term does not match). */
export function matchDoc(doc: SearchDoc, terms: readonly string[]): DocMatch | null {
  if (terms.length === 0) return null;
  const matches: TermMatch[] = [];
  for (const term of terms) {
    const m = matchTerm(doc, term);
    if (!m) return null;
    matches.push(m);
  }
  let tier = Math.max(...matches.map((m) => m.tier)) as Tier;
  const title = matches.flatMap((m) => (m.title ? [m.title] : []));
  if (terms.length > 1) {
    const joined = matchTerm(doc, terms.join(""));
    if (joined && joined.tier < tier) {
      tier = joined.tier;
      if (joined.title) title.push(joined.title);
    }
  }
  return { tier, title };
}

export interface RankedDoc {
  doc: SearchDoc;
  match: DocMatch;
}

/** The documents matching every term, best tier first; equal tiers keep the given order. */
export function rankDocs(docs: readonly SearchDoc[], terms: readonly string[]): RankedDoc[] {
  const ranked: RankedDoc[] = [];
  for (const doc of docs) {
    const match = matchDoc(doc, terms);
    if (match) ranked.push({ doc, match });
  }
  // Array.prototype.sort is stable: ties stay in catalogue order.
  return ranked.sort((a, b) => a.match.tier - b.match.tier);
}
