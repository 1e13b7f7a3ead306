/**
 * Cards from D1 rows: every catalogue query that lists titles selects `card` (the JSON written by
 * the import, shared/catalogue/card.ts) and the title's real play total.
 */
import type { CardItem, TitleCard } from "../../shared/catalogue/card";
import { randomInt } from "../../shared/random";

/** The columns a card query selects: `SELECT ${CARD_COLUMNS} FROM titles t LEFT JOIN title_hits h …`. */
export const CARD_COLUMNS = "t.id AS id, t.card AS card, h.total AS hits";
export const HITS_JOIN = "LEFT JOIN title_hits h ON h.title_id = t.id";

export interface CardRow {
  id: string;
  card: string;
  hits: number | null;
}

/** Real plays where there are any, else the spec's random 1000–10999 (§9). */
export function cardViews(hits: number | null | undefined, min = 1000, max = 10999): number {
  return hits && hits > 0 ? hits : randomInt(min, max);
}

export function cardFrom(row: CardRow): CardItem {
  return { ...(JSON.parse(row.card) as TitleCard), views: cardViews(row.hits) };
}

export const cardsFrom = (rows: readonly CardRow[]): CardItem[] => rows.map(cardFrom);

/** Rows of a batch statement. */
export function resultsOf<T>(result: D1Result<unknown> | undefined): T[] {
  return (result?.results ?? []) as T[];
}
