/**
 * POST /api/plays/:id — the player's beacon once a title has really played for a while
 * (shared/player/usePlayBeacon.ts); counted once per visitor per title per UTC day.
 * GET /api/ranking?period=day|week|month — the 排行榜 as JSON (the page's loader in the browser).
 */
import { Hono } from "hono";
import { parsePeriod, utcDay } from "../../shared/ranking";
import type { AppEnv } from "../app-env";
import { isCrossSiteRequest } from "../auth/csrf";
import { cachedText } from "../edge-answers";
import { feedSource } from "../feeds/d1-source";
import { rankingOf } from "./ranking";
import { recordPlay } from "./store";
import { visitorHash } from "./visitor";

/** Rankings move slowly: a minute fresh, then served stale while one request refreshes it. */
export const RANKING_CACHE = "public, max-age=60, s-maxage=60, stale-while-revalidate=300";

const error = (code: string, message: string) => ({ error: { code, message } });

export const playsApi = new Hono<AppEnv>();

playsApi.post("/plays/:id", async (c) => {
  c.header("Cache-Control", "no-store");
  if (isCrossSiteRequest(c.req.raw)) return c.json(error("cross_site", "请求来源无效"), 403);
  const id = c.req.param("id");
  if (!/^video_\d{3,7}$/.test(id) || (await feedSource(c.env).byIds([id])).length === 0) return c.json(error("not_found", "视频不存在"), 404);
  const day = utcDay(Date.now());
  const visitor = await visitorHash(c.env.DB, day, c.req.raw.headers);
  const counted = await recordPlay(c.env.DB, id, visitor, day);
  return c.json({ counted });
});

playsApi.get("/ranking", (c) => {
  const period = parsePeriod(c.req.query("period") ?? null);
  const now = Date.now();
  // One cache entry per period and UTC day: a new day starts a new ranking.
  return cachedText(c, `ranking:${period}:${utcDay(now)}`, RANKING_CACHE, async () => ({
    body: JSON.stringify(await rankingOf(c.env.DB, period, now)),
    contentType: "application/json; charset=utf-8",
  }));
});
