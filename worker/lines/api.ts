/**
 * POST /api/lines/:id/failures — the player's report of a 线路 it had to leave
 * (shared/player/useLineFailover.ts, docs/decisions/0087-line-failures.md): `{ "episode": N,
 * "line": I }`, I the line's index (0: the site's own stream). Counted per UTC day, title, episode
 * and line in D1 (`line_failures`, migrations/0017_line_failures.sql); 概览 shows the counts
 * (worker/admin/overview.ts). Same-site only, a visible title and one of its lines, else refused.
 */
import { Hono } from "hono";
import { isTitleId } from "../../shared/catalogue/title-ids";
import type { Video } from "../../shared/catalogue/types";
import { playLines } from "../../shared/playback/lines";
import { utcDay } from "../../shared/ranking";
import type { AppEnv } from "../app-env";
import { isCrossSiteRequest } from "../auth/csrf";

const error = (code: string, message: string) => ({ error: { code, message } });

export const linesApi = new Hono<AppEnv>();

linesApi.post("/lines/:id/failures", async (c) => {
  c.header("Cache-Control", "no-store");
  if (isCrossSiteRequest(c.req.raw)) return c.json(error("cross_site", "请求来源无效"), 403);
  const id = c.req.param("id");
  if (!isTitleId(id)) return c.json(error("not_found", "视频不存在"), 404);
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return c.json(error("bad_json", "请求内容无法解析"), 400);
  }
  const { episode, line } = (body && typeof body === "object" ? body : {}) as { episode?: unknown; line?: unknown };
  if (!Number.isInteger(episode) || !Number.isInteger(line)) return c.json(error("bad_line", "缺少集数或线路"), 400);
  const row = await c.env.DB.prepare("SELECT entry FROM titles WHERE id = ?").bind(id).first<{ entry: string }>();
  if (!row) return c.json(error("not_found", "视频不存在"), 404);
  const lines = playLines(JSON.parse(row.entry) as Video, episode as number);
  if ((line as number) < 0 || (line as number) >= lines.length) return c.json(error("bad_line", "没有这条线路"), 400);
  await c.env.DB.prepare(
    "INSERT INTO line_failures (day, title_id, episode, line, failures) VALUES (?, ?, ?, ?, 1) " +
      "ON CONFLICT (day, title_id, episode, line) DO UPDATE SET failures = failures + 1",
  )
    .bind(utcDay(Date.now()), id, episode, line)
    .run();
  return c.body(null, 204);
});
