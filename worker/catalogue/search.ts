/**
 * Search over D1: SQL narrows the catalogue to candidates (every term found in the stored,
 * folded search keys, or its letters in order in the pinyin), then the site's ranking
 * (shared/search/rank.ts) orders them exactly as before. Cost: one query for the candidates'
 * keys, one for the 12 cards of the page (the loader's), one for 热门推荐 when nothing matched.
 */
import { marksFor } from "../../shared/search/highlight";
import { HOT_COUNT, MAX_SUGGESTIONS, searchResultPage, type RankedItem, type SearchItem } from "../../shared/search/index";
import { foldText, normaliseQuery, queryTerms } from "../../shared/search/normalise";
import type { SearchResult, SuggestResponse, Suggestion } from "../../shared/search/query";
import { rankDocs, type NameField, type SearchDoc } from "../../shared/search/rank";
import { toSimplified } from "../../shared/search/t2s";

interface CandidateRow {
  id: string;
  title: string;
  year: number;
  rating: number;
  cover: string;
  first_category: string | null;
  categories: string | null;
  search_title: string;
  search_pinyin: string;
  search_names: string;
  search_labels: string;
  search_description: string;
}

/** Most candidates ranked for one query (a one-letter query on a huge catalogue stays bounded). */
export const MAX_CANDIDATES = 5000;

const LATIN = /[a-z]/;

/**
 * D1 caps LIKE patterns at a few dozen bytes: the pinyin pattern takes the term's first letters
 * only (still a necessary condition: the letters of a match come in order from its syllables).
 */
const MAX_PATTERN_LETTERS = 12;

/** A term's candidate condition: found in the title, names, labels or description, or spelt by the pinyin. */
function termCondition(term: string): { sql: string; params: string[] } {
  const columns = ["t.search_title", "t.search_names_flat", "t.search_labels", "t.search_description"];
  const parts = columns.map((column) => `instr(${column}, ?) > 0`);
  const params = columns.map(() => term);
  if (LATIN.test(term)) {
    // Pinyin: every letter comes from a syllable in order (wglx, wugang, wu港: w…u). Folded terms
    // hold only letters and digits: no LIKE wildcard can appear in them.
    const letters = [...term].filter((c) => LATIN.test(c)).slice(0, MAX_PATTERN_LETTERS);
    const spelt = `%${letters.join("%")}%`;
    parts.push("t.search_pinyin_flat LIKE ?", "t.search_names_flat LIKE ?");
    params.push(spelt, spelt);
  }
  return { sql: `(${parts.join(" OR ")})`, params };
}

function nameField(folded: string, pinyin: string | null): NameField {
  const text = foldText(folded);
  const syllables = pinyin ? pinyin.split(" ") : null;
  return { folded: text, syllables: syllables && syllables.length === text.chars.length ? syllables : null };
}

interface Candidate extends SearchItem {
  cover: string;
  /** The first category as written in the catalogue (the suggestion's label). */
  firstCategory: string;
  doc: SearchDoc;
  titleText: ReturnType<typeof foldText>;
}

function candidateOf(row: CandidateRow): Candidate {
  const titleText = foldText(row.title, toSimplified);
  const syllables = row.search_pinyin ? row.search_pinyin.split(" ") : null;
  return {
    id: row.id,
    title: row.title,
    year: row.year,
    rating: row.rating,
    cover: row.cover,
    firstCategory: row.first_category ?? "",
    category: row.categories ? row.categories.split("\n") : [],
    titleText,
    doc: {
      id: row.id,
      title: { folded: titleText, syllables: syllables && syllables.length === titleText.chars.length ? syllables : null },
      names: (JSON.parse(row.search_names) as Array<[string, string]>).map(([text, pinyin]) => nameField(text, pinyin)),
      labels: row.search_labels ? row.search_labels.split("\n") : [],
      description: row.search_description,
    },
  };
}

/** The titles matching every term of `q`, best first, catalogue order on ties. */
async function rankedMatches(db: D1Database, q: string): Promise<Array<RankedItem<Candidate>>> {
  const terms = queryTerms(q, toSimplified);
  if (terms.length === 0) return [];
  const conditions = terms.map(termCondition);
  const rows = await db
    .prepare(
      `SELECT t.id, t.title, t.year, t.rating, json_extract(t.card, '$.cover') AS cover,
              json_extract(t.card, '$.category[0]') AS first_category,
              (SELECT group_concat(category, char(10)) FROM title_categories WHERE title_id = t.id) AS categories,
              t.search_title, t.search_pinyin, t.search_names, t.search_labels, t.search_description
       FROM titles t WHERE ${conditions.map((c) => c.sql).join(" AND ")} ORDER BY t.position LIMIT ?`,
    )
    .bind(...conditions.flatMap((c) => c.params), MAX_CANDIDATES)
    .all<CandidateRow>();
  const candidates = rows.results.map(candidateOf);
  const byId = new Map(candidates.map((c) => [c.id, c]));
  return rankDocs(
    candidates.map((c) => c.doc),
    terms,
  ).map((r) => {
    const video = byId.get(r.doc.id) as Candidate;
    return { video, marks: marksFor(video.titleText, r.match.title) };
  });
}

/** 热门推荐 / 热门搜索: the best-rated titles, catalogue order on ties. */
async function hotTitles(db: D1Database): Promise<Array<{ id: string; title: string }>> {
  return (await db.prepare("SELECT id, title FROM titles ORDER BY rating DESC, position LIMIT ?").bind(HOT_COUNT).all<{ id: string; title: string }>()).results;
}

/** The /search page's results (ids of one page; the loader fetches their cards). */
export async function querySearch(db: D1Database, params: URLSearchParams): Promise<SearchResult> {
  const q = normaliseQuery(params.get("q"));
  const matches = q ? await rankedMatches(db, q) : [];
  const hot = q && matches.length === 0 ? (await hotTitles(db)).map((h) => h.id) : [];
  return searchResultPage(params, q, matches, () => hot);
}

/** Up to 8 titles for the header box; 热门搜索 for an empty query. */
export async function querySuggest(db: D1Database, raw: string | null): Promise<SuggestResponse> {
  const q = normaliseQuery(raw);
  if (!q) return { q, items: [], hot: (await hotTitles(db)).map((h) => h.title) };
  const items: Suggestion[] = (await rankedMatches(db, q)).slice(0, MAX_SUGGESTIONS).map(({ video, marks }) => ({
    id: video.id,
    title: video.title,
    cover: video.cover,
    year: video.year,
    category: video.firstCategory,
    marks,
  }));
  return { q, items, hot: [] };
}
