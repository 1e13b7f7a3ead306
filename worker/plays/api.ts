/**
 * POST /api/plays/:id — the player's beacon once a title has really played for a while
 * (shared/player/usePlayBeacon.ts); counted once per viewer (account, else network) per title per
 * UTC day, at most PLAY_LIMIT plays per network an hour. The answer is {"counted": true|false}:
 * a repeat and a play over the limit look the same.
 * GET /api/ranking?period=day|week|month — the 排行榜 as JSON (the page's loader in the browser).
 */
import { Hono } from "hono";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { parsePeriod, utcDay } from "../../shared/ranking";
import type { AppEnv } from "../app-env";
import type { AppContext } from "../app-env";
import { isCrossSiteRequest } from "../auth/csrf";
import { createRequestSession, userFromStoredToken } from "../auth/session";
import { cachedText } from "../edge-answers";
import { rankingOf } from "./ranking";
import { recordPlay } from "./store";
import { playKeys } from "./visitor";

/** Rankings move slowly: a minute fresh, then served stale while one request refreshes it. */
export const RANKING_CACHE = "public, max-age=45, s-maxage=60"; // decision 0075

const error = (code: string, message: string) => ({ error: { code, message } });

/** The signed-in viewer's account id, from the session's access token (no refresh: a beacon never changes the session). */
async function viewerAccount(c: AppContext): Promise<string | null> {
  const session = createRequestSession(c);
  return session.hasCookie ? ((await userFromStoredToken(session))?.id ?? null) : null;
}

export const playsApi = new Hono<AppEnv>();

playsApi.post("/plays/:id", async (c) => {
  c.header("Cache-Control", "no-store");
  if (isCrossSiteRequest(c.req.raw)) return c.json(error("cross_site", "请求来源无效"), 403);
  const id = c.req.param("id");
  if (!isTitleId(id)) return c.json(error("not_found", "视频不存在"), 404);
  const nowMs = Date.now();
  const day = utcDay(nowMs);
  const viewer = await viewerAccount(c);
  let outcome;
  try {
    const keys = await playKeys(c.env.DB, day, c.req.raw.headers, viewer);
    outcome = await recordPlay(c.env, { titleId: id, day, nowMs, ...keys });
  } catch (failure) {
    // D1 or a shard failing: the beacon is fire-and-forget, the page is not affected.
    console.error(`plays: beacon not recorded: ${String(failure)}`);
    return c.json(error("unavailable", "播放记录暂时不可用，请稍后再试"), 503, { "Retry-After": "30" });
  }
  if (outcome === "unknown_title") return c.json(error("not_found", "视频不存在"), 404);
  return c.json({ counted: outcome === "counted" });
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
