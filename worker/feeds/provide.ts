/**
 * GET /api.php/provide/vod/ — the MacCMS v10 provide API that TV-box apps (TVBox, 影视仓 …) and
 * aggregators read (docs/provide-api.md). JSON by default, XML with at=xml or the path form
 * /api.php/provide/vod/at/xml/. Answers are edge-cached for a few minutes.
 */
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../app-env";
import { siteConfigOf } from "../config";
import { totalPlays } from "../plays/store";
import { viewerScoresOf } from "../ratings/store";
import { cachedText } from "../edge-answers";
import { detailRow, jsonAnswer, listRow, MAX_IDS, parseProvideRequest, xmlAnswer, type ProvideRequest, type RowContext } from "./maccms";
import { feedSource } from "./d1-source";
import type { FeedSource, TitlePage } from "./source";

/** Apps poll the API for updates: five minutes fresh at the edge, then stale while refreshing. */
export const PROVIDE_CACHE = "public, max-age=45, s-maxage=300"; // decision 0075

async function pageOf(source: FeedSource, req: ProvideRequest, now: number): Promise<TitlePage> {
  const offset = (req.page - 1) * req.pageSize;
  if (req.ids) {
    const found = await source.byIds(req.ids);
    return { total: found.length, items: found.slice(offset, offset + req.pageSize) };
  }
  return source.titles({
    typeId: req.typeId,
    keyword: req.keyword,
    updatedSince: req.hours !== undefined ? now - req.hours * 3_600_000 : undefined,
    yearFrom: req.yearFrom,
    yearTo: req.yearTo,
    ended: req.ended,
    offset,
    limit: req.pageSize,
  });
}

/** The answer to one provide request, as MacCMS would give it. */
export async function provideAnswer(source: FeedSource, db: D1Database, req: ProvideRequest, origin: string, now: number) {
  const [page, categories] = await Promise.all([pageOf(source, req, now), source.categories()]);
  const ids = page.items.map((t) => t.video.id);
  const [hits, viewerScores] =
    req.mode === "detail" ? await Promise.all([totalPlays(db, ids), viewerScoresOf(db, ids)]) : [new Map<string, number>(), new Map()];
  const ctx: RowContext = { origin, categories, sources: req.sources, hits, viewerScores };
  const rows = page.items.map((title) => (req.mode === "detail" ? detailRow(title, ctx) : listRow(title, ctx)));
  const pageInfo = { page: req.page, pageSize: req.pageSize, total: page.total };
  // MacCMS sends the categories in list mode (TVBox builds its tabs from them), never in detail mode.
  const withClass = req.mode === "list" ? categories : null;
  return req.format === "xml"
    ? { body: xmlAnswer(pageInfo, rows, withClass), contentType: "application/xml; charset=utf-8" }
    : { body: JSON.stringify(jsonAnswer(pageInfo, rows, withClass)), contentType: "application/json; charset=utf-8" };
}

/** A provide API over `source` (the site's D1 catalogue, or a test's fixture). */
export function provideApi(source: (env: Env) => FeedSource = feedSource) {
  const handle = async (c: AppContext, atXml: boolean) => {
    const req = parseProvideRequest(new URL(c.req.url).searchParams, atXml);
    if (req.ids && req.ids.length > MAX_IDS) {
      // MacCMS's own shape for a refusal (code 0), readable cross-origin like every answer.
      return c.json({ code: 0, msg: `ids 一次最多${MAX_IDS}个` }, 400, { "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" });
    }
    const origin = siteConfigOf(c.env, c.req.url).origin;
    // The key is the parsed request (equivalent URLs share an entry) and the site origin the URLs name;
    // `h` moves with the clock, so such answers are keyed per minute.
    const minute = req.hours !== undefined ? Math.floor(Date.now() / 60_000) : 0;
    const key = JSON.stringify({ ...req, origin, minute });
    const response = await cachedText(c, `provide:${key}`, PROVIDE_CACHE, () => provideAnswer(source(c.env), c.env.DB, req, origin, Date.now()));
    // Public data for any app or page: readable cross-origin, never with credentials.
    response.headers.set("Access-Control-Allow-Origin", "*");
    return response;
  };
  const api = new Hono<AppEnv>();
  for (const path of ["/vod", "/vod/"]) api.get(path, (c) => handle(c, false));
  for (const path of ["/vod/at/xml", "/vod/at/xml/"]) api.get(path, (c) => handle(c, true));
  return api;
}
