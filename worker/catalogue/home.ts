/** The home page from D1: 8 random picks, 12 newest, 8 top rated and the main categories' counts — one round trip. */
import { MAIN_CATEGORIES } from "../../shared/catalogue/categories";
import type { CardItem } from "../../shared/catalogue/card";
import { chinaWeekday, type Weekday } from "../../shared/schedule";
import { scheduleCards, scheduleStatement } from "./schedule";
import { CARD_COLUMNS, cardsFrom, EFFECTIVE_RATING, HITS_JOIN, resultsOf, type CardRow } from "./cards";

export interface HomeSections {
  hot: CardItem[];
  latest: CardItem[];
  topRated: CardItem[];
  counts: Array<{ name: string; count: number }>;
  today: Weekday;
  todayUpdates: CardItem[];
}

/** How many series the home page's 今日更新 row shows. */
export const HOME_TODAY_COUNT = 6;

export async function queryHome(db: D1Database, sizes: { hot: number; latest: number; topRated: number }, now = Date.now()): Promise<HomeSections> {
  const cards = (order: string, limit: number) => db.prepare(`SELECT ${CARD_COLUMNS} FROM titles t ${HITS_JOIN} ORDER BY ${order} LIMIT ?`).bind(limit);
  const today = chinaWeekday(now);
  const [hot, latest, topRated, todayRows, ...counts] = await db.batch([
    cards("random()", sizes.hot),
    cards("t.year DESC, t.id DESC", sizes.latest),
    cards(`${EFFECTIVE_RATING} DESC, t.position`, sizes.topRated),
    scheduleStatement(db, today),
    // The tiles count as the category listings do: any category containing the name.
    ...MAIN_CATEGORIES.map((name) =>
      db
        .prepare(
          "SELECT count(DISTINCT tc.title_id) AS n FROM title_categories tc JOIN titles t ON t.id = tc.title_id WHERE tc.category IN (SELECT name FROM categories WHERE instr(lower(name), lower(?)) > 0)",
        )
        .bind(name),
    ),
  ]);
  return {
    hot: cardsFrom(resultsOf<CardRow>(hot)),
    latest: cardsFrom(resultsOf<CardRow>(latest)),
    topRated: cardsFrom(resultsOf<CardRow>(topRated)),
    today,
    todayUpdates: scheduleCards(resultsOf<CardRow & { entry: string }>(todayRows), today).slice(0, HOME_TODAY_COUNT),
    counts: MAIN_CATEGORIES.map((name, i) => ({ name, count: resultsOf<{ n: number }>(counts[i])[0]?.n ?? 0 })),
  };
}
