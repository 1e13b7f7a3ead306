/**
 * 追剧 and 稍后再看 of the signed-in account (docs/decisions/0091-follow-and-watch-later.md), in
 * D1 (`account_lists`, migrations/0018_series_lists.sql):
 *
 * - GET /api/lists — both lists.
 * - POST /api/lists/merge {lists} — the browser's lists (collected signed out) added to the
 *   account's: the union (shared/series-lists.ts mergeLists), titles the catalogue never had left
 *   out; answers the account's lists.
 * - PUT /api/lists/{follows|watchLater}/{id} {seenEpisodes?} — add a title (or note the episodes
 *   seen of a followed series); a full list (LIST_LIMIT) is refused.
 * - DELETE /api/lists/{follows|watchLater}/{id} — remove it.
 *
 * Only the account's own rows are ever read or written (the user id comes from the session, never
 * from the request). Writes check their origin; every answer is private, no-store.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { TITLES_TABLE } from "../../shared/catalogue/import-plan";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { addToList, isListName, LIST_LIMIT, mergeLists, parseLists, type ListItem, type ListName, type SeriesLists } from "../../shared/series-lists";
import type { AppContext, AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { applySession } from "../auth/session";
import { signedInAccount } from "../auth/signed-in";
import { readJsonObject } from "../request-body";

/** Two full lists of ids and times fit well under this. */
const MAX_LIST_BODY_BYTES = 64 * 1024;

const PRIVATE = { "Cache-Control": "private, no-store" };

type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 503;

function fail(c: AppContext, status: ErrorStatus, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status, PRIVATE);
}

interface ListRow {
  list: ListName;
  title_id: string;
  added_at: number;
  seen_episodes: number | null;
}

async function listsOf(db: D1Database, userId: string): Promise<SeriesLists> {
  const { results } = await db
    .prepare("SELECT list, title_id, added_at, seen_episodes FROM account_lists WHERE user_id = ? ORDER BY added_at DESC")
    .bind(userId)
    .all<ListRow>();
  const lists: SeriesLists = { follows: [], watchLater: [] };
  for (const row of results) {
    const item: ListItem = { id: row.title_id, addedAt: row.added_at, ...(row.seen_episodes !== null ? { seenEpisodes: row.seen_episodes } : {}) };
    if (isListName(row.list)) lists[row.list].push(item);
  }
  return lists;
}

/** The ids among `ids` that the catalogue holds (published or not, as the library keeps them: worker/catalogue/titles.ts). */
async function knownIds(db: D1Database, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { results } = await db
    .prepare(`SELECT id FROM ${TITLES_TABLE} WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ id: string }>();
  return new Set(results.map((r) => r.id));
}

/** The signed-in account of a request, or the answer to give instead (401, or 503 when the account service is down). */
const signedIn = (c: AppContext) =>
  signedInAccount(c, (why) =>
    why === "unavailable" ? fail(c, 503, "service_unavailable", "账号服务暂时不可用，请稍后再试") : fail(c, 401, "not_signed_in", "请先登录"),
  );

export const listsApi = new Hono<AppEnv>();

// A write from another site is refused before anything is read (a JSON write always has an Origin).
listsApi.use("*", async (c: AppContext, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !isFromThisSite(c.req.raw, c.env)) {
    return fail(c, 403, "cross_site", "请求来源无效");
  }
  return next();
});
listsApi.use("*", bodyLimit({ maxSize: MAX_LIST_BODY_BYTES, onError: (c) => fail(c as AppContext, 413, "too_large", "请求内容过大") }));

listsApi.get("/", async (c) => {
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  return applySession(who.session, c.json({ lists: await listsOf(c.env.DB, who.userId) }, 200, PRIVATE));
});

listsApi.post("/merge", async (c) => {
  const body = await readJsonObject(c.req.raw);
  if (!body || typeof body.lists !== "object" || body.lists === null) return fail(c, 400, "invalid_body", "请求内容无效");
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const db = c.env.DB;
  const incoming = parseLists(body.lists);
  const known = await knownIds(
    db,
    [...incoming.follows, ...incoming.watchLater].map((i) => i.id),
  );
  const merged = mergeLists(await listsOf(db, who.userId), {
    follows: incoming.follows.filter((i) => known.has(i.id)),
    watchLater: incoming.watchLater.filter((i) => known.has(i.id)),
  });
  const rows = (["follows", "watchLater"] as const).flatMap((list) =>
    merged[list].map((i) => ({ list, id: i.id, addedAt: i.addedAt, seen: i.seenEpisodes ?? null })),
  );
  await db.batch([
    db.prepare("DELETE FROM account_lists WHERE user_id = ?").bind(who.userId),
    db
      .prepare(
        "INSERT INTO account_lists (user_id, list, title_id, added_at, seen_episodes) " +
          "SELECT ?1, json_extract(value, '$.list'), json_extract(value, '$.id'), json_extract(value, '$.addedAt'), json_extract(value, '$.seen') FROM json_each(?2)",
      )
      .bind(who.userId, JSON.stringify(rows)),
  ]);
  return applySession(who.session, c.json({ lists: merged }, 200, PRIVATE));
});

listsApi.put("/:list/:id", async (c) => {
  const list = c.req.param("list");
  const id = c.req.param("id");
  if (!isListName(list)) return fail(c, 404, "not_found", "接口不存在");
  const body = (await readJsonObject(c.req.raw)) ?? {};
  const seen = body.seenEpisodes;
  if (seen !== undefined && (typeof seen !== "number" || !Number.isInteger(seen) || seen < 0 || seen > 9999))
    return fail(c, 400, "invalid_body", "已看集数无效");
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const db = c.env.DB;
  if (!isTitleId(id) || !(await knownIds(db, [id])).has(id)) return applySession(who.session, fail(c, 404, "unknown_title", "视频不存在"));
  const lists = await listsOf(db, who.userId);
  const present = lists[list].find((i) => i.id === id);
  const item: ListItem = {
    id,
    addedAt: present?.addedAt ?? Date.now(),
    ...(list === "follows" && (seen !== undefined || present?.seenEpisodes !== undefined)
      ? { seenEpisodes: Math.max(typeof seen === "number" ? seen : 0, present?.seenEpisodes ?? 0) }
      : {}),
  };
  if (!present && !addToList(lists, list, item))
    return applySession(who.session, fail(c, 400, "list_full", `${list === "follows" ? "追剧" : "稍后再看"}列表已满（最多${LIST_LIMIT}部）`));
  await db
    .prepare(
      "INSERT INTO account_lists (user_id, list, title_id, added_at, seen_episodes) VALUES (?1, ?2, ?3, ?4, ?5) " +
        "ON CONFLICT (user_id, list, title_id) DO UPDATE SET seen_episodes = excluded.seen_episodes",
    )
    .bind(who.userId, list, id, item.addedAt, item.seenEpisodes ?? null)
    .run();
  return applySession(who.session, c.json({ item }, 200, PRIVATE));
});

listsApi.delete("/:list/:id", async (c) => {
  const list = c.req.param("list");
  if (!isListName(list)) return fail(c, 404, "not_found", "接口不存在");
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  await c.env.DB.prepare("DELETE FROM account_lists WHERE user_id = ? AND list = ? AND title_id = ?").bind(who.userId, list, c.req.param("id")).run();
  return applySession(who.session, c.json({ removed: true }, 200, PRIVATE));
});

listsApi.all("*", (c) => fail(c, 404, "not_found", "接口不存在"));
