/**
 * What 弹幕管理 decides about the next post, read from D1 by the room at every post
 * (docs/decisions/0076-danmaku-moderation.md): the blocked words edited on the web (null: the
 * default list the worker hands the room) and whether the poster is muted — one query, so a
 * change applies to the very next post in every room, also in room objects already running and
 * on sockets opened before it. And the index row of every stored comment (migrations/0014),
 * written with the 概览's daily count in one batch.
 */
import { DEFAULT_BLOCKED_WORDS } from "../../shared/danmaku/blocked-words";
import { muteHolds } from "../../shared/danmaku/moderation";
import { parseRoomKey, parseWordList, MAX_COMMENTS_PER_ROOM, type DanmakuComment } from "../../shared/danmaku/model";
import { configOf } from "../config";
import { utcDay } from "../../shared/ranking";
import { countStatement } from "./post-count";
import { guardedObjectD1 } from "../outside-calls";

/** The default blocked words: the built-in list plus DANMAKU_BLOCKED_WORDS (comma- or line-separated). */
export function defaultBlockedWords(env: Env): string[] {
  return [...DEFAULT_BLOCKED_WORDS, ...parseWordList(configOf(env).DANMAKU_BLOCKED_WORDS)];
}

export interface PostPolicy {
  /** The blocked words saved in 弹幕管理; null: the default list applies. */
  words: string[] | null;
  /** The poster's mute while it holds: until when (ms), null for good; undefined: not muted. */
  mutedUntil: number | null | undefined;
}

const POLICY_SQL =
  "SELECT (SELECT words FROM danmaku_words WHERE id = 1) AS words, " +
  "(SELECT 1 FROM danmaku_mutes WHERE user_id = ?1) AS muted, (SELECT until FROM danmaku_mutes WHERE user_id = ?1) AS until";

/** The words and `user`'s mute, in one D1 read. Throws when D1 does not answer (the post is refused as 弹幕服务暂时不可用). */
export async function readPostPolicy(db: D1Database, user: string, nowMs = Date.now()): Promise<PostPolicy> {
  // Under a deadline also when a room asks (its env is not the request's: worker/outside-calls.ts).
  const row = await guardedObjectD1(db).prepare(POLICY_SQL).bind(user).first<{ words: string | null; muted: number | null; until: number | null }>();
  return {
    words: parseStoredWords(row?.words ?? null),
    mutedUntil: row?.muted && muteHolds(row.until, nowMs) ? row.until : undefined,
  };
}

/** The stored JSON array of words; null for NULL or anything malformed (the default then applies). */
export function parseStoredWords(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((w): w is string => typeof w === "string") : null;
  } catch {
    return null;
  }
}

/**
 * Adds comments a room stored before the index existed (room.ts ensureIndexed): rows already there
 * are kept, nothing is counted for 概览 (those comments were not posted today). In batches.
 */
export async function indexComments(given: D1Database, room: string, posts: ReadonlyArray<{ author: string; comment: DanmakuComment }>): Promise<void> {
  const db = guardedObjectD1(given);
  const place = parseRoomKey(room);
  if (!place) return;
  const statements = posts.map(({ author, comment }) =>
    db
      .prepare("INSERT OR IGNORE INTO danmaku_posts (room, comment_id, video_id, episode, user_id, text, time, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(room, comment.id, place.videoId, place.episode, author, comment.text, comment.time, comment.created),
  );
  for (let i = 0; i < statements.length; i += 100) await db.batch(statements.slice(i, i + 100));
}

/**
 * Indexes stored comments of one room for 弹幕管理 (and drops the rows of the comments the room
 * pruned), and raises the 概览's daily count: one D1 batch, whatever their number — the room's
 * group commit (room.ts `indexPost`) hands it every post that arrived while the previous batch was
 * being written. A failure is logged, never the posts': the comments are out already; they are
 * then missing from 弹幕管理's list (the room still holds them).
 */
export async function recordPosts(given: D1Database, room: string, posts: ReadonlyArray<{ author: string; comment: DanmakuComment }>): Promise<void> {
  const db = guardedObjectD1(given);
  const place = parseRoomKey(room);
  if (!place || posts.length === 0) return;
  const statements = posts.map(({ author, comment }) =>
    db
      .prepare("INSERT OR REPLACE INTO danmaku_posts (room, comment_id, video_id, episode, user_id, text, time, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(room, comment.id, place.videoId, place.episode, author, comment.text, comment.time, comment.created),
  );
  const days = new Map<string, { at: number; posts: number }>();
  for (const { comment } of posts) {
    const day = utcDay(comment.created);
    const seen = days.get(day);
    days.set(day, { at: comment.created, posts: (seen?.posts ?? 0) + 1 });
  }
  for (const { at, posts: n } of days.values()) statements.push(countStatement(db, at, n));
  const pruned = Math.max(...posts.map((p) => p.comment.id)) - MAX_COMMENTS_PER_ROOM;
  if (pruned > 0) statements.push(db.prepare("DELETE FROM danmaku_posts WHERE room = ? AND comment_id <= ?").bind(room, pruned));
  try {
    await db.batch(statements);
  } catch (error) {
    console.error("danmaku: the post could not be indexed for 弹幕管理", error);
  }
}
