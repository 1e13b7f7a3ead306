/**
 * 评论区 (docs/decisions/0110-comments.md), comments in D1 (worker/comments/store.ts):
 *
 * - GET /api/comments/title/{id}?sort=hot|new&page=N — a page of the title's comments with their
 *   first replies. Signed in: with `mine` and `liked` (private); signed out: the same for everyone.
 * - GET /api/comments/title/{id}/replies/{comment}?page=N — one comment's replies.
 * - POST /api/comments/title/{id} `{ text, episode?, replyTo? }` — a comment, or a reply to a
 *   comment or a reply of the title (one level: a reply to a reply joins the same thread).
 * - DELETE /api/comments/item/{comment} — the author deletes their own.
 * - PUT | DELETE /api/comments/item/{comment}/like — 点赞 (one per account) or take it back.
 * - GET /api/comments/me — the nickname and the unread count of 回复我的;
 *   PUT /api/comments/me/nickname `{ nickname }`; GET /api/comments/me/replies?page=N (回复我的);
 *   POST /api/comments/me/replies/seen — everything up to now read.
 *
 * Writes need an account, come from the site's own pages only (Origin), follow the 弹幕 rules
 * (length, blocked words of 弹幕管理, mutes, the per-account rate across titles) and answer in
 * Chinese; 举报 goes through POST /api/reports (kind 'comment', worker/reports/api.ts).
 */
import { Hono, type Context } from "hono";
import { isTitleId } from "../../shared/catalogue/title-ids";
import { checkCommentText, checkNickname, COMMENT_MESSAGES, parseCommentId, parsePage, parseSort, type CommentMessage } from "../../shared/comments/model";
import { containsBlockedWord } from "../../shared/danmaku/model";
import { muteMessage } from "../../shared/danmaku/moderation";
import { toSimplified } from "../../shared/search/t2s";
import type { AppEnv } from "../app-env";
import { isFromThisSite } from "../auth/csrf";
import { applySession, createRequestSession, currentUser, type RequestSession } from "../auth/session";
import { signedInAccount } from "../auth/signed-in";
import { defaultBlockedWords, readPostPolicy } from "../danmaku/policy";
import { limitBody, readJsonObject } from "../request-body";
import { episodesOf } from "../reports/store";
import {
  commentById,
  ensureProfile,
  inboxOf,
  insertComment,
  listComments,
  listReplies,
  markInboxSeen,
  profileOf,
  replyTarget,
  retryAfterMs,
  setLike,
  setNickname,
  takeDown,
} from "./store";
import { forgetCommentVersion } from "./version";

type Status = 400 | 401 | 403 | 404 | 413 | 429 | 503;

const STATUS: Partial<Record<CommentMessage, Status>> = {
  notSignedIn: 401,
  signInToLike: 401,
  foreign: 403,
  notYours: 403,
  muted: 403,
  unknownVideo: 404,
  unknownComment: 404,
  tooLarge: 413,
  tooFast: 429,
  unavailable: 503,
};

const PRIVATE = { "Cache-Control": "private, no-store" };
/** Signed-out reads: the same for everyone, a few seconds in browsers (a new comment shows at once to its author, who is signed in). */
const PUBLIC_READ = { "Cache-Control": "public, max-age=5" };

type C = Context<AppEnv>;

function refuse(c: C, code: CommentMessage, message: string = COMMENT_MESSAGES[code], headers: Record<string, string> = {}): Response {
  return c.json({ error: { code, message } }, STATUS[code] ?? 400, { ...PRIVATE, ...headers });
}

const fromThisSite = (c: C) => isFromThisSite(c.req.raw, c.env);

/** The signed-in account, or the answer instead (401, or 503 when the account service is down). */
const signedIn = (c: C, code: CommentMessage = "notSignedIn") =>
  signedInAccount(c, (why) => (why === "unavailable" ? refuse(c, "unavailable", COMMENT_MESSAGES.unavailable, { "Retry-After": "30" }) : refuse(c, code)));

/** A reader: the signed-in account where there is one (null when signed out, or the service cannot tell: the public answer). */
async function reader(c: C): Promise<{ session: RequestSession | null; userId: string | null }> {
  const session = createRequestSession(c);
  if (!session.hasCookie) return { session: null, userId: null };
  const result = await currentUser(session);
  return { session, userId: result.user?.id ?? null };
}

export const commentsApi = new Hono<AppEnv>();

commentsApi.use(
  "*",
  limitBody((c) => refuse(c as C, "tooLarge")),
);
// A write from another site is refused before anything is read.
commentsApi.use("*", async (c: C, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !fromThisSite(c)) return refuse(c, "foreign");
  return next();
});

commentsApi.get("/title/:title", async (c) => {
  const titleId = c.req.param("title");
  if (!isTitleId(titleId) || (await episodesOf(c.env.DB, titleId)) === null) return refuse(c, "unknownVideo");
  const { session, userId } = await reader(c);
  const page = await listComments(c.env.DB, titleId, parseSort(c.req.query("sort")), parsePage(c.req.query("page")), userId);
  const res = c.json(page, 200, userId ? PRIVATE : PUBLIC_READ);
  return session ? applySession(session, res) : res;
});

commentsApi.get("/title/:title/replies/:id", async (c) => {
  const titleId = c.req.param("title");
  const id = parseCommentId(c.req.param("id"));
  if (!isTitleId(titleId) || id === null) return refuse(c, "unknownComment");
  const { session, userId } = await reader(c);
  const replies = await listReplies(c.env.DB, titleId, id, parsePage(c.req.query("page")), userId);
  const res = replies ? c.json(replies, 200, userId ? PRIVATE : PUBLIC_READ) : refuse(c, "unknownComment");
  return session ? applySession(session, res) : res;
});

commentsApi.post("/title/:title", async (c) => {
  const titleId = c.req.param("title");
  const body = await readJsonObject(c.req.raw);
  if (!body) return refuse(c, "badRequest");
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const answer = (res: Response) => applySession(who.session, res);
  const db = c.env.DB;
  const episodes = isTitleId(titleId) ? await episodesOf(db, titleId) : null;
  if (episodes === null) return answer(refuse(c, "unknownVideo"));
  const episode = body.episode ?? null;
  if (episode !== null && (typeof episode !== "number" || !Number.isInteger(episode) || episode < 1 || episode > episodes))
    return answer(refuse(c, "badEpisode"));
  const checked = checkCommentText(body.text, [], toSimplified);
  if (!checked.ok) return answer(refuse(c, checked.code));
  const policy = await readPostPolicy(db, who.userId);
  if (containsBlockedWord(checked.text, policy.words ?? defaultBlockedWords(c.env), toSimplified)) return answer(refuse(c, "blocked"));
  if (policy.mutedUntil !== undefined) return answer(refuse(c, "muted", muteMessage(policy.mutedUntil)));
  let reply: { thread: number; to: number; toUser: string } | null = null;
  if (body.replyTo !== undefined && body.replyTo !== null) {
    const to = parseCommentId(body.replyTo);
    const target = to === null ? null : await replyTarget(db, titleId, to);
    if (to === null || !target) return answer(refuse(c, "unknownComment"));
    reply = { thread: target.thread, to, toUser: target.author };
  }
  const nickname = await ensureProfile(db, who.userId);
  const nowMs = Date.now();
  // A film's only "episode" is not named: the label is for series.
  const id = await insertComment(db, { titleId, episode: episodes > 1 ? episode : null, userId: who.userId, text: checked.text, reply }, nowMs);
  if (id === null) {
    const wait = await retryAfterMs(db, who.userId, nowMs);
    return answer(refuse(c, "tooFast", COMMENT_MESSAGES.tooFast, { "Retry-After": String(Math.ceil(wait / 1000)) }));
  }
  forgetCommentVersion(titleId);
  const comment = {
    id,
    nickname,
    text: checked.text,
    replyTo: null as string | null,
    likes: 0,
    created: nowMs,
    episode: episodes > 1 ? episode : null,
    mine: true,
    liked: false,
  };
  if (reply && reply.to !== reply.thread) comment.replyTo = (await profileOf(db, reply.toUser)).nickname;
  return answer(c.json({ comment, thread: reply?.thread ?? null }, 201, PRIVATE));
});

commentsApi.delete("/item/:id", async (c) => {
  const id = parseCommentId(c.req.param("id"));
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const answer = (res: Response) => applySession(who.session, res);
  const found = id === null ? null : await commentById(c.env.DB, id);
  if (!found || found.state !== "live") return answer(refuse(c, "unknownComment"));
  if (found.userId !== who.userId) return answer(refuse(c, "notYours"));
  await takeDown(c.env.DB, [found.id], { by: "author", userId: who.userId }, Date.now());
  forgetCommentVersion(found.titleId);
  return answer(c.json({ ok: true }, 200, PRIVATE));
});

async function like(c: C, on: boolean): Promise<Response> {
  const id = parseCommentId(c.req.param("id"));
  const who = await signedIn(c, "signInToLike");
  if (who instanceof Response) return who;
  const likes = id === null ? null : await setLike(c.env.DB, id, who.userId, on, Date.now());
  return applySession(who.session, likes === null ? refuse(c, "unknownComment") : c.json({ likes, liked: on }, 200, PRIVATE));
}

commentsApi.put("/item/:id/like", (c) => like(c, true));
commentsApi.delete("/item/:id/like", (c) => like(c, false));

commentsApi.get("/me", async (c) => {
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const [profile, inbox] = await Promise.all([profileOf(c.env.DB, who.userId), inboxOf(c.env.DB, who.userId, 1)]);
  return applySession(who.session, c.json({ ...profile, unread: inbox.unread }, 200, PRIVATE));
});

commentsApi.put("/me/nickname", async (c) => {
  const body = await readJsonObject(c.req.raw);
  if (!body) return refuse(c, "badRequest");
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  const answer = (res: Response) => applySession(who.session, res);
  const policy = await readPostPolicy(c.env.DB, who.userId);
  const checked = checkNickname(body.nickname, policy.words ?? defaultBlockedWords(c.env), toSimplified);
  if (!checked.ok) return answer(refuse(c, checked.code));
  await setNickname(c.env.DB, who.userId, checked.text);
  return answer(c.json({ nickname: checked.text, chosen: true }, 200, PRIVATE));
});

commentsApi.get("/me/replies", async (c) => {
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  return applySession(who.session, c.json(await inboxOf(c.env.DB, who.userId, parsePage(c.req.query("page"))), 200, PRIVATE));
});

commentsApi.post("/me/replies/seen", async (c) => {
  const who = await signedIn(c);
  if (who instanceof Response) return who;
  await markInboxSeen(c.env.DB, who.userId);
  return applySession(who.session, c.json({ unread: 0 }, 200, PRIVATE));
});
