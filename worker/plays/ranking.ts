import { periodDays, RANKING_SIZE, type RankingData, type RankingPeriod } from "../../shared/ranking";
import { cardsByIds } from "../catalogue/titles";
import { topTitles } from "./store";

/** The 排行榜 of a period ending on the UTC day of `now`: titles still in the catalogue only, with the period's plays. */
export async function rankingOf(db: D1Database, period: RankingPeriod, now: number): Promise<RankingData> {
  const { from, to } = periodDays(period, now);
  const top = await topTitles(db, from, to, RANKING_SIZE + 20);
  const cards = new Map(
    (
      await cardsByIds(
        db,
        top.map((t) => t.id),
      )
    ).map((card) => [card.id, card]),
  );
  const items = top.flatMap((t) => {
    const card = cards.get(t.id);
    return card ? [{ ...card, views: t.plays }] : [];
  });
  return { period, from, to, items: items.slice(0, RANKING_SIZE) };
}
