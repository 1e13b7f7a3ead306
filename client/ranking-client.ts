import type { RankingData } from "../shared/ranking";
import type { RankingRunner } from "../shared/routes/declare";

/** The 排行榜 in the browser: the worker's JSON (edge-cached), GET /api/ranking?period=…. */
export const fetchRanking: RankingRunner = async (period, { request }): Promise<RankingData> => {
  const res = await fetch(`/api/ranking?period=${period}`, { signal: request.signal, headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`排行榜加载失败（${res.status}）`);
  return await res.json();
};
