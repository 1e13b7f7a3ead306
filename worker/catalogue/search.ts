/**
 * Search over D1, ranked as shared/search/rank.ts ranks (tests/worker/catalogue-queries.test.ts
 * checks both side by side).
 *
 * A query without Latin letters (汉字, digits: no pinyin to match) is ranked in SQL: the titles
 * holding every character of the query (search_chars, migrations/0006_search_in_sql.sql) get
 * their tier from `instr` on the stored folded keys — a one-character query reads its tiers
 * straight from search_chars — and SQL counts the matches, counts their categories and returns
 * the page of 12 in the asked order. The worker only computes the highlights of those 12. Cost:
 * one round trip (3 statements; a second when the URL names a category the results lack or a
 * page past the last), then the loader's 12 cards, then 热门推荐 when nothing matched.
 *
 * A query with Latin letters may match by pinyin (initials, partial syllables, mixes such as
 * wu港), which SQL cannot decide: SQL narrows the catalogue to candidates (every term found in
 * the keys, or its letters in order in the pinyin) and the worker ranks their keys.
 */
import { marksFor, type Mark } from "../../shared/search/highlight";
import { HOT_COUNT, MAX_SUGGESTIONS, searchResultPage, type RankedItem, type SearchItem } from "../../shared/search/index";
import { foldText, normaliseQuery, queryTerms } from "../../shared/search/normalise";
import type { SearchResult, SuggestResponse, Suggestion } from "../../shared/search/query";
import { pageCount, PAGE_SIZE } from "../../shared/pagination";
import { hasPinyinLetters } from "../../shared/search/pinyin-match";
import { isSearchSort, type SearchSort } from "../../shared/search/query";
import { matchDoc, rankDocs, type NameField, type SearchDoc } from "../../shared/search/rank";
import { compareTitles } from "../../shared/collation";
import { toSimplified } from "../../shared/search/t2s";
import { resultsOf } from "./cards";

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
    .prepare(`SELECT ${CANDIDATE_COLUMNS} FROM titles t WHERE ${conditions.map((c) => c.sql).join(" AND ")} ORDER BY t.position LIMIT ?`)
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

/** No tier: the term does not match. */
const NO_MATCH = 99;

/** Most distinct characters of a query that narrow it through search_chars (fewer still narrow). */
const MAX_NARROWING_CHARS = 16;

/** The tier of one Latin-free folded term (the numbered parameter `?n`) against the row `t`: rank.ts matchTerm. */
function tierSql(n: number): string {
  const p = `?${n}`;
  return (
    `CASE WHEN t.search_title = ${p} THEN 0 WHEN instr(t.search_title, ${p}) = 1 THEN 1 WHEN instr(t.search_title, ${p}) > 0 THEN 2 ` +
    // Names: their folded text and pinyin written together; a term without Latin letters can
    // only be found in the text part.
    `WHEN instr(t.search_names_flat, ${p}) > 0 THEN 5 WHEN instr(t.search_labels, ${p}) > 0 THEN 6 ` +
    `WHEN instr(t.search_description, ${p}) > 0 THEN 7 ELSE ${NO_MATCH} END`
  );
}

/**
 * The matches of Latin-free `terms` as a common table `m (id, tier)`, and its parameters (?1 …).
 * Several terms: the weakest term's tier, unless the terms written together match better (matchDoc).
 */
function matchesSql(terms: readonly string[]): { sql: string; params: Array<string | number> } {
  const chars = [...new Set(terms.flatMap((term) => [...term]))];
  if (terms.length === 1 && chars.length === 1 && [...terms[0]].length === 1) {
    return { sql: "m AS (SELECT title_id AS id, tier FROM search_chars WHERE char = ?1)", params: [terms[0]] };
  }
  const narrowing = chars.slice(0, MAX_NARROWING_CHARS);
  const all = terms.length > 1 ? [...terms, terms.join("")] : [...terms];
  const keys = all.map((_, i) => `${tierSql(i + 3)} AS k${i}`).join(", ");
  const each = terms.map((_, i) => `k${i}`).join(", ");
  const tier = terms.length === 1 ? "k0" : `CASE WHEN max(${each}) >= ${NO_MATCH} THEN ${NO_MATCH} ELSE min(max(${each}), k${terms.length}) END`;
  return {
    sql:
      `m AS (SELECT id, tier FROM (SELECT id, ${tier} AS tier FROM (SELECT t.id, ${keys} FROM titles t WHERE t.id IN ` +
      `(SELECT title_id FROM search_chars WHERE char IN (SELECT value FROM json_each(?1)) GROUP BY title_id HAVING count(*) = ?2))) ` +
      `WHERE tier < ${NO_MATCH})`,
    params: [JSON.stringify(narrowing), narrowing.length, ...all],
  };
}

const CANDIDATE_COLUMNS = `t.id, t.title, t.year, t.rating, json_extract(t.card, '$.cover') AS cover,
  json_extract(t.card, '$.category[0]') AS first_category,
  (SELECT group_concat(category, char(10)) FROM title_categories WHERE title_id = t.id) AS categories,
  t.search_title, t.search_pinyin, t.search_names, t.search_labels, t.search_description`;

const ORDER: Record<SearchSort, string> = {
  relevance: "m.tier, t.position",
  rating: "t.rating DESC, m.tier, t.position",
  year: "t.year DESC, m.tier, t.position",
  title: "t.title_order, m.tier, t.position",
};

/** A candidate ranked by SQL, with the highlights of its title (matchDoc on its keys). */
function rankedOf(row: CandidateRow, terms: readonly string[]): RankedItem<Candidate> {
  const video = candidateOf(row);
  const match = matchDoc(video.doc, terms);
  return { video, marks: match ? marksFor(video.titleText, match.title) : [] };
}

/** The page statement: the matches (of one category) in `sort` order, `PAGE_SIZE` from `offset`. */
function pageStatement(db: D1Database, m: { sql: string; params: Array<string | number> }, sort: SearchSort, category: string | null, page: number) {
  const next = m.params.length + 1;
  const filter = category === null ? "" : `WHERE m.id IN (SELECT title_id FROM title_categories WHERE category = ?${next + 1})`;
  return db
    .prepare(
      `WITH ${m.sql} SELECT ${CANDIDATE_COLUMNS} FROM m JOIN titles t ON t.id = m.id ${filter} ORDER BY ${ORDER[sort]} LIMIT ${PAGE_SIZE} OFFSET ?${next}`,
    )
    .bind(...m.params, (page - 1) * PAGE_SIZE, ...(category === null ? [] : [category]));
}

/** The /search page of a Latin-free query, ranked, counted and paged in SQL (see the top of the file). */
async function searchInSql(db: D1Database, params: URLSearchParams, q: string, terms: readonly string[]): Promise<SearchResult> {
  const sortRaw = params.get("sort");
  const sort: SearchSort = isSearchSort(sortRaw) ? sortRaw : "relevance";
  const categoryRaw = params.get("category");
  const pageRaw = params.get("page");
  // The page the URL asks for, if it exists (checked once the count is known).
  const asked = pageRaw !== null && /^[1-9][0-9]{0,8}$/.test(pageRaw) ? Number(pageRaw) : 1;
  const m = matchesSql(terms);
  const [countResult, categoryResult, pageResult] = await db.batch([
    db.prepare(`WITH ${m.sql} SELECT count(*) AS n FROM m`).bind(...m.params),
    db
      .prepare(`WITH ${m.sql} SELECT tc.category AS name, count(*) AS n FROM m JOIN title_categories tc ON tc.title_id = m.id GROUP BY tc.category`)
      .bind(...m.params),
    pageStatement(db, m, sort, categoryRaw, asked),
  ]);
  const matched = resultsOf<{ n: number }>(countResult)[0]?.n ?? 0;
  const counts = resultsOf<{ name: string; n: number }>(categoryResult);
  const categories = counts.sort((a, b) => b.n - a.n || compareTitles(a.name, b.name)).map((c) => c.name);
  const category = categoryRaw !== null && categories.includes(categoryRaw) ? categoryRaw : null;
  const total = category === null ? matched : (counts.find((c) => c.name === category)?.n ?? 0);
  const pages = pageCount(total);
  const page = asked <= pages ? asked : 1;
  let rows = resultsOf<CandidateRow>(pageResult);
  if (category !== categoryRaw || page !== asked) rows = (await pageStatement(db, m, sort, category, page).all<CandidateRow>()).results;
  const ids: string[] = [];
  const marks: Record<string, Mark[]> = {};
  for (const row of rows) {
    const { video, marks: runs } = rankedOf(row, terms);
    ids.push(video.id);
    if (runs.length > 0) marks[video.id] = runs;
  }
  const recommended = total === 0 ? (await hotTitles(db)).map((h) => h.id) : [];
  return { state: { q, category, sort, page }, categories, total, pageCount: pages, ids, marks, recommended };
}

/** The best 8 matches of a Latin-free query, ranked in SQL. */
async function suggestInSql(db: D1Database, terms: readonly string[]): Promise<Array<RankedItem<Candidate>>> {
  const m = matchesSql(terms);
  const { results } = await db
    .prepare(`WITH ${m.sql} SELECT ${CANDIDATE_COLUMNS} FROM m JOIN titles t ON t.id = m.id ORDER BY m.tier, t.position LIMIT ${MAX_SUGGESTIONS}`)
    .bind(...m.params)
    .all<CandidateRow>();
  return results.map((row) => rankedOf(row, terms));
}

/** Whether SQL can rank the query: no term holds a Latin letter (nothing to match by pinyin). */
const rankableInSql = (terms: readonly string[]) => terms.length > 0 && !terms.some(hasPinyinLetters);

/** 热门推荐 / 热门搜索: the best-rated titles, catalogue order on ties. */
async function hotTitles(db: D1Database): Promise<Array<{ id: string; title: string }>> {
  return (await db.prepare("SELECT id, title FROM titles ORDER BY rating DESC, position LIMIT ?").bind(HOT_COUNT).all<{ id: string; title: string }>()).results;
}

/** The /search page's results (ids of one page; the loader fetches their cards). */
export async function querySearch(db: D1Database, params: URLSearchParams): Promise<SearchResult> {
  const q = normaliseQuery(params.get("q"));
  const terms = q ? queryTerms(q, toSimplified) : [];
  if (rankableInSql(terms)) return searchInSql(db, params, q, terms);
  const matches = q ? await rankedMatches(db, q) : [];
  const hot = q && matches.length === 0 ? (await hotTitles(db)).map((h) => h.id) : [];
  return searchResultPage(params, q, matches, () => hot);
}

/** Up to 8 titles for the header box; 热门搜索 for an empty query. */
export async function querySuggest(db: D1Database, raw: string | null): Promise<SuggestResponse> {
  const q = normaliseQuery(raw);
  if (!q) return { q, items: [], hot: (await hotTitles(db)).map((h) => h.title) };
  const terms = queryTerms(q, toSimplified);
  const ranked = rankableInSql(terms) ? await suggestInSql(db, terms) : (await rankedMatches(db, q)).slice(0, MAX_SUGGESTIONS);
  const items: Suggestion[] = ranked.map(({ video, marks }) => ({
    id: video.id,
    title: video.title,
    cover: video.cover,
    year: video.year,
    category: video.firstCategory,
    marks,
  }));
  return { q, items, hot: [] };
}
