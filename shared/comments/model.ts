/**
 * 评论区: the comment shape as the API and the page carry it, the checks a posted comment passes
 * (the 弹幕 rules, shared/danmaku/model.ts, with comments' own length), the nickname rules, the
 * 最热 order and the Chinese messages of every answer. Pure: the worker (worker/comments/), the
 * page's section (shared/components/comments/) and the 管理后台 share it
 * (docs/decisions/0110-comments.md).
 */
import { charCount, containsBlockedWord, visibleText } from "../danmaku/model";
import type { CharMap } from "../search/normalise";

/** Longest comment, in characters (code points) after trimming. */
export const MAX_COMMENT_CHARS = 1000;
/** Longest nickname, in characters. */
export const MAX_NICKNAME_CHARS = 20;
/** Top-level comments a page shows (the server renders the first page only). */
export const COMMENT_PAGE = 20;
/** Replies shown under a comment before 查看全部回复. */
export const REPLY_PREVIEW = 3;
/** Replies a page of one comment's replies holds. */
export const REPLY_PAGE = 20;
/** Entries a page of 回复我的 holds. */
export const INBOX_PAGE = 20;

/** The two orders of the list. */
export const COMMENT_SORTS = ["hot", "new"] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
export const SORT_NAMES: Readonly<Record<CommentSort, string>> = { hot: "最热", new: "最新" };

export const parseSort = (value: unknown): CommentSort => (value === "new" ? "new" : "hot");

/** What a removed comment that still has replies shows in its place. */
export const REMOVED_TEXT = "该评论已被删除";

export const COMMENT_MESSAGES = {
  notSignedIn: "请先登录后再发表评论",
  signInToLike: "请先登录后再点赞",
  signInToReport: "请先登录后再举报评论",
  empty: "评论内容不能为空",
  tooLong: `评论不能超过 ${MAX_COMMENT_CHARS} 个字`,
  control: "评论包含不允许的字符",
  blocked: "内容包含屏蔽词",
  tooFast: "发送太频繁，请稍后再试",
  tooLarge: "请求过大",
  badRequest: "请求格式有误",
  foreign: "禁止跨站请求",
  unknownVideo: "视频不存在",
  badEpisode: "集数无效",
  unknownComment: "这条评论不存在或已被删除",
  notYours: "只能删除自己的评论",
  unavailable: "评论服务暂时不可用，请稍后再试",
  muted: "你已被禁言",
  nicknameEmpty: "昵称不能为空",
  nicknameTooLong: `昵称不能超过 ${MAX_NICKNAME_CHARS} 个字`,
  nicknameControl: "昵称包含不允许的字符",
  nicknameBlocked: "昵称包含屏蔽词",
  failed: "发送失败，请检查网络后重试",
} as const;

export type CommentMessage = keyof typeof COMMENT_MESSAGES;

/** One reply as shown under its comment. */
export interface CommentReply {
  id: number;
  nickname: string;
  text: string;
  /** The nickname of the reply it answers (回复 @nickname); null when it answers the comment itself. */
  replyTo: string | null;
  likes: number;
  created: number;
  /** The episode it was written on; null when not named. */
  episode: number | null;
  /** Signed-in answers only: the viewer wrote it / liked it. */
  mine?: boolean;
  liked?: boolean;
}

/** One top-level comment with the first replies. */
export interface CommentItem extends CommentReply {
  /** Removed (by its author or a moderator) but kept for its replies: the text is REMOVED_TEXT. */
  removed: boolean;
  /** Live replies in all. */
  replyCount: number;
  /** The first REPLY_PREVIEW replies, oldest first. */
  replies: CommentReply[];
}

/** A page of the list. */
export interface CommentPage {
  titleId: string;
  sort: CommentSort;
  page: number;
  /** Live comments and replies of the title. */
  total: number;
  /** Whether another page follows. */
  more: boolean;
  items: CommentItem[];
}

/** A reply to one of the viewer's comments (回复我的). */
export interface InboxEntry {
  id: number;
  titleId: string;
  title: string;
  nickname: string;
  text: string;
  /** What it answered (the viewer's comment), shortened. */
  answered: string;
  created: number;
  unread: boolean;
}

const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

export type TextCheck = { ok: true; text: string } | { ok: false; code: CommentMessage };

/**
 * A comment's text as stored: trimmed, invisible characters dropped (shared/danmaku/model.ts
 * visibleText), 1–MAX_COMMENT_CHARS characters, no control characters but new lines (at most two
 * in a row kept), none of `blockedWords`.
 */
export function checkCommentText(input: unknown, blockedWords: readonly string[] = [], map?: CharMap): TextCheck {
  if (typeof input !== "string") return { ok: false, code: "empty" };
  const trimmed = input.replace(/\r\n?/g, "\n").trim();
  if (trimmed.length === 0) return { ok: false, code: "empty" };
  if (FORBIDDEN.test(trimmed.replace(/\n/g, ""))) return { ok: false, code: "control" };
  const text = trimmed
    .split("\n")
    .map((line) => visibleText(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (text.length === 0) return { ok: false, code: "empty" };
  if (charCount(text) > MAX_COMMENT_CHARS) return { ok: false, code: "tooLong" };
  if (containsBlockedWord(text, blockedWords, map)) return { ok: false, code: "blocked" };
  return { ok: true, text };
}

/** A nickname as stored: one line, 1–MAX_NICKNAME_CHARS characters, no blocked word. */
export function checkNickname(input: unknown, blockedWords: readonly string[] = [], map?: CharMap): TextCheck {
  if (typeof input !== "string") return { ok: false, code: "nicknameEmpty" };
  const trimmed = input.trim();
  if (FORBIDDEN.test(trimmed)) return { ok: false, code: "nicknameControl" };
  const text = visibleText(trimmed).replace(/\s+/gu, " ");
  if (text.length === 0) return { ok: false, code: "nicknameEmpty" };
  if (charCount(text) > MAX_NICKNAME_CHARS) return { ok: false, code: "nicknameTooLong" };
  if (containsBlockedWord(text, blockedWords, map)) return { ok: false, code: "nicknameBlocked" };
  return { ok: true, text };
}

/** A page number from a query (1 when missing or malformed; at most 500). */
export function parsePage(value: unknown): number {
  const text = typeof value === "string" ? value : "";
  return /^[1-9]\d{0,2}$/.test(text) ? Math.min(500, Number(text)) : 1;
}

/** An id from a path or body: a positive whole number, else null. */
export function parseCommentId(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  return /^[1-9]\d{0,14}$/.test(text) ? Number(text) : null;
}

/** The hour 最热 is computed at: pages read within one hour share one order (no comment moves between page 1 and page 2). */
export const HOT_EPOCH_MS = 3_600_000;

/**
 * 最热: likes and twice the replies, plus one, divided by the comment's age in hours plus two —
 * a comment keeps its place while it gathers likes, and a day-old one needs about 13 times the
 * likes of a new one. The same formula is the SQL of worker/comments/store.ts (HOT_SQL).
 */
export function hotScore(likes: number, replies: number, createdMs: number, nowMs: number): number {
  const hours = Math.max(0, nowMs - createdMs) / 3_600_000;
  return (likes + 2 * replies + 1) / (hours + 2);
}

/** The default nickname of an account that has not chosen one: 用户 and eight characters of a hash of its id (never the e-mail). */
export const defaultNicknameOf = (hashHex: string): string => `用户${hashHex.slice(0, 8)}`;
