/**
 * 评论管理 (both roles: moderation), like 弹幕管理 (worker/admin/danmaku.ts): the comments of every
 * title, newest first, filtered by title, episode, account, text and day; removing one or a
 * selection (state 'removed': a comment that still has replies shows 该评论已被删除 in its place,
 * worker/comments/store.ts takeDown), with an audit row per comment in the batch of the change.
 * Muting is 弹幕管理's (one mute for 弹幕 and comments: /admin/danmaku/mutes).
 * docs/decisions/0111-comment-moderation.md.
 */
import { DANMAKU_PAGE, MAX_DELETE, muteHolds, type DanmakuListQuery } from "../../shared/danmaku/moderation";
import { takeDown } from "../comments/store";
import { forgetCommentVersion } from "../comments/version";
import type { AdminVisitor } from "./access";
import type { Refusal, Result } from "./actions";
import { auditStatement, prepared } from "./audit";
import { moderationFilter, whereOf, type FilterColumns } from "./moderation-filter";
import { emailsOf, type Poster } from "./posters";

export const COMMENT_ADMIN_MESSAGES = {
  nothingSelected: "请先选择要删除的评论",
  tooMany: `一次最多删除 ${MAX_DELETE} 条评论`,
  badId: "评论编号格式有误",
  unknownUser: "没有找到这个账号",
} as const;

const refusal = (status: Refusal["status"], code: string, message: string): Refusal => ({ ok: false, status, code, message });

export const COMMENT_STATE_NAMES = { live: "正常", deleted: "作者已删除", removed: "已删除（管理）" } as const;
export type CommentState = keyof typeof COMMENT_STATE_NAMES;

export interface AdminComment {
  id: number;
  titleId: string;
  title: string;
  episode: number | null;
  /** The thread a reply is under; null for a top-level comment. */
  parentId: number | null;
  user: Poster;
  text: string;
  created: number;
  likes: number;
  replies: number;
  state: CommentState;
  removedBy: string | null;
  /** The author's mute while it holds (ms, null for good); undefined: not muted. */
  mutedUntil?: number | null;
}

export interface AdminCommentList {
  query: DanmakuListQuery;
  items: AdminComment[];
  /** The cursor of the next (older) page: comments with a smaller id. */
  next: number | null;
  problem?: string;
}

interface Row {
  id: number;
  title_id: string;
  title: string | null;
  episode: number | null;
  parent_id: number | null;
  user_id: string;
  text: string;
  created_at: number;
  likes: number;
  replies: number;
  state: CommentState;
  removed_by: string | null;
  muted: number | null;
  until: number | null;
}

const COMMENT_COLUMNS: FilterColumns = {
  title: "c.title_id",
  episode: "c.episode",
  user: "c.user_id",
  text: "c.text",
  created: "c.created_at",
  cursor: "c.id",
};

/** The newest comments first (DANMAKU_PAGE a page), with the 弹幕 list's filters (`before`: an id). */
export async function listAdminComments(env: Env, query: DanmakuListQuery, nowMs = Date.now()): Promise<AdminCommentList> {
  const filter = await moderationFilter(env, query, COMMENT_COLUMNS, COMMENT_ADMIN_MESSAGES.unknownUser);
  if ("problem" in filter) return { query, items: [], next: null, problem: filter.problem };
  const { results } = await env.DB.prepare(
    "SELECT c.id, c.title_id, t.title, c.episode, c.parent_id, c.user_id, c.text, c.created_at, c.likes, c.replies, c.state, c.removed_by, " +
      "(m.user_id IS NOT NULL) AS muted, m.until FROM comments c LEFT JOIN catalogue_titles t ON t.id = c.title_id " +
      "LEFT JOIN danmaku_mutes m ON m.user_id = c.user_id" +
      whereOf(filter.where) +
      " ORDER BY c.id DESC LIMIT ?",
  )
    .bind(...filter.params, DANMAKU_PAGE + 1)
    .all<Row>();
  const rows = results.slice(0, DANMAKU_PAGE);
  const emails = await emailsOf(
    env,
    rows.map((r) => r.user_id),
  );
  return {
    query,
    items: rows.map((r) => ({
      id: r.id,
      titleId: r.title_id,
      title: r.title ?? r.title_id,
      episode: r.episode,
      parentId: r.parent_id,
      user: { id: r.user_id, email: emails.get(r.user_id) ?? null },
      text: r.text,
      created: r.created_at,
      likes: r.likes,
      replies: r.replies,
      state: r.state,
      removedBy: r.removed_by,
      mutedUntil: r.muted && muteHolds(r.until, nowMs) ? r.until : undefined,
    })),
    next: results.length > DANMAKU_PAGE ? (rows.at(-1)?.id ?? null) : null,
  };
}

/** Comment ids from a form or a body: positive whole numbers, else null. */
export function commentIdsOf(values: readonly unknown[]): number[] | null {
  const ids = values.map((v) => (typeof v === "number" ? String(v) : v)).map((v) => (typeof v === "string" && /^[1-9]\d{0,14}$/.test(v) ? Number(v) : null));
  return ids.some((id) => id === null) ? null : (ids as number[]);
}

/**
 * Removes comments as a moderator: each live one becomes 'removed' (named by the moderator's
 * e-mail), its title's count and edge-cache version follow, and one audit row per comment
 * (`comment.delete`, before: its text, author, title) goes into D1; their open 举报 are resolved.
 * Comments already gone count as missing.
 */
export async function removeComments(env: Env, actor: AdminVisitor, ids: readonly number[]): Promise<Result<{ deleted: number; missing: number }>> {
  if (ids.length === 0) return refusal(400, "nothing_selected", COMMENT_ADMIN_MESSAGES.nothingSelected);
  if (ids.length > MAX_DELETE) return refusal(400, "too_many", COMMENT_ADMIN_MESSAGES.tooMany);
  const nowMs = Date.now();
  const taken = await takeDown(env.DB, ids, { by: "moderator", email: actor.email }, nowMs);
  if (taken.length > 0)
    await env.DB.batch([
      // Their open 举报 are settled by the removal.
      env.DB.prepare(
        "UPDATE reports SET status = 'resolved', resolved_by = ?1, resolved_at = ?2 WHERE kind = 'comment' AND status = 'open' AND target_id IN (SELECT CAST(value AS TEXT) FROM json_each(?3))",
      ).bind(actor.email, nowMs, JSON.stringify(taken.map((c) => c.id))),
      ...taken.map((c) =>
        prepared(
          env.DB,
          auditStatement(
            {
              actorId: actor.userId,
              actorEmail: actor.email,
              action: "comment.delete",
              target: `评论 ${c.id}`,
              before: { id: c.id, titleId: c.titleId, episode: c.episode, parentId: c.parentId, user: c.userId, text: c.text },
              after: null,
            },
            nowMs,
          ),
        ),
      ),
    ]);
  for (const c of taken) forgetCommentVersion(c.titleId);
  return { ok: true, value: { deleted: taken.length, missing: new Set(ids).size - taken.length } };
}
