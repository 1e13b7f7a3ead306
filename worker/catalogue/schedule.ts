/**
 * 追剧周表 from D1 (docs/decisions/0090-serial-schedule.md): the series still 连载 whose update
 * days include a weekday, most recently updated first. The partial index of
 * migrations/0018_series_lists.sql keeps the scan to titles that have update days at all; the one
 * rule (shared/schedule.ts updatesOn) decides over each candidate's entry.
 */
import type { CardItem } from "../../shared/catalogue/card";
import type { Video } from "../../shared/catalogue/types";
import { updatesOn, type Weekday } from "../../shared/schedule";
import { CARD_COLUMNS, cardFrom, HITS_JOIN, type CardRow } from "./cards";

/** More series than one weekday lists is not a schedule any more: the page shows at most this many. */
export const SCHEDULE_LIMIT = 60;

const SCHEDULE_SQL =
  `SELECT ${CARD_COLUMNS}, t.entry AS entry FROM titles t ${HITS_JOIN} ` +
  "WHERE json_extract(t.entry, '$.updateDays') IS NOT NULL " +
  "AND EXISTS (SELECT 1 FROM json_each(t.entry, '$.updateDays') d WHERE d.value = ?1) " +
  "ORDER BY t.updated_at DESC, t.position LIMIT ?2";

/** The statement of `day`'s series (for a batch): read its rows with `scheduleCards`. */
export function scheduleStatement(db: D1Database, day: Weekday, limit = SCHEDULE_LIMIT): D1PreparedStatement {
  return db.prepare(SCHEDULE_SQL).bind(day, limit);
}

/** The cards of a schedule statement's rows: only series the rule lists on `day`. */
export function scheduleCards(rows: ReadonlyArray<CardRow & { entry: string }>, day: Weekday): CardItem[] {
  return rows.filter((row) => updatesOn(JSON.parse(row.entry) as Video, day)).map(cardFrom);
}

export async function querySchedule(db: D1Database, day: Weekday): Promise<CardItem[]> {
  const { results } = await scheduleStatement(db, day).all<CardRow & { entry: string }>();
  return scheduleCards(results, day);
}
