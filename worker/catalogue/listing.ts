/**
 * Listings from D1: a category's (or the whole catalogue's) titles with the facets 类型 / 地区 /
 * 年份 / 字母 and the rating filter, five sorts, one page of 12. Same results as the in-memory
 * reference `buildListing` of tests/reference/listing.ts (tests/worker/catalogue-queries.test.ts
 * holds them side by side).
 *
 * Cost: one round trip of 6 statements (facets, counts and the page); a second one only when the
 * URL asked for a facet value the category does not have or a page past the last.
 */
import { MAIN_CATEGORIES } from "../../shared/catalogue/categories";
import type { CardItem } from "../../shared/catalogue/card";
import { compareTitles } from "../../shared/collation";
import { MAX_FACET_OPTIONS, parseListingState, type ListingFacets, type ListingResult, type ListingSort, type ListingState } from "../../shared/listing";
import { PAGE_SIZE, pageCount, parsePage } from "../../shared/pagination";
import { CARD_COLUMNS, cardsFrom, EFFECTIVE_RATING, HITS_JOIN, resultsOf, type CardRow } from "./cards";

/** The ORDER BY of each sort (ties in catalogue order, as the reference's stable sorts). */
const ORDER: Record<ListingSort, string> = {
  latest: "t.year DESC, t.id DESC",
  hot: "COALESCE(h.total, 0) DESC, t.year DESC, t.id DESC",
  rating: `${EFFECTIVE_RATING} DESC, t.position`,
  title: "t.title_order, t.position",
  duration: "t.duration DESC, t.position",
};

type Bound = string | number;

/** The titles of a category: `all`, or any title with a category containing the name (case-insensitive). */
function scopeOf(category: string | null): { where: string; params: Bound[] } {
  if (category === null || category === "all") return { where: "1", params: [] };
  return {
    where: "t.id IN (SELECT title_id FROM title_categories WHERE category IN (SELECT name FROM categories WHERE instr(lower(name), lower(?)) > 0))",
    params: [category],
  };
}

type Filters = Pick<ListingState, "year" | "rating" | "genre" | "area" | "letter">;

function filtersOf(f: Filters): { where: string; params: Bound[] } {
  const where: string[] = [];
  const params: Bound[] = [];
  const add = (sql: string, value: Bound) => {
    where.push(sql);
    params.push(value);
  };
  if (f.year !== null) add("t.year = ?", f.year);
  if (f.rating !== 0) add(`${EFFECTIVE_RATING} >= ?`, f.rating);
  if (f.genre !== null) add("t.id IN (SELECT title_id FROM title_categories WHERE category = ?)", f.genre);
  if (f.area !== null) add("t.area = ?", f.area);
  if (f.letter !== null) add("t.letter = ?", f.letter);
  return { where: where.length ? where.join(" AND ") : "1", params };
}

/** Facet values with their counts, most first, name order on ties. */
function ranked(rows: ReadonlyArray<{ name: string; n: number }>): string[] {
  return [...rows]
    .sort((a, b) => b.n - a.n || compareTitles(a.name, b.name))
    .slice(0, MAX_FACET_OPTIONS)
    .map((r) => r.name);
}

export interface ListingPage extends ListingResult {
  /** Titles in the category before filters: 0 means the category does not exist. */
  scopeTotal: number;
  items: CardItem[];
}

/** A listing page of `category` (null: every title) for the URL query `params`. */
export async function queryListing(db: D1Database, category: string | null, params: URLSearchParams, defaultSort: ListingSort): Promise<ListingPage> {
  const scope = scopeOf(category);
  const excluded = [...MAIN_CATEGORIES, category ?? "all"];
  // The facets do not depend on the query; the filters are taken as asked and checked after.
  const wanted = parseListingState(params, { years: [], genres: [], areas: [] }, defaultSort);
  const asked: Filters = {
    year: /^\d{4}$/.test(params.get("year") ?? "") ? Number(params.get("year")) : null,
    rating: wanted.rating,
    genre: params.get("genre"),
    area: params.get("area"),
    letter: wanted.letter,
  };
  const askedPage = /^[1-9][0-9]{0,8}$/.test(wanted.rawPage ?? "") ? Number(wanted.rawPage) : 1;

  const pageStatements = (f: Filters, page: number) => {
    const filters = filtersOf(f);
    const where = `${scope.where} AND ${filters.where}`;
    return [
      db.prepare(`SELECT count(*) AS n FROM titles t WHERE ${where}`).bind(...scope.params, ...filters.params),
      db
        .prepare(`SELECT ${CARD_COLUMNS} FROM titles t ${HITS_JOIN} WHERE ${where} ORDER BY ${ORDER[wanted.sort]} LIMIT ? OFFSET ?`)
        .bind(...scope.params, ...filters.params, PAGE_SIZE, (page - 1) * PAGE_SIZE),
    ];
  };

  const [years, genres, areas, scopeCount, count, rows] = await db.batch([
    db.prepare(`SELECT DISTINCT t.year AS year FROM titles t WHERE ${scope.where} ORDER BY t.year DESC`).bind(...scope.params),
    db
      .prepare(
        `SELECT c.category AS name, count(*) AS n FROM title_categories c JOIN titles t ON t.id = c.title_id
         WHERE ${scope.where} AND c.category NOT IN (${excluded.map(() => "?").join(", ")}) GROUP BY c.category`,
      )
      .bind(...scope.params, ...excluded),
    db.prepare(`SELECT t.area AS name, count(*) AS n FROM titles t WHERE ${scope.where} AND t.area IS NOT NULL GROUP BY t.area`).bind(...scope.params),
    db.prepare(`SELECT count(*) AS n FROM titles t WHERE ${scope.where}`).bind(...scope.params),
    ...pageStatements(asked, askedPage),
  ]);

  const facets: ListingFacets = {
    years: resultsOf<{ year: number }>(years).map((r) => r.year),
    genres: ranked(resultsOf(genres)),
    areas: ranked(resultsOf(areas)),
  };
  const { rawPage, ...state } = parseListingState(params, facets, defaultSort);
  const valid = state.year === asked.year && state.genre === asked.genre && state.area === asked.area;
  let total = resultsOf<{ n: number }>(count)[0]?.n ?? 0;
  let pageRows = resultsOf<CardRow>(rows);
  let pages = pageCount(total);
  let page = parsePage(rawPage, pages);
  if (!valid || page !== askedPage) {
    // A facet value this category does not have means "all"; a page past the last means page 1.
    if (!valid) {
      const [recount] = await db.batch(pageStatements(state, 1).slice(0, 1));
      total = resultsOf<{ n: number }>(recount)[0]?.n ?? 0;
      pages = pageCount(total);
      page = parsePage(rawPage, pages);
    }
    const [, again] = await db.batch(pageStatements(state, page));
    pageRows = resultsOf<CardRow>(again);
  }
  return {
    state: { ...state, page },
    facets,
    total,
    pageCount: pages,
    ids: pageRows.map((r) => r.id),
    scopeTotal: resultsOf<{ n: number }>(scopeCount)[0]?.n ?? 0,
    items: cardsFrom(pageRows),
  };
}
