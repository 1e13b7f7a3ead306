/**
 * 举报 from the viewer pages (docs/admin.md, docs/decisions/0077-reports.md):
 *   POST /api/reports          `{ kind, title, episode?, reason, note?, comment?, time? }` — a 弹幕
 *                              (signed in only; `comment` and `time` name it in its room) or a
 *                              playback problem (报错, signed out too) or a comment of the 评论区
 *                              (signed in only; `comment`: its id). `{ ok, message, duplicate? }`.
 *   POST /api/reports/failure  `{ title, episode? }` — the player's beacon on a fatal playback
 *                              error, counted per title, episode and day (failures.ts). `{ counted }`.
 * Both come from the site's own pages only (an Origin naming this site or SITE_URL: browsers send
 * it on every fetch POST), are rate-limited per network, answer `no-store` and in Chinese.
 */
import { Hono, type Context } from "hono";
import { roomKey } from "../../shared/danmaku/model";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { checkReport, REPORT_MESSAGES, REPORT_WINDOW_MS, type ReportMessage } from "../../shared/reports/model";
import { utcDay } from "../../shared/ranking";
import type { AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { applySession, createRequestSession, currentUser, type RequestSession } from "../auth/session";
import { findRoom } from "../danmaku/room-id";
import { playKeys } from "../plays/visitor";
import { limitBody, readJsonObject } from "../request-body";
import { commentById } from "../comments/store";
import { recordFailure } from "./failures";
import { episodesOf, storeReport, type NewReport } from "./store";

type Status = 400 | 401 | 403 | 404 | 413 | 429 | 503;

const STATUS: Partial<Record<ReportMessage, Status>> = {
  signInForDanmaku: 401,
  signInForComment: 401,
  unknownVideo: 404,
  unknownComment: 404,
  unknownCommentItem: 404,
  tooMany: 429,
  foreign: 403,
  unavailable: 503,
};

const CODES: Partial<Record<ReportMessage, string>> = {
  signInForDanmaku: "not_signed_in",
  signInForComment: "not_signed_in",
  unknownVideo: "not_found",
  unknownComment: "unknown_comment",
  unknownCommentItem: "unknown_comment",
  tooMany: "too_many_reports",
  foreign: "cross_site",
  unavailable: "unavailable",
  badKind: "bad_kind",
  badReason: "bad_reason",
  noteTooLong: "note_too_long",
  noteControl: "bad_note",
  badEpisode: "bad_episode",
  badRequest: "bad_request",
};

const NO_STORE = { "Cache-Control": "no-store" };

function refuse(c: Context<AppEnv>, message: ReportMessage, headers: Record<string, string> = {}): Response {
  return c.json({ error: { code: CODES[message] ?? message, message: REPORT_MESSAGES[message] } }, STATUS[message] ?? 400, { ...NO_STORE, ...headers });
}

const fromThisSite = (c: Context<AppEnv>) => isFromThisSite(c.req.raw, c.env);

/** The signed-in reporter's account id (null: signed out), or "unavailable" when the account service could not say. */
async function reporterOf(session: RequestSession): Promise<{ id: string | null } | "unavailable"> {
  if (!session.hasCookie) return { id: null };
  const result = await currentUser(session);
  if (result.user) return { id: result.user.id };
  return result.transient ? "unavailable" : { id: null };
}

/** The 弹幕 `id` at `time` in the room of the title's episode: its text, or null when there is none. */
async function reportedComment(env: Env, titleId: string, episode: number, id: number, time: number): Promise<{ text: string; time: number } | null> {
  const room = await findRoom(env, roomKey(titleId, episode));
  if (!room) return null;
  const stub = env.DANMAKU.get(env.DANMAKU.idFromName(room.key));
  // Times have 0.1 s precision: a narrow window around the time the overlay showed holds it.
  const comments = await stub.list({ key: room.key, sampleSeconds: room.sampleSeconds }, Math.max(0, time - 0.05), time + 0.05);
  const found = comments.find((comment) => comment.id === id);
  return found ? { text: found.text, time: found.time } : null;
}

export const reportsApi = new Hono<AppEnv>();

reportsApi.use(
  "*",
  limitBody((c) => c.json({ error: { code: "payload_too_large", message: "请求过大" } }, 413, NO_STORE)),
);

reportsApi.post("/", async (c) => {
  if (!fromThisSite(c)) return refuse(c, "foreign");
  const body = await readJsonObject(c.req.raw);
  const checked = checkReport(body);
  if (!checked.ok) return refuse(c, checked.code);
  const { draft } = checked;
  const session = createRequestSession(c);
  const answer = (res: Response) => applySession(session, res);
  const reporter = await reporterOf(session);
  if (reporter === "unavailable") return answer(refuse(c, "unavailable", { "Retry-After": "30" }));
  if (draft.kind === "danmaku" && reporter.id === null) return answer(refuse(c, "signInForDanmaku"));
  if (draft.kind === "comment" && reporter.id === null) return answer(refuse(c, "signInForComment"));
  const nowMs = Date.now();
  try {
    const episodes = await episodesOf(c.env.DB, draft.titleId);
    if (episodes === null) return answer(refuse(c, "unknownVideo"));
    if (draft.episode > episodes) return answer(refuse(c, "badEpisode"));
    let target: Pick<NewReport, "targetId" | "targetText" | "targetTime"> = { targetId: null, targetText: null, targetTime: null };
    let episode = draft.episode;
    if (draft.commentId !== null) {
      // A comment of the 评论区 (worker/comments/): live and of this title; the queue shows its text.
      const reported = await commentById(c.env.DB, draft.commentId);
      if (!reported || reported.state !== "live" || reported.titleId !== draft.titleId) return answer(refuse(c, "unknownCommentItem"));
      target = { targetId: String(reported.id), targetText: reported.text, targetTime: null };
      episode = reported.episode ?? 1;
    }
    if (draft.comment) {
      const comment = await reportedComment(c.env, draft.titleId, draft.episode, draft.comment.id, draft.comment.time);
      if (!comment) return answer(refuse(c, "unknownComment"));
      target = { targetId: String(draft.comment.id), targetText: comment.text, targetTime: comment.time };
    }
    const keys = await playKeys(c.env.DB, utcDay(nowMs), c.req.raw.headers, null);
    const outcome = await storeReport(
      c.env.DB,
      {
        ...target,
        kind: draft.kind,
        titleId: draft.titleId,
        episode,
        reason: draft.reason,
        note: draft.note,
        reporterId: reporter.id,
        reporterKey: keys.network,
      },
      nowMs,
    );
    if (outcome.kind === "limited") return answer(refuse(c, "tooMany", { "Retry-After": String(REPORT_WINDOW_MS / 1000) }));
    const duplicate = outcome.kind === "duplicate";
    return answer(c.json({ ok: true, duplicate, message: REPORT_MESSAGES[duplicate ? "duplicate" : "sent"] }, 200, NO_STORE));
  } catch (failure) {
    console.error(`reports: not stored: ${String(failure)}`);
    return answer(refuse(c, "unavailable", { "Retry-After": "30" }));
  }
});

reportsApi.post("/failure", async (c) => {
  if (!fromThisSite(c)) return refuse(c, "foreign");
  const body = await readJsonObject(c.req.raw);
  const episode = body?.episode ?? 1;
  if (!body || !isTitleId(body.title)) return refuse(c, "unknownVideo");
  if (typeof episode !== "number" || !Number.isInteger(episode) || episode < 1 || episode > 9999) return refuse(c, "badEpisode");
  const nowMs = Date.now();
  try {
    const episodes = await episodesOf(c.env.DB, body.title);
    if (episodes === null) return refuse(c, "unknownVideo");
    if (episode > episodes) return refuse(c, "badEpisode");
    const day = utcDay(nowMs);
    const { network } = await playKeys(c.env.DB, day, c.req.raw.headers, null);
    const counted = await recordFailure(c.env.DB, { day, network, titleId: body.title, episode }, nowMs);
    return c.json({ counted }, 200, NO_STORE);
  } catch (failure) {
    console.error(`reports: failure beacon not recorded: ${String(failure)}`);
    return refuse(c, "unavailable", { "Retry-After": "30" });
  }
});
