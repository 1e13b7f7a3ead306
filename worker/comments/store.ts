/**
 * 评论区 in D1 (migrations/0023_comments.sql, docs/decisions/0110-comments.md): the list of a
 * title (one page, never more: the server renders the first page of a title with any number of
 * comments with the same two reads), a comment's replies, posting under the per-account rate of
 * 弹幕 (decided in the INSERT itself), likes, deletes, nicknames and 回复我的. Counts and the
 * title's version are recounted after every write (never drift), and the version is what the
 * video pages' edge cache keys carry (worker/comments/version.ts).
 */
import {
  COMMENT_PAGE,
  HOT_EPOCH_MS,
  INBOX_PAGE,
  REMOVED_TEXT,
  REPLY_PAGE,
  REPLY_PREVIEW,
  defaultNicknameOf,
  type CommentItem,
  type CommentPage,
  type CommentReply,
  type CommentSort,
  type InboxEntry,
} from "../../shared/comments/model";
import { MIN_GAP_MS, WINDOW_MAX, WINDOW_MS } from "../../shared/danmaku/model";

interface CommentRow {
  id: number;
  parent_id: number | null;
  episode: number | null;
  text: string;
  created_at: number;
  likes: number;
  replies: number;
  state: "live" | "deleted" | "removed";
  user_id: string;
  nickname: string | null;
  reply_to_nickname: string | null;
}

/** Who reads: the signed-in viewer's account id (for 我的 and 已赞), or null. */
export type Viewer = string | null;

/** 最热 in SQL: shared/comments/model.ts hotScore, at ?now. */
const HOT_ORDER = "(c.likes + 2 * c.replies + 1) * 1.0 / (MAX(0, ?4 - c.created_at) / 3600000.0 + 2) DESC, c.id DESC";

const COLUMNS = "c.id, c.parent_id, c.episode, c.text, c.created_at, c.likes, c.replies, c.state, c.user_id, p.nickname, tp.nickname AS reply_to_nickname";
const JOINS =
  "LEFT JOIN comment_profiles p ON p.user_id = c.user_id " +
  "LEFT JOIN comments t ON t.id = c.reply_to_id AND c.reply_to_id != c.parent_id LEFT JOIN comment_profiles tp ON tp.user_id = t.user_id";

function toReply(row: CommentRow, viewer: Viewer, liked: ReadonlySet<number>): CommentReply {
  return {
    id: row.id,
    nickname: row.nickname ?? "",
    text: row.text,
    replyTo: row.reply_to_nickname,
    likes: row.likes,
    created: row.created_at,
    episode: row.episode,
    ...(viewer ? { mine: row.user_id === viewer, liked: liked.has(row.id) } : {}),
  };
}

async function likedBy(db: D1Database, viewer: Viewer, ids: readonly number[]): Promise<Set<number>> {
  if (!viewer || ids.length === 0) return new Set();
  const { results } = await db
    .prepare("SELECT comment_id FROM comment_likes WHERE user_id = ?1 AND comment_id IN (SELECT value FROM json_each(?2))")
    .bind(viewer, JSON.stringify(ids))
    .all<{ comment_id: number }>();
  return new Set(results.map((r) => r.comment_id));
}

/** The title's live comments and replies (0 before the first). */
export async function commentCount(db: D1Database, titleId: string): Promise<number> {
  return (await db.prepare("SELECT comments FROM comment_titles WHERE title_id = ?").bind(titleId).first<number>("comments")) ?? 0;
}

/**
 * One page of a title's top-level comments (removed ones only where they still have replies),
 * each with its first REPLY_PREVIEW replies: two reads, bounded by COMMENT_PAGE whatever the
 * title holds. 最热 is computed at the hour (HOT_EPOCH_MS), so consecutive pages agree.
 */
export async function listComments(db: D1Database, titleId: string, sort: CommentSort, page: number, viewer: Viewer, nowMs = Date.now()): Promise<CommentPage> {
  const at = Math.floor(nowMs / HOT_EPOCH_MS) * HOT_EPOCH_MS;
  const order = sort === "hot" ? HOT_ORDER : "c.id DESC";
  const [top, total] = await db.batch<CommentRow | { comments: number }>([
    db
      .prepare(
        `SELECT ${COLUMNS} FROM comments c ${JOINS}
          WHERE c.title_id = ?1 AND c.parent_id IS NULL AND (c.state = 'live' OR c.replies > 0)
          ORDER BY ${order} LIMIT ?2 OFFSET ?3`,
      )
      .bind(titleId, COMMENT_PAGE + 1, (page - 1) * COMMENT_PAGE, ...(sort === "hot" ? [at] : [])),
    db.prepare("SELECT comments FROM comment_titles WHERE title_id = ?").bind(titleId),
  ]);
  const rows = (top.results as CommentRow[]).slice(0, COMMENT_PAGE);
  const ids = rows.map((r) => r.id);
  const { results: replyRows } = ids.length
    ? await db
        .prepare(
          `SELECT * FROM (SELECT ${COLUMNS}, ROW_NUMBER() OVER (PARTITION BY c.parent_id ORDER BY c.id) AS n FROM comments c ${JOINS}
            WHERE c.parent_id IN (SELECT value FROM json_each(?1)) AND c.state = 'live') WHERE n <= ?2 ORDER BY id`,
        )
        .bind(JSON.stringify(ids), REPLY_PREVIEW)
        .all<CommentRow>()
    : { results: [] as CommentRow[] };
  const liked = await likedBy(db, viewer, [...ids, ...replyRows.map((r) => r.id)]);
  const items: CommentItem[] = rows.map((row) => {
    const removed = row.state !== "live";
    return {
      ...toReply(row, viewer, liked),
      ...(removed ? { nickname: "", text: REMOVED_TEXT, likes: 0, mine: viewer ? false : undefined } : {}),
      removed,
      replyCount: row.replies,
      replies: replyRows.filter((r) => r.parent_id === row.id).map((r) => toReply(r, viewer, liked)),
    };
  });
  for (const item of items) if (item.mine === undefined) delete item.mine;
  const count = (total.results[0] as { comments: number } | undefined)?.comments ?? 0;
  return { titleId, sort, page, total: count, more: top.results.length > COMMENT_PAGE, items };
}

/** A page of one comment's live replies, oldest first; null when there is no such top-level comment of the title. */
export async function listReplies(
  db: D1Database,
  titleId: string,
  parentId: number,
  page: number,
  viewer: Viewer,
): Promise<{ items: CommentReply[]; more: boolean } | null> {
  const parent = await db
    .prepare("SELECT 1 AS found FROM comments WHERE id = ? AND title_id = ? AND parent_id IS NULL")
    .bind(parentId, titleId)
    .first<number>("found");
  if (parent !== 1) return null;
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM comments c ${JOINS} WHERE c.parent_id = ?1 AND c.state = 'live' ORDER BY c.id LIMIT ?2 OFFSET ?3`)
    .bind(parentId, REPLY_PAGE + 1, (page - 1) * REPLY_PAGE)
    .all<CommentRow>();
  const rows = results.slice(0, REPLY_PAGE);
  const liked = await likedBy(
    db,
    viewer,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toReply(r, viewer, liked)), more: results.length > REPLY_PAGE };
}

/** The statements that recount a title (and a thread) and raise the title's version: run after every write. */
export function recountStatements(db: D1Database, titleId: string, parentId: number | null): D1PreparedStatement[] {
  const statements = [
    db
      .prepare(
        "INSERT INTO comment_titles (title_id, comments, version) VALUES (?1, (SELECT COUNT(*) FROM comments WHERE title_id = ?1 AND state = 'live'), 1) " +
          "ON CONFLICT (title_id) DO UPDATE SET comments = excluded.comments, version = version + 1",
      )
      .bind(titleId),
  ];
  if (parentId !== null)
    statements.push(
      db.prepare("UPDATE comments SET replies = (SELECT COUNT(*) FROM comments WHERE parent_id = ?1 AND state = 'live') WHERE id = ?1").bind(parentId),
    );
  return statements;
}

/** The nickname `userId` is shown with, writing the default (a hash of the id) on first use. */
export async function ensureProfile(db: D1Database, userId: string): Promise<string> {
  const known = await db.prepare("SELECT nickname FROM comment_profiles WHERE user_id = ?").bind(userId).first<string>("nickname");
  if (known !== null) return known;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`comment-author:${userId}`)));
  const nickname = defaultNicknameOf([...digest].map((b) => b.toString(16).padStart(2, "0")).join(""));
  await db.prepare("INSERT OR IGNORE INTO comment_profiles (user_id, nickname) VALUES (?, ?)").bind(userId, nickname).run();
  return nickname;
}

/** The account's nickname and whether it chose it. */
export async function profileOf(db: D1Database, userId: string): Promise<{ nickname: string; chosen: boolean }> {
  const nickname = await ensureProfile(db, userId);
  const chosen = await db.prepare("SELECT chosen FROM comment_profiles WHERE user_id = ?").bind(userId).first<number>("chosen");
  return { nickname, chosen: chosen === 1 };
}

export async function setNickname(db: D1Database, userId: string, nickname: string): Promise<void> {
  await db
    .prepare("INSERT INTO comment_profiles (user_id, nickname, chosen) VALUES (?1, ?2, 1) ON CONFLICT (user_id) DO UPDATE SET nickname = ?2, chosen = 1")
    .bind(userId, nickname)
    .run();
}

/** The comment a reply answers: its thread (top-level id), its author, whether it is of `titleId` and live. */
export async function replyTarget(db: D1Database, titleId: string, id: number): Promise<{ thread: number; author: string } | null> {
  const row = await db
    .prepare("SELECT id, parent_id, user_id FROM comments WHERE id = ? AND title_id = ? AND state = 'live'")
    .bind(id, titleId)
    .first<{ id: number; parent_id: number | null; user_id: string }>();
  return row ? { thread: row.parent_id ?? row.id, author: row.user_id } : null;
}

export interface NewComment {
  titleId: string;
  episode: number | null;
  userId: string;
  text: string;
  /** A reply: its thread and what it answers. */
  reply: { thread: number; to: number; toUser: string } | null;
}

/**
 * Stores a comment unless its author posted less than MIN_GAP_MS ago or WINDOW_MAX times in
 * WINDOW_MS (all titles together, the 弹幕 limit: shared/danmaku/model.ts) — decided in the INSERT,
 * so two posts at once cannot both pass. Returns its id, or null when the rate refused it.
 */
export async function insertComment(db: D1Database, comment: NewComment, nowMs: number): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO comments (title_id, episode, parent_id, reply_to_id, reply_to_user, user_id, text, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
        WHERE NOT EXISTS (SELECT 1 FROM comments WHERE user_id = ?6 AND created_at > ?8 - ?9)
          AND (SELECT COUNT(*) FROM comments WHERE user_id = ?6 AND created_at > ?8 - ?10) < ?11
       RETURNING id`,
    )
    .bind(
      comment.titleId,
      comment.episode,
      comment.reply?.thread ?? null,
      comment.reply?.to ?? null,
      comment.reply?.toUser ?? null,
      comment.userId,
      comment.text,
      nowMs,
      MIN_GAP_MS,
      WINDOW_MS,
      WINDOW_MAX,
    )
    .first<{ id: number }>();
  if (!row) return null;
  await db.batch(recountStatements(db, comment.titleId, comment.reply?.thread ?? null));
  return row.id;
}

/** How long until the author may post again (ms), for Retry-After. */
export async function retryAfterMs(db: D1Database, userId: string, nowMs: number): Promise<number> {
  const { results } = await db
    .prepare("SELECT created_at FROM comments WHERE user_id = ? AND created_at > ? ORDER BY created_at")
    .bind(userId, nowMs - WINDOW_MS)
    .all<{ created_at: number }>();
  const times = results.map((r) => r.created_at);
  const last = times.at(-1);
  if (last !== undefined && nowMs - last < MIN_GAP_MS) return MIN_GAP_MS - (nowMs - last);
  if (times.length >= WINDOW_MAX) return Math.max(1000, times[times.length - WINDOW_MAX] + WINDOW_MS - nowMs);
  return 1000;
}

/** A stored comment as the delete and the report read it. */
export interface StoredComment {
  id: number;
  titleId: string;
  episode: number | null;
  parentId: number | null;
  userId: string;
  text: string;
  state: "live" | "deleted" | "removed";
}

export async function commentById(db: D1Database, id: number): Promise<StoredComment | null> {
  const row = await db
    .prepare("SELECT id, title_id, episode, parent_id, user_id, text, state FROM comments WHERE id = ?")
    .bind(id)
    .first<{ id: number; title_id: string; episode: number | null; parent_id: number | null; user_id: string; text: string; state: StoredComment["state"] }>();
  return row
    ? { id: row.id, titleId: row.title_id, episode: row.episode, parentId: row.parent_id, userId: row.user_id, text: row.text, state: row.state }
    : null;
}

/**
 * Takes comments down: state 'deleted' (by its author) or 'removed' (by a moderator, who is
 * named). A top-level comment with replies stays in the list as REMOVED_TEXT; the counts follow.
 * Returns the comments that were live.
 */
export async function takeDown(
  db: D1Database,
  ids: readonly number[],
  how: { by: "author"; userId: string } | { by: "moderator"; email: string },
  nowMs: number,
): Promise<StoredComment[]> {
  const wanted = JSON.stringify([...new Set(ids)]);
  const { results } = await db
    .prepare(
      how.by === "author"
        ? "UPDATE comments SET state = 'deleted', removed_at = ?3 WHERE id IN (SELECT value FROM json_each(?1)) AND user_id = ?2 AND state = 'live' RETURNING id, title_id, episode, parent_id, user_id, text"
        : "UPDATE comments SET state = 'removed', removed_by = ?2, removed_at = ?3 WHERE id IN (SELECT value FROM json_each(?1)) AND state = 'live' RETURNING id, title_id, episode, parent_id, user_id, text",
    )
    .bind(wanted, how.by === "author" ? how.userId : how.email, nowMs)
    .all<{ id: number; title_id: string; episode: number | null; parent_id: number | null; user_id: string; text: string }>();
  const taken = results.map((r) => ({
    id: r.id,
    titleId: r.title_id,
    episode: r.episode,
    parentId: r.parent_id,
    userId: r.user_id,
    text: r.text,
    state: "live" as const,
  }));
  const recounts = new Map<string, D1PreparedStatement>();
  for (const c of taken) {
    for (const s of recountStatements(db, c.titleId, c.parentId)) recounts.set(`${c.titleId}/${c.parentId ?? ""}/${recounts.size}`, s);
  }
  if (recounts.size > 0) await db.batch([...recounts.values()]);
  return taken;
}

/** Likes (on) or unlikes a live comment for `userId`; its like count after, or null when there is no such live comment. */
export async function setLike(db: D1Database, id: number, userId: string, on: boolean, nowMs: number): Promise<number | null> {
  const live = await db.prepare("SELECT 1 AS found FROM comments WHERE id = ? AND state = 'live'").bind(id).first<number>("found");
  if (live !== 1) return null;
  const [, , after] = await db.batch<{ likes: number }>([
    on
      ? db.prepare("INSERT OR IGNORE INTO comment_likes (comment_id, user_id, created_at) VALUES (?, ?, ?)").bind(id, userId, nowMs)
      : db.prepare("DELETE FROM comment_likes WHERE comment_id = ? AND user_id = ?").bind(id, userId),
    db.prepare("UPDATE comments SET likes = (SELECT COUNT(*) FROM comment_likes WHERE comment_id = ?1) WHERE id = ?1").bind(id),
    db.prepare("SELECT likes FROM comments WHERE id = ?").bind(id),
  ]);
  return after.results[0]?.likes ?? 0;
}

const INBOX_WHERE = "c.reply_to_user = ?1 AND c.user_id != ?1 AND c.state = 'live'";

/** 回复我的: replies to the account's comments by others, newest first, and how many it has not seen. */
export async function inboxOf(db: D1Database, userId: string, page: number): Promise<{ items: InboxEntry[]; unread: number; more: boolean }> {
  const [list, unread] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT c.id, c.title_id, COALESCE(ti.title, c.title_id) AS title, p.nickname, c.text, c.created_at, COALESCE(t.text, '') AS answered,
                c.id > COALESCE((SELECT inbox_seen FROM comment_profiles WHERE user_id = ?1), 0) AS unread
           FROM comments c LEFT JOIN comment_profiles p ON p.user_id = c.user_id LEFT JOIN comments t ON t.id = c.reply_to_id
           LEFT JOIN titles ti ON ti.id = c.title_id
          WHERE ${INBOX_WHERE} ORDER BY c.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(userId, INBOX_PAGE + 1, (page - 1) * INBOX_PAGE),
    db
      .prepare(`SELECT COUNT(*) AS n FROM comments c WHERE ${INBOX_WHERE} AND c.id > COALESCE((SELECT inbox_seen FROM comment_profiles WHERE user_id = ?1), 0)`)
      .bind(userId),
  ]);
  const rows = list.results as Array<{
    id: number;
    title_id: string;
    title: string;
    nickname: string | null;
    text: string;
    created_at: number;
    answered: string;
    unread: number;
  }>;
  return {
    items: rows.slice(0, INBOX_PAGE).map((r) => ({
      id: r.id,
      titleId: r.title_id,
      title: r.title,
      nickname: r.nickname ?? "",
      text: r.text,
      answered: [...r.answered].slice(0, 60).join(""),
      created: r.created_at,
      unread: r.unread === 1,
    })),
    unread: Number((unread.results[0] as { n: number } | undefined)?.n ?? 0),
    more: rows.length > INBOX_PAGE,
  };
}

/** Marks every reply up to now as seen. */
export async function markInboxSeen(db: D1Database, userId: string): Promise<void> {
  await ensureProfile(db, userId);
  await db
    .prepare(`UPDATE comment_profiles SET inbox_seen = COALESCE((SELECT MAX(c.id) FROM comments c WHERE ${INBOX_WHERE}), inbox_seen) WHERE user_id = ?1`)
    .bind(userId)
    .run();
}
