/**
 * Search over D1, ranked as shared/search/rank.ts ranks (tests/worker/catalogue-queries.test.ts
 * checks both side by side). Every query ends as a table `m (id, tier)` of its matches, and one
 * batch of SQL counts them, counts their categories (the category filter's options) and returns
 * the page of 12 in the asked order; the worker computes the highlights of those 12 only.
 *
 * A query without Latin letters (汉字, digits: no pinyin to match) is matched in SQL: the titles
 * holding every character of the query (search_chars, migrations/0006_search_in_sql.sql) get
 * their tier from `instr` on the stored folded keys — a one-character query reads its tiers
 * straight from search_chars.
 *
 * A query with Latin letters may match by pinyin (initials, partial syllables, mixes such as
 * wu港), which SQL cannot decide: SQL narrows the catalogue to candidates through two indexes —
 * titles holding every character of a term (search_chars: it may be found as text), or titles
 * with a pinyin key of the term's first two letters (search_pinyin, shared/search/pinyin-keys.ts:
 * it may match by pinyin) that also hold its other characters — and gives each term's tier in
 * the title's text, tags and description; the worker matches the title's pinyin and the names
 * where those could do better, and hands the tiers back to SQL as JSON. Terms of one or two
 * letters (`a`, `ch`, `lv`, `a x`) are decided by the keys alone: SQL reads their pinyin tier
 * from search_pinyin, and nothing goes through the worker.
 *
 * Cost: one round trip for the page (two for pinyin of three letters or more; one more when the URL names a category the
 * results lack or a page past the last), then the loader's 12 cards, then 热门推荐 when nothing
 * matched.
 */
import { compareTitles } from "../../shared/collation";
import { marksFor, type Mark } from "../../shared/search/highlight";
import { HOT_COUNT, MAX_SUGGESTIONS, type RankedItem, type SearchItem } from "../../shared/search/index";
import { foldText, normaliseQuery, queryTerms } from "../../shared/search/normalise";
import { keysDecide, pinyinKeyLookup, type PinyinKeyLookup } from "../../shared/search/pinyin-keys";
import { hasPinyinLetters, matchPinyin } from "../../shared/search/pinyin-match";
import { isSearchSort, type SearchResult, type SearchSort, type SuggestResponse, type Suggestion } from "../../shared/search/query";
import { matchDoc, TIER, type NameField, type SearchDoc } from "../../shared/search/rank";
import { toSimplified } from "../../shared/search/t2s";
import { pageCount, PAGE_SIZE } from "../../shared/pagination";
import { EFFECTIVE_RATING, resultsOf } from "./cards";

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

const CANDIDATE_COLUMNS = `t.id, t.title, t.year, ${EFFECTIVE_RATING} AS rating, json_extract(t.card, '$.cover') AS cover,
  json_extract(t.card, '$.category[0]') AS first_category,
  (SELECT group_concat(category, char(10)) FROM title_categories WHERE title_id = t.id) AS categories,
  t.search_title, t.search_pinyin, t.search_names, t.search_labels, t.search_description`;

/** Most candidates ranked for one pinyin query (a one-letter query on a huge catalogue stays bounded). */
export const MAX_CANDIDATES = 5000;

/** No tier: the term does not match. */
const NO_MATCH = 99;

/** Most distinct characters of a query that narrow it through search_chars (fewer still narrow). */
const MAX_NARROWING_CHARS = 16;

const LATIN = /[a-z]/;

/**
 * D1 caps LIKE patterns at a few dozen bytes: the pinyin pattern takes the term's first letters
 * only (still a necessary condition: the letters of a match come in order from its syllables).
 */
const MAX_PATTERN_LETTERS = 12;

/** The matches as a common table `m (id, tier)` and its parameters (numbered ?1 …). */
export interface Matches {
  sql: string;
  params: Array<string | number>;
}

/**
 * The tier of one folded term (the numbered parameter `?n`) in the row `t`'s title text, then
 * (with `names`) its names, then its tags and categories and description: rank.ts matchTerm
 * without pinyin. The names column holds their text and pinyin written together: only a term
 * without Latin letters is looked up there (it can only be found in the text part).
 */
function tierSql(n: number, names: boolean): string {
  const p = `?${n}`;
  return (
    `CASE WHEN t.search_title = ${p} THEN 0 WHEN instr(t.search_title, ${p}) = 1 THEN 1 WHEN instr(t.search_title, ${p}) > 0 THEN 2 ` +
    (names ? `WHEN instr(t.search_names_flat, ${p}) > 0 THEN 5 ` : "") +
    `WHEN instr(t.search_labels, ${p}) > 0 THEN 6 WHEN instr(t.search_description, ${p}) > 0 THEN 7 ELSE ${NO_MATCH} END`
  );
}

/** The terms, and with several the terms written together (matchDoc: they may match better). */
const withJoined = (terms: readonly string[]) => (terms.length > 1 ? [...terms, terms.join("")] : [...terms]);

/** The matches of Latin-free `terms`, in SQL. Several terms: the weakest term's tier, unless the joined terms match better. */
/**
 * Which titles a search reads: `titles`, the view of those a viewer may see (every viewer-facing
 * search), or `catalogue_titles`, every title (the 管理后台's 视频管理).
 */
export type SearchScope = "titles" | "catalogue_titles";

function matchesInSql(terms: readonly string[], scope: SearchScope): Matches {
  const chars = [...new Set(terms.flatMap((term) => [...term]))];
  if (terms.length === 1 && chars.length === 1 && [...terms[0]].length === 1) {
    // Joined to the view `titles`: only the titles a viewer may see (migrations/0013_live_catalogue.sql).
    return { sql: `m AS (SELECT c.title_id AS id, c.tier FROM search_chars c JOIN ${scope} t ON t.id = c.title_id WHERE c.char = ?1)`, params: [terms[0]] };
  }
  const narrowing = chars.slice(0, MAX_NARROWING_CHARS);
  const all = withJoined(terms);
  const keys = all.map((_, i) => `${tierSql(i + 3, true)} AS k${i}`).join(", ");
  const each = terms.map((_, i) => `k${i}`).join(", ");
  const tier = terms.length === 1 ? "k0" : `CASE WHEN max(${each}) >= ${NO_MATCH} THEN ${NO_MATCH} ELSE min(max(${each}), k${terms.length}) END`;
  return {
    sql:
      `m AS (SELECT id, tier FROM (SELECT id, ${tier} AS tier FROM (SELECT t.id, ${keys} FROM ${scope} t WHERE t.id IN ` +
      `(SELECT title_id FROM search_chars WHERE char IN (SELECT value FROM json_each(?1)) GROUP BY title_id HAVING count(*) = ?2))) ` +
      `WHERE tier < ${NO_MATCH})`,
    params: [JSON.stringify(narrowing), narrowing.length, ...all],
  };
}

/**
 * A term's pinyin pattern: its letters in order, the first at the start of a syllable (every
 * piece a term is typed in starts a syllable, and so does its first letter). A necessary
 * condition of a pinyin match, for `' ' || search_pinyin` and for the names' JSON with its
 * quotes turned into spaces. Folded terms hold only letters and digits: the only wildcards are ours.
 */
function pinyinPattern(term: string): string {
  const letters = [...term].filter((c) => LATIN.test(c)).slice(0, MAX_PATTERN_LETTERS);
  // ü is stored as v and may be typed u (lv, lu): a typed u matches either.
  return `% ${letters.map((c) => (c === "u" ? "_" : c)).join("%")}%`;
}

/**
 * A pinyin candidate: its keys and, per term (then the joined terms), the tier SQL found without
 * pinyin (`k`; names too for a term without letters), whether the title's pinyin may match
 * (`p`) and whether a name may (`n`).
 */
interface PinyinRow {
  id: string;
  search_title: string;
  search_pinyin: string;
  search_names: string;
  [key: `${"k" | "p" | "n"}${number}`]: number;
}

/** A name's folded text and syllables (null when they do not pair up with its characters). */
function nameKeys(text: string, pinyin: string): { chars: string[]; text: string; syllables: string[] | null } {
  const chars = [...text];
  const syllables = pinyin ? pinyin.split(" ") : null;
  return { chars, text, syllables: syllables && syllables.length === chars.length ? syllables : null };
}

/**
 * The tier of a pinyin query's terms in one candidate: SQL's tier when it is the title's text
 * (nothing beats it), else the title's pinyin (3, 4), else a name's text or pinyin (5), else
 * SQL's tag, category or description tier — the order of rank.ts matchTerm.
 */
function pinyinTier(row: PinyinRow, terms: readonly string[]): number {
  const title = nameKeys(row.search_title, row.search_pinyin);
  let names: Array<ReturnType<typeof nameKeys>> | null = null;
  const termTier = (term: string, i: number): number => {
    const sqlTier = row[`k${i}`];
    if (sqlTier <= TIER.titleContains || !hasPinyinLetters(term)) return sqlTier;
    if (row[`p${i}`] && title.syllables) {
      const range = matchPinyin(title.chars, title.syllables, term);
      if (range) return range.start === 0 ? TIER.pinyinPrefix : TIER.pinyinContains;
    }
    if (!row[`n${i}`]) return sqlTier;
    names ??= (JSON.parse(row.search_names) as Array<[string, string]>).map(([text, pinyin]) => nameKeys(text, pinyin));
    if (names.some((n) => n.text.includes(term) || (n.syllables !== null && matchPinyin(n.chars, n.syllables, term) !== null))) return TIER.aliasOrPerson;
    return sqlTier;
  };
  let tier = 0;
  for (const [i, term] of terms.entries()) {
    const t = termTier(term, i);
    if (t >= NO_MATCH) return NO_MATCH;
    tier = Math.max(tier, t);
  }
  if (terms.length > 1) tier = Math.min(tier, termTier(terms.join(""), terms.length));
  return tier;
}

/** Characters a pinyin match can only hold as themselves: all but Latin letters and digits. */
const UNTYPED = /[^a-z0-9]/;

/**
 * The ids of titles a term may match (a subquery), its parameters appended to `params`: the
 * titles holding all its characters (it may be found as text), and, when it starts with a letter
 * or digit, those with its pinyin key that hold its other characters (it may match by pinyin).
 */
function candidateIds(term: string, params: Array<string | number>): string {
  const holding = (chars: readonly string[]): string => {
    const narrowing = [...new Set(chars)].slice(0, MAX_NARROWING_CHARS);
    params.push(JSON.stringify(narrowing), narrowing.length);
    return `SELECT title_id FROM search_chars WHERE char IN (SELECT value FROM json_each(?${params.length - 1})) GROUP BY title_id HAVING count(*) = ?${params.length}`;
  };
  const asText = holding([...term]);
  const lookup = hasPinyinLetters(term) ? pinyinKeyLookup(term) : null;
  if (lookup === null) return asText;
  const key = keyCondition(lookup, params);
  const untyped = [...term].filter((c) => UNTYPED.test(c));
  const byPinyin = `SELECT title_id FROM search_pinyin WHERE ${key}` + (untyped.length > 0 ? ` AND title_id IN (${holding(untyped)})` : "");
  return `${asText} UNION ${byPinyin}`;
}

/** The search_pinyin condition of a term's lookup, its parameters appended to `params`. */
function keyCondition(lookup: NonNullable<PinyinKeyLookup>, params: Array<string | number>): string {
  if ("exact" in lookup) {
    params.push(lookup.exact);
    return `key = ?${params.length}`;
  }
  // Keys are letters and digits: every key starting with the letter sorts below the letter and "~".
  params.push(lookup.prefix, `${lookup.prefix}~`);
  return `key >= ?${params.length - 1} AND key < ?${params.length}`;
}

/**
 * The matches of a query whose every term with letters (and the terms written together) is one
 * or two letters or digits, in SQL: the keys decide such a term's pinyin match exactly
 * (shared/search/pinyin-keys.ts keysDecide), and search_pinyin holds the tier each key gives.
 */
function matchesByKeys(terms: readonly string[], scope: SearchScope): Matches {
  const all = withJoined(terms);
  const params: Array<string | number> = [...all];
  const keys = all.map((term, i) => {
    const text = tierSql(i + 1, !hasPinyinLetters(term));
    const lookup = hasPinyinLetters(term) ? pinyinKeyLookup(term) : null;
    if (lookup === null) return `${text} AS k${i}`;
    const byPinyin = `(SELECT min(tier) FROM search_pinyin WHERE ${keyCondition(lookup, params)} AND title_id = t.id)`;
    return `min(${text}, coalesce(${byPinyin}, ${NO_MATCH})) AS k${i}`;
  });
  const narrowing = terms.map((term) => `t.id IN (${candidateIds(term, params)})`).join(" AND ");
  const each = terms.map((_, i) => `k${i}`).join(", ");
  const tier = terms.length === 1 ? "k0" : `CASE WHEN max(${each}) >= ${NO_MATCH} THEN ${NO_MATCH} ELSE min(max(${each}), k${terms.length}) END`;
  return {
    sql: `m AS (SELECT id, tier FROM (SELECT id, ${tier} AS tier FROM (SELECT t.id, ${keys.join(", ")} FROM ${scope} t WHERE ${narrowing})) WHERE tier < ${NO_MATCH})`,
    params,
  };
}

/** The matches of a query with Latin letters: SQL's candidates ranked by pinyin in the worker, as a JSON table. */
async function matchesByPinyin(db: D1Database, terms: readonly string[], scope: SearchScope): Promise<Matches> {
  const all = withJoined(terms);
  // ?1 … the terms, then the pinyin patterns of those with letters, then the candidates' parameters and the limit.
  const params: Array<string | number> = [...all];
  const columns = all.map((term, i) => {
    const k = `${tierSql(i + 1, !hasPinyinLetters(term))} AS k${i}`;
    if (!hasPinyinLetters(term)) return `${k}, 0 AS p${i}, 0 AS n${i}`;
    params.push(pinyinPattern(term));
    const pattern = `?${params.length}`;
    return `${k}, (' ' || t.search_pinyin) LIKE ${pattern} AS p${i}, (instr(t.search_names_flat, ?${i + 1}) > 0 OR replace(t.search_names, '"', ' ') LIKE ${pattern}) AS n${i}`;
  });
  // Only titles every term may match are ranked: one index lookup per term instead of every title.
  const narrowing = terms.map((term) => `t.id IN (${candidateIds(term, params)})`).join(" AND ");
  params.push(MAX_CANDIDATES);
  // Every term must be found in the text or may match by pinyin (the joined terms need not).
  const where = terms.map((_, i) => `(k${i} < ${NO_MATCH} OR p${i} OR n${i})`).join(" AND ");
  const { results } = await db
    .prepare(
      `SELECT * FROM (SELECT t.id, t.position, t.search_title, t.search_pinyin, t.search_names, ${columns.join(", ")} FROM ${scope} t WHERE ${narrowing}) ` +
        `WHERE ${where} ORDER BY position LIMIT ?${params.length}`,
    )
    .bind(...params)
    .all<PinyinRow>();
  const ranked: Array<[string, number]> = [];
  for (const row of results) {
    const tier = pinyinTier(row, terms);
    if (tier < NO_MATCH) ranked.push([row.id, tier]);
  }
  return {
    sql: "m AS (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS tier FROM json_each(?1))",
    params: [JSON.stringify(ranked)],
  };
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

/** A match on the page (or among the suggestions), with the highlights of its title (matchDoc on its keys). */
function rankedOf(row: CandidateRow, terms: readonly string[]): RankedItem<Candidate> {
  const video = candidateOf(row);
  const match = matchDoc(video.doc, terms);
  return { video, marks: match ? marksFor(video.titleText, match.title) : [] };
}

/** The matches of a query's terms, whichever way they are found. */
function matchesOf(db: D1Database, terms: readonly string[], scope: SearchScope = "titles"): Promise<Matches> | Matches {
  if (!terms.some(hasPinyinLetters)) return matchesInSql(terms, scope);
  if (withJoined(terms).every((term) => !hasPinyinLetters(term) || keysDecide(term))) return matchesByKeys(terms, scope);
  return matchesByPinyin(db, terms, scope);
}

/**
 * The site search's matches of a raw query (normalised and split as the /search page does) as
 * the common table `m (id, tier)`, ordered by `m.tier, t.position` for relevance; null when the
 * query has no terms. Other callers (the provide API's `wd`, worker/feeds/d1-source.ts) join it
 * to `titles t` so that they find and rank exactly what the search finds.
 */
export async function searchMatches(db: D1Database, raw: string, scope: SearchScope = "titles"): Promise<Matches | null> {
  const q = normaliseQuery(raw);
  const terms = q ? queryTerms(q, toSimplified) : [];
  return terms.length > 0 ? await matchesOf(db, terms, scope) : null;
}

/** ORDER BY of the relevance order over `m` and `titles t`. */
export const RELEVANCE_ORDER = "m.tier, t.position";

const ORDER: Record<SearchSort, string> = {
  relevance: RELEVANCE_ORDER,
  rating: `${EFFECTIVE_RATING} DESC, m.tier, t.position`,
  year: "t.year DESC, m.tier, t.position",
  title: "t.title_order, m.tier, t.position",
};

/** The page statement: the matches (of one category) in `sort` order, `PAGE_SIZE` from the page's start. */
function pageStatement(db: D1Database, m: Matches, sort: SearchSort, category: string | null, page: number) {
  const next = m.params.length + 1;
  const filter = category === null ? "" : `WHERE m.id IN (SELECT title_id FROM title_categories WHERE category = ?${next + 1})`;
  return db
    .prepare(
      `WITH ${m.sql} SELECT ${CANDIDATE_COLUMNS} FROM m JOIN titles t ON t.id = m.id ${filter} ORDER BY ${ORDER[sort]} LIMIT ${PAGE_SIZE} OFFSET ?${next}`,
    )
    .bind(...m.params, (page - 1) * PAGE_SIZE, ...(category === null ? [] : [category]));
}

/** 热门推荐 / 热门搜索: the best-rated titles, catalogue order on ties. */
async function hotTitles(db: D1Database): Promise<Array<{ id: string; title: string }>> {
  return (
    await db
      .prepare(`SELECT t.id AS id, t.title AS title FROM titles t ORDER BY ${EFFECTIVE_RATING} DESC, t.position LIMIT ?`)
      .bind(HOT_COUNT)
      .all<{ id: string; title: string }>()
  ).results;
}

/** The /search page's results (ids of one page; the loader fetches their cards). */
export async function querySearch(db: D1Database, params: URLSearchParams): Promise<SearchResult> {
  const q = normaliseQuery(params.get("q"));
  const terms = q ? queryTerms(q, toSimplified) : [];
  const sortRaw = params.get("sort");
  const sort: SearchSort = isSearchSort(sortRaw) ? sortRaw : "relevance";
  const categoryRaw = params.get("category");
  const pageRaw = params.get("page");
  // The page the URL asks for, if it exists (checked once the count is known).
  const asked = pageRaw !== null && /^[1-9][0-9]{0,8}$/.test(pageRaw) ? Number(pageRaw) : 1;
  let categories: string[] = [];
  let category: string | null = null;
  let total = 0;
  let page = 1;
  let rows: CandidateRow[] = [];
  if (terms.length > 0) {
    const m = await matchesOf(db, terms);
    const [countResult, categoryResult, pageResult] = await db.batch([
      db.prepare(`WITH ${m.sql} SELECT count(*) AS n FROM m`).bind(...m.params),
      db
        .prepare(`WITH ${m.sql} SELECT tc.category AS name, count(*) AS n FROM m JOIN title_categories tc ON tc.title_id = m.id GROUP BY tc.category`)
        .bind(...m.params),
      pageStatement(db, m, sort, categoryRaw, asked),
    ]);
    const counts = resultsOf<{ name: string; n: number }>(categoryResult);
    categories = counts.sort((a, b) => b.n - a.n || compareTitles(a.name, b.name)).map((c) => c.name);
    category = categoryRaw !== null && categories.includes(categoryRaw) ? categoryRaw : null;
    total = category === null ? (resultsOf<{ n: number }>(countResult)[0]?.n ?? 0) : (counts.find((c) => c.name === category)?.n ?? 0);
    page = asked <= pageCount(total) ? asked : 1;
    rows = resultsOf<CandidateRow>(pageResult);
    if (category !== categoryRaw || page !== asked) rows = (await pageStatement(db, m, sort, category, page).all<CandidateRow>()).results;
  }
  const ids: string[] = [];
  const marks: Record<string, Mark[]> = {};
  for (const row of rows) {
    const { video, marks: runs } = rankedOf(row, terms);
    ids.push(video.id);
    if (runs.length > 0) marks[video.id] = runs;
  }
  const recommended = q && total === 0 ? (await hotTitles(db)).map((h) => h.id) : [];
  return { state: { q, category, sort, page }, categories, total, pageCount: pageCount(total), ids, marks, recommended };
}

/** Up to 8 titles for the header box; 热门搜索 for an empty query. */
export async function querySuggest(db: D1Database, raw: string | null): Promise<SuggestResponse> {
  const q = normaliseQuery(raw);
  if (!q) return { q, items: [], hot: (await hotTitles(db)).map((h) => h.title) };
  const terms = queryTerms(q, toSimplified);
  if (terms.length === 0) return { q, items: [], hot: [] };
  const m = await matchesOf(db, terms);
  const { results } = await db
    .prepare(`WITH ${m.sql} SELECT ${CANDIDATE_COLUMNS} FROM m JOIN titles t ON t.id = m.id ORDER BY m.tier, t.position LIMIT ${MAX_SUGGESTIONS}`)
    .bind(...m.params)
    .all<CandidateRow>();
  const items: Suggestion[] = results.map((row) => {
    const { video, marks } = rankedOf(row, terms);
    return { id: video.id, title: video.title, cover: video.cover, year: video.year, category: video.firstCategory, marks };
  });
  return { q, items, hot: [] };
}
