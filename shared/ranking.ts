/**
 * The 排行榜 (/ranking): plays per title over a UTC day, the last 7 days or the last 30 days,
 * chosen with ?period= (day is the default and is left out of the URL).
 */
import type { CardItem } from "./catalogue/card";

export type RankingPeriod = "day" | "week" | "month";

export const RANKING_PERIODS: ReadonlyArray<{ value: RankingPeriod; label: string; days: number }> = [
  { value: "day", label: "日榜", days: 1 },
  { value: "week", label: "周榜", days: 7 },
  { value: "month", label: "月榜", days: 30 },
];

/** How many titles a ranking lists. */
export const RANKING_SIZE = 50;

export function parsePeriod(raw: string | null): RankingPeriod {
  return raw === "week" || raw === "month" ? raw : "day";
}

export function rankingHref(period: RankingPeriod): string {
  return period === "day" ? "/ranking" : `/ranking?period=${period}`;
}

/** The UTC date of an instant, YYYY-MM-DD (the unit plays are counted in). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The first and last UTC day a period covers, ending today. */
export function periodDays(period: RankingPeriod, now: number): { from: string; to: string } {
  const days = RANKING_PERIODS.find((p) => p.value === period)?.days ?? 1;
  return { from: utcDay(now - (days - 1) * 86_400_000), to: utcDay(now) };
}

/** What the ranking page shows: cards whose `views` are the plays in the period, most first. */
export interface RankingData {
  period: RankingPeriod;
  from: string;
  to: string;
  items: CardItem[];
}

/**
 * The /ranking loader: the period from the URL, the data from the platform's runner (a loader's
 * arguments; `RankingRunner`, shared/routes/declare.ts: the worker queries D1, the browser asks the worker).
 */
export function rankingLoader<Args extends { request: { url: string } }>(run: (period: RankingPeriod, args: Args) => Promise<RankingData>) {
  return (args: Args): Promise<RankingData> => run(parsePeriod(new URL(args.request.url).searchParams.get("period")), args);
}
