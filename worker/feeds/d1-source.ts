/**
 * The feeds' titles from the D1 catalogue (migrations/0004_catalogue.sql): pages in update order.
 * Plain pages (the sitemap, RSS, the provide API's unfiltered list) are one LIMIT/OFFSET query;
 * filtered ones narrow the rows in SQL (category, update time, year) and apply the exact rules of
 * worker/feeds/source.ts's matchesFilters to what is left. A keyword is the site search's own
 * (worker/catalogue/search.ts searchMatches): its matches, in its relevance order.
 */
import type { Video } from "../../shared/catalogue/types";
import { FEED_CATEGORIES } from "./categories";
import { RELEVANCE_ORDER, searchMatches } from "../catalogue/search";
import { matchesFilters, toFeedTitle, type FeedSource, type FeedTitle, type TitleQuery } from "./source";

interface FeedRow {
  entry: string;
  updated_at: number;
  added_at: number;
  search_pinyin_flat: string;
}

const COLUMNS = "t.entry, t.updated_at, t.added_at, t.search_pinyin_flat";
const ORDER = "ORDER BY t.updated_at DESC, t.id DESC";

function feedTitle(row: FeedRow): FeedTitle {
  return toFeedTitle(JSON.parse(row.entry) as Video, row.updated_at, row.search_pinyin_flat, row.added_at);
}

/** The category names a type id covers: its own and its sub-categories'. */
function namesOf(typeId: number): string[] {
  return FEED_CATEGORIES.filter((c) => c.id === typeId || c.pid === typeId).map((c) => c.name);
}

export function d1FeedSource(db: D1Database): FeedSource {
  const parents = new Map(FEED_CATEGORIES.map((c) => [c.id, c.pid]));
  return {
    async titles(query: TitleQuery) {
      // A keyword is the site search's (worker/catalogue/search.ts): its matches `m` come first in
      // the statement, their parameters numbered ?1 …, and the filters' parameters follow.
      const matches = query.keyword ? await searchMatches(db, query.keyword) : null;
      if (query.keyword && !matches) return { total: 0, items: [] };
      const binds: unknown[] = matches ? [...matches.params] : [];
      const param = (value: unknown) => {
        binds.push(value);
        return `?${binds.length}`;
      };
      const where: string[] = [];
      if (query.updatedSince !== undefined) where.push(`t.updated_at >= ${param(query.updatedSince)}`);
      if (query.yearFrom !== undefined) where.push(`t.year >= ${param(query.yearFrom)}`);
      if (query.yearTo !== undefined) where.push(`t.year <= ${param(query.yearTo)}`);
      const exact = query.typeId === undefined && query.ended === undefined;
      const from = matches ? `WITH ${matches.sql} SELECT ${COLUMNS} FROM m JOIN titles t ON t.id = m.id` : `SELECT ${COLUMNS} FROM titles t`;
      const order = matches ? `ORDER BY ${RELEVANCE_ORDER}` : ORDER;
      if (exact) {
        const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
        const counted = matches ? `WITH ${matches.sql} SELECT COUNT(*) AS n FROM m JOIN titles t ON t.id = m.id` : "SELECT COUNT(*) AS n FROM titles t";
        const countBinds = binds.slice();
        const [count, rows] = await db.batch([
          db.prepare(`${counted} ${clause}`).bind(...countBinds),
          db.prepare(`${from} ${clause} ${order} LIMIT ${param(query.limit)} OFFSET ${param(query.offset)}`).bind(...binds),
        ]);
        return { total: (count.results[0] as { n: number } | undefined)?.n ?? 0, items: (rows.results as FeedRow[]).map(feedTitle) };
      }
      if (query.typeId !== undefined) {
        // Other type ids (其他) cannot be narrowed by name: every row is checked.
        const names = namesOf(query.typeId);
        if (names.length > 0 && query.typeId !== 9)
          where.push(`t.id IN (SELECT title_id FROM title_categories WHERE category IN (SELECT value FROM json_each(${param(JSON.stringify(names))})))`);
      }
      const narrowed = where.length ? `WHERE ${where.join(" AND ")}` : "";
      const { results } = await db
        .prepare(`${from} ${narrowed} ${order}`)
        .bind(...binds)
        .all<FeedRow>();
      const matching = results.map(feedTitle).filter((title) => matchesFilters(title, query, parents));
      return { total: matching.length, items: matching.slice(query.offset, query.offset + query.limit) };
    },
    async byIds(ids) {
      if (ids.length === 0) return [];
      const { results } = await db
        .prepare(`SELECT ${COLUMNS} FROM titles t WHERE t.id IN (SELECT value FROM json_each(?)) ${ORDER}`)
        .bind(JSON.stringify([...new Set(ids)].slice(0, 500)))
        .all<FeedRow>();
      return results.map(feedTitle);
    },
    categories() {
      return Promise.resolve(FEED_CATEGORIES);
    },
  };
}

/**
 * The sitemap's parts: titles in catalogue order, cut so that each part starts at most
 * `urlsPerPart` pages after the previous one (a title's pages — one per episode — stay in one
 * part, so a part may run over by less than one title's episodes). Numbered from 1.
 */
const PARTS = `WITH p AS (SELECT id, position, updated_at,
  (sum(episode_count) OVER (ORDER BY position, id ROWS UNBOUNDED PRECEDING) - episode_count) / CAST(?1 AS INTEGER) + 1 AS part FROM titles)`;

/** Each part's number and the latest update of its titles; none for an empty catalogue. */
export async function sitemapParts(db: D1Database, urlsPerPart: number): Promise<Array<{ part: number; lastModified: number }>> {
  const { results } = await db
    .prepare(`${PARTS} SELECT part, max(updated_at) AS lastModified FROM p GROUP BY part ORDER BY part`)
    .bind(urlsPerPart)
    .all<{ part: number; lastModified: number }>();
  return results;
}

/** The titles of part `part` (from 1), in catalogue order; none when there is no such part. */
export async function sitemapPartTitles(db: D1Database, part: number, urlsPerPart: number): Promise<FeedTitle[]> {
  const { results } = await db
    .prepare(`${PARTS} SELECT ${COLUMNS} FROM p JOIN titles t ON t.id = p.id WHERE p.part = ?2 ORDER BY p.position`)
    .bind(urlsPerPart, part)
    .all<FeedRow>();
  return results.map(feedTitle);
}

/** The site's feed source: the D1 catalogue of this request's environment. */
export function feedSource(env: Pick<Env, "DB">): FeedSource {
  return d1FeedSource(env.DB);
}
