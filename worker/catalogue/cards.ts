/**
 * Cards from D1 rows: every catalogue query that lists titles selects `card` (the JSON written by
 * the import, shared/catalogue/card.ts) and the title's real play total.
 */
import type { CardItem, TitleCard } from "../../shared/catalogue/card";
import { randomInt } from "../../shared/random";

/**
 * A title's rating as every sort, filter and card uses it: the viewers' average once enough viewers
 * rated (title_rating_totals.score, migrations/0024_ratings.sql), else the catalogue's own
 * (docs/decisions/0115-viewer-ratings.md). Over `titles t`.
 */
export const EFFECTIVE_RATING = "COALESCE((SELECT r.score FROM title_rating_totals r WHERE r.title_id = t.id), t.rating)";

/** A title's comment count (comment_titles, migrations/0023_comments.sql). Over `titles t`. */
const COMMENT_COUNT = "(SELECT c.comments FROM comment_titles c WHERE c.title_id = t.id)";

/** The columns a card query selects: `SELECT ${CARD_COLUMNS} FROM titles t LEFT JOIN title_hits h …`. */
export const CARD_COLUMNS = `t.id AS id, t.card AS card, h.total AS hits, ${EFFECTIVE_RATING} AS rating, ${COMMENT_COUNT} AS comments`;
export const HITS_JOIN = "LEFT JOIN title_hits h ON h.title_id = t.id";

export interface CardRow {
  id: string;
  card: string;
  hits: number | null;
  /** EFFECTIVE_RATING. */
  rating: number;
  /** The 评论区's count (null: none yet). */
  comments: number | null;
}

/** Real plays where there are any, else the spec's random 1000–10999 (§9). */
export function cardViews(hits: number | null | undefined, min = 1000, max = 10999): number {
  return hits && hits > 0 ? hits : randomInt(min, max);
}

export function cardFrom(row: CardRow): CardItem {
  const card: CardItem = { ...(JSON.parse(row.card) as TitleCard), rating: row.rating, views: cardViews(row.hits) };
  if (row.comments) card.comments = row.comments;
  return card;
}

export const cardsFrom = (rows: readonly CardRow[]): CardItem[] => rows.map(cardFrom);

/** Rows of a batch statement. */
export function resultsOf<T>(result: D1Result<unknown> | undefined): T[] {
  return (result?.results ?? []) as T[];
}
