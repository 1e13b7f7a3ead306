/**
 * 评分 of a title (docs/decisions/0115-viewer-ratings.md):
 *
 * - GET /api/ratings/{id} — `{ summary, mine }`: the viewers' totals (shared/ratings.ts
 *   RatingSummary) and the signed-in viewer's own score (null when none or signed out).
 * - PUT /api/ratings/{id} `{ score }` — rate the title 1–10 (or change the score); answers as GET.
 * - DELETE /api/ratings/{id} — remove the viewer's score; answers as GET.
 *
 * Writes need a signed-in account (the user id comes from the session, never from the request),
 * a same-site Origin and stay under RATING_WRITES per account. Every answer is private, no-store
 * (it carries the viewer's own score); the page's server-rendered summary is what caches.
 */
import { Hono } from "hono";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { isRatingScore } from "../../shared/ratings";
import type { AppContext, AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { applySession, createRequestSession, currentUser } from "../auth/session";
import { signedInAccount } from "../auth/signed-in";
import { limitBody, readJsonObject } from "../request-body";
import { titleExists } from "../catalogue/titles";
import { countWrite, ratingOf, ratingSummary, RATING_WRITES, writeRating } from "./store";

const PRIVATE = { "Cache-Control": "private, no-store" };

type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 429 | 503;

function fail(c: AppContext, status: ErrorStatus, code: string, message: string, headers: Record<string, string> = {}): Response {
  return c.json({ error: { code, message } }, status, { ...PRIVATE, ...headers });
}

/** The signed-in account of a request, or the answer to give instead (401, or 503 when the account service is down). */
const signedIn = (c: AppContext) =>
  signedInAccount(c, (why) =>
    why === "unavailable" ? fail(c, 503, "service_unavailable", "账号服务暂时不可用，请稍后再试") : fail(c, 401, "not_signed_in", "请先登录后再评分"),
  );

export const ratingsApi = new Hono<AppEnv>();

// A write from another site is refused before anything is read (browsers send an Origin on every fetch PUT/DELETE).
ratingsApi.use("*", async (c: AppContext, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !isFromThisSite(c.req.raw, c.env)) {
    return fail(c, 403, "cross_site", "请求来源无效");
  }
  return next();
});
ratingsApi.use(
  "*",
  limitBody((c) => fail(c as AppContext, 413, "too_large", "请求内容过大")),
);

ratingsApi.get("/:id", async (c) => {
  const id = c.req.param("id");
  const db = c.env.DB;
  if (!isTitleId(id) || !(await titleExists(db, id))) return fail(c, 404, "unknown_title", "视频不存在");
  const session = createRequestSession(c);
  const user = session.hasCookie ? (await currentUser(session)).user : null;
  const [summary, mine] = await Promise.all([ratingSummary(db, id), user ? ratingOf(db, user.id, id) : null]);
  return applySession(session, c.json({ summary, mine }, 200, PRIVATE));
});

/** A write of the signed-in viewer's score (`null`: remove it). */
async function write(c: AppContext, score: number | null): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const db = c.env.DB;
  const now = Date.now();
  const [count, exists] = await db.batch<{ count?: number; found?: number }>([
    countWrite(db, who.userId, now),
    db.prepare("SELECT 1 AS found FROM titles WHERE id = ?").bind(id),
  ]);
  if ((count?.results[0]?.count ?? 0) > RATING_WRITES.limit) {
    return applySession(who.session, fail(c, 429, "too_many_ratings", "评分太频繁，请稍后再试", { "Retry-After": String(RATING_WRITES.windowMs / 1000) }));
  }
  // A title taken down keeps its scores; only a title that exists may get a new one.
  if (score !== null && !exists?.results[0]) return applySession(who.session, fail(c, 404, "unknown_title", "视频不存在"));
  const summary = await writeRating(db, who.userId, id, score, now);
  return applySession(who.session, c.json({ summary, mine: score }, 200, PRIVATE));
}

ratingsApi.put("/:id", async (c) => {
  if (!isTitleId(c.req.param("id"))) return fail(c, 404, "unknown_title", "视频不存在");
  const body = await readJsonObject(c.req.raw);
  if (!body) return fail(c, 400, "invalid_body", "请求内容无效");
  if (!isRatingScore(body.score)) return fail(c, 400, "invalid_score", "评分须为 1 到 10 的整数");
  return write(c, body.score);
});

ratingsApi.delete("/:id", async (c) => {
  if (!isTitleId(c.req.param("id"))) return fail(c, 404, "unknown_title", "视频不存在");
  return write(c, null);
});

ratingsApi.all("*", (c) => fail(c, 404, "not_found", "接口不存在"));
