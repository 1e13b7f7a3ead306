/**
 * 弹幕管理's reads and writes, one function each for the JSON API and the pages alike (both roles:
 * moderation): the comments of every room (the D1 index the rooms write, migrations/0014), delete
 * one or a selection (the room drops them and tells every open socket: worker/danmaku/room.ts
 * remove), the blocked words saved on the web, and muting users. Every write leaves an audit row
 * (before → after) in the D1 batch of the change (docs/decisions/0076-danmaku-moderation.md).
 */
import { normaliseEmail, UNKNOWN_EMAIL_MESSAGE } from "../../shared/admin/account-roles";
import {
  beijingMinute,
  commentRefText,
  DANMAKU_PAGE,
  MAX_DELETE,
  MAX_WORD_CHARS,
  MAX_WORDS,
  muteHolds,
  muteUntil,
  type CommentRef,
  type DanmakuListQuery,
} from "../../shared/danmaku/moderation";
import { charCount, parseWordList } from "../../shared/danmaku/model";
import { forgetCachedJson } from "../edge-answers";
import { defaultBlockedWords, parseStoredWords } from "../danmaku/policy";
import type { AdminVisitor } from "./access";
import type { Refusal, Result } from "./actions";
import { auditStatement, prepared, type AuditEntry } from "./audit";
import { moderationFilter, whereOf, type FilterColumns } from "./moderation-filter";
import { ACCOUNT_ID, emailsOf, findPoster, type Poster } from "./posters";

const refusal = (status: Refusal["status"], code: string, message: string): Refusal => ({ ok: false, status, code, message });

export const DANMAKU_ADMIN_MESSAGES = {
  nothingSelected: "请先选择要删除的弹幕",
  tooMany: `一次最多删除 ${MAX_DELETE} 条弹幕`,
  userRequired: "请输入用户的邮箱或账号 ID",
  unknownUser: "没有找到这个账号",
  badDuration: "禁言时长只能是 1 天、7 天、30 天或永久",
  notMuted: "该用户未被禁言",
  version: "缺少屏蔽词版本，请刷新页面后重试",
  wordsChanged: "屏蔽词已被其他人修改，请刷新页面后重新填写",
  tooManyWords: `屏蔽词最多 ${MAX_WORDS} 个`,
  wordTooLong: (word: string) => `屏蔽词“${word.slice(0, MAX_WORD_CHARS)}…”超过 ${MAX_WORD_CHARS} 个字`,
} as const;

// ---- the list ---------------------------------------------------------------------------------

/** One comment as the list shows it. */
export interface DanmakuItem {
  seq: number;
  room: string;
  commentId: number;
  videoId: string;
  /** The title's name (its id when the title is gone). */
  title: string;
  episode: number;
  user: Poster;
  text: string;
  /** Seconds into the video. */
  time: number;
  created: number;
  /** The poster's mute while it holds: until (ms), null for good; undefined: not muted. */
  mutedUntil: number | null | undefined;
}

export interface DanmakuList {
  query: DanmakuListQuery;
  items: DanmakuItem[];
  /** The cursor of the next (older) page, or null. */
  next: number | null;
  /** Why nothing can match (an unknown user), shown above the list. */
  problem?: string;
}

interface PostRow {
  seq: number;
  room: string;
  comment_id: number;
  video_id: string;
  episode: number;
  user_id: string;
  text: string;
  time: number;
  created: number;
  title: string | null;
  muted: number | null;
  until: number | null;
}

const DANMAKU_COLUMNS: FilterColumns = { title: "p.video_id", episode: "p.episode", user: "p.user_id", text: "p.text", created: "p.created", cursor: "p.seq" };

/** The newest comments first (DANMAKU_PAGE a page), filtered by title, episode, user, text and day. */
export async function listDanmaku(env: Env, query: DanmakuListQuery, nowMs = Date.now()): Promise<DanmakuList> {
  const filter = await moderationFilter(env, query, DANMAKU_COLUMNS, DANMAKU_ADMIN_MESSAGES.unknownUser);
  if ("problem" in filter) return { query, items: [], next: null, problem: filter.problem };
  const sql =
    "SELECT p.seq, p.room, p.comment_id, p.video_id, p.episode, p.user_id, p.text, p.time, p.created, t.title, " +
    "(m.user_id IS NOT NULL) AS muted, m.until FROM danmaku_posts p " +
    "LEFT JOIN catalogue_titles t ON t.id = p.video_id LEFT JOIN danmaku_mutes m ON m.user_id = p.user_id" +
    whereOf(filter.where) +
    " ORDER BY p.seq DESC LIMIT ?";
  const { results } = await env.DB.prepare(sql)
    .bind(...filter.params, DANMAKU_PAGE + 1)
    .all<PostRow>();
  const rows = results.slice(0, DANMAKU_PAGE);
  const emails = await emailsOf(
    env,
    rows.map((r) => r.user_id),
  );
  return {
    query,
    items: rows.map((r) => ({
      seq: r.seq,
      room: r.room,
      commentId: r.comment_id,
      videoId: r.video_id,
      title: r.title ?? r.video_id,
      episode: r.episode,
      user: { id: r.user_id, email: emails.get(r.user_id) ?? null },
      text: r.text,
      time: r.time,
      created: r.created,
      mutedUntil: r.muted && muteHolds(r.until, nowMs) ? r.until : undefined,
    })),
    next: results.length > DANMAKU_PAGE ? (rows.at(-1)?.seq ?? null) : null,
  };
}

// ---- delete -----------------------------------------------------------------------------------

const auditOf = (actor: AdminVisitor, action: string, target: string, before: unknown, after: unknown): AuditEntry => ({
  actorId: actor.userId,
  actorEmail: actor.email,
  action,
  target,
  before,
  after,
});

/** The answers a room's deleted comments may still sit in, at this location's edge (other locations' expire within seconds). */
function readUrls(origin: string, room: string): URL[] {
  const id = encodeURIComponent(room);
  return [new URL(`/api/danmaku/v3/?id=${id}`, origin), new URL(`/api/danmaku/v3?id=${id}`, origin), new URL(`/api/danmaku/${id}`, origin)];
}

/**
 * Deletes comments: each room drops its own (and tells every open socket), then the index rows go
 * with one audit row per comment in one D1 batch. A comment no longer there (deleted meanwhile,
 * or pruned) is counted as missing.
 */
export async function deleteDanmaku(
  env: Env,
  actor: AdminVisitor,
  refs: readonly CommentRef[],
  /** The request, whose origin's cached reads are dropped (edge-answers.ts forgetCachedJson). */
  c?: Parameters<typeof forgetCachedJson>[0],
): Promise<Result<{ deleted: number; missing: number }>> {
  if (refs.length === 0) return refusal(400, "nothing_selected", DANMAKU_ADMIN_MESSAGES.nothingSelected);
  if (refs.length > MAX_DELETE) return refusal(400, "too_many", DANMAKU_ADMIN_MESSAGES.tooMany);
  const byRoom = new Map<string, number[]>();
  for (const ref of refs) byRoom.set(ref.room, [...(byRoom.get(ref.room) ?? []), ref.id]);
  const nowMs = Date.now();
  const statements: D1PreparedStatement[] = [];
  let deleted = 0;
  for (const [room, ids] of byRoom) {
    const indexed = await env.DB.prepare(
      "SELECT comment_id, user_id, text, time, created FROM danmaku_posts WHERE room = ? AND comment_id IN (SELECT value FROM json_each(?))",
    )
      .bind(room, JSON.stringify(ids))
      .all<{ comment_id: number; user_id: string; text: string; time: number; created: number }>();
    const removed = await env.DANMAKU.get(env.DANMAKU.idFromName(room)).remove(ids);
    const found = new Map(indexed.results.map((r) => [r.comment_id, { user: r.user_id, text: r.text, time: r.time, created: r.created }]));
    for (const r of removed) found.set(r.id, { user: r.author, text: r.text, time: r.time, created: r.created });
    statements.push(
      env.DB.prepare("DELETE FROM danmaku_posts WHERE room = ? AND comment_id IN (SELECT value FROM json_each(?))").bind(room, JSON.stringify(ids)),
    );
    for (const [id, before] of found) {
      statements.push(
        prepared(env.DB, auditStatement(auditOf(actor, "danmaku.delete", `弹幕 ${commentRefText({ room, id })}`, { room, id, ...before }, null), nowMs)),
      );
    }
    deleted += found.size;
    if (c) for (const url of readUrls(new URL(c.req.url).origin, room)) await forgetCachedJson(c, url);
  }
  await env.DB.batch(statements);
  return { ok: true, value: { deleted, missing: refs.length - deleted } };
}

// ---- blocked words ----------------------------------------------------------------------------

export interface WordsView {
  version: number;
  /** The words that apply now. */
  words: string[];
  /** Whether they were saved here (false: the default list). */
  saved: boolean;
  /** The default list (built in plus DANMAKU_BLOCKED_WORDS). */
  defaults: string[];
  updatedAt: number;
}

export async function wordsView(env: Env): Promise<WordsView> {
  const row = await env.DB.prepare("SELECT words, version, updated_at FROM danmaku_words WHERE id = 1").first<{
    words: string | null;
    version: number;
    updated_at: number;
  }>();
  const saved = parseStoredWords(row?.words ?? null);
  const defaults = defaultBlockedWords(env);
  return { version: row?.version ?? 0, words: saved ?? defaults, saved: saved !== null, defaults, updatedAt: row?.updated_at ?? 0 };
}

/** The words of a text (one a line, or separated by commas), without repeats; or the first problem. */
export function wordsOf(input: unknown): { ok: true; words: string[] } | { ok: false; message: string } {
  const text = Array.isArray(input) ? input.filter((w): w is string => typeof w === "string").join("\n") : typeof input === "string" ? input : "";
  const words = [...new Set(parseWordList(text.replace(/\r\n?/g, "\n")))];
  if (words.length > MAX_WORDS) return { ok: false, message: DANMAKU_ADMIN_MESSAGES.tooManyWords };
  const long = words.find((w) => charCount(w) > MAX_WORD_CHARS);
  return long ? { ok: false, message: DANMAKU_ADMIN_MESSAGES.wordTooLong(long) } : { ok: true, words };
}

/**
 * Saves the blocked words (`words`: a text, one a line, or an array; empty: back to the default
 * list), over the version the form was read at. Every room reads them at its next post (policy.ts).
 */
export async function saveWords(env: Env, actor: AdminVisitor, input: Record<string, unknown>): Promise<Result<WordsView>> {
  const version =
    typeof input.version === "number" ? input.version : typeof input.version === "string" && /^\d+$/.test(input.version) ? Number(input.version) : NaN;
  if (!Number.isInteger(version)) return refusal(400, "version_required", DANMAKU_ADMIN_MESSAGES.version);
  const parsed = wordsOf(input.words);
  if (!parsed.ok) return refusal(400, "bad_words", parsed.message);
  const now = await wordsView(env);
  if (now.version !== version) return refusal(409, "words_changed", DANMAKU_ADMIN_MESSAGES.wordsChanged);
  const stored = parsed.words.length > 0 ? parsed.words : null;
  const before = now.saved ? now.words : null;
  if (JSON.stringify(before) === JSON.stringify(stored)) return { ok: true, value: now };
  const nowMs = Date.now();
  const audit = auditStatement(auditOf(actor, "danmaku.words", "弹幕屏蔽词", { words: before ?? "默认" }, { words: stored ?? "默认" }), nowMs);
  const [updated] = await env.DB.batch([
    env.DB.prepare("UPDATE danmaku_words SET words = ?, version = version + 1, updated_at = ? WHERE id = 1 AND version = ?").bind(
      stored ? JSON.stringify(stored) : null,
      nowMs,
      version,
    ),
    // The audit row only when the update above changed the row (the same transaction).
    prepared(env.DB, { sql: audit.sql.replace(" VALUES (?, ?, ?, ?, ?, ?, ?)", " SELECT ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1"), params: audit.params }),
  ]);
  if (updated.meta.changes !== 1) return refusal(409, "words_changed", DANMAKU_ADMIN_MESSAGES.wordsChanged);
  return { ok: true, value: await wordsView(env) };
}

// ---- mutes ------------------------------------------------------------------------------------

export interface Mute {
  user: Poster;
  /** Until (ms), null for good. */
  until: number | null;
  mutedAt: number;
  mutedBy: string;
}

interface MuteRow {
  user_id: string;
  email: string | null;
  until: number | null;
  muted_at: number;
  muted_by: string;
}

const muteOfRow = (r: MuteRow): Mute => ({ user: { id: r.user_id, email: r.email }, until: r.until, mutedAt: r.muted_at, mutedBy: r.muted_by });

/** The mutes that hold now, the latest first. */
export async function listMutes(env: Env, nowMs = Date.now()): Promise<Mute[]> {
  const { results } = await env.DB.prepare("SELECT * FROM danmaku_mutes WHERE until IS NULL OR until > ? ORDER BY muted_at DESC LIMIT 500")
    .bind(nowMs)
    .all<MuteRow>();
  return results.map(muteOfRow);
}

/** `userId`'s mute while it holds (用户管理's account page), or null. */
export async function muteOf(env: Env, userId: string, nowMs = Date.now()): Promise<Mute | null> {
  const row = await env.DB.prepare("SELECT * FROM danmaku_mutes WHERE user_id = ?").bind(userId).first<MuteRow>();
  return row && muteHolds(row.until, nowMs) ? muteOfRow(row) : null;
}

/** How a mute's end reads in the 操作日志 and on the screens. */
export const untilText = (until: number | null): string => (until === null ? "永久" : beijingMinute(until));

async function posterOf(env: Env, input: string): Promise<Poster | Refusal> {
  if (!input.trim()) return refusal(400, "user_required", DANMAKU_ADMIN_MESSAGES.userRequired);
  const poster = await findPoster(env, input);
  if (poster === "unavailable") return refusal(503, "service_key_missing", "未配置 SUPABASE_SERVICE_ROLE_KEY，无法按邮箱查找账号，请改用账号 ID");
  return poster ?? refusal(404, "unknown_account", input.includes("@") ? UNKNOWN_EMAIL_MESSAGE(normaliseEmail(input)) : DANMAKU_ADMIN_MESSAGES.unknownUser);
}

/** Mutes a user (an e-mail or an account id) for `duration` (MUTE_CHOICES: "1", "7", "30" days or "forever"), replacing a mute they had. */
export async function muteUser(env: Env, actor: AdminVisitor, userInput: string, duration: unknown): Promise<Result<Mute>> {
  const nowMs = Date.now();
  const until = muteUntil(duration, nowMs);
  if (until === undefined) return refusal(400, "bad_duration", DANMAKU_ADMIN_MESSAGES.badDuration);
  const poster = await posterOf(env, userInput);
  if ("ok" in poster) return poster;
  const before = await muteOf(env, poster.id, nowMs);
  const target = poster.email ?? poster.id;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO danmaku_mutes (user_id, email, until, muted_at, muted_by) VALUES (?, ?, ?, ?, ?) " +
        "ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, until = excluded.until, muted_at = excluded.muted_at, muted_by = excluded.muted_by",
    ).bind(poster.id, poster.email, until, nowMs, actor.email),
    prepared(
      env.DB,
      auditStatement(auditOf(actor, "danmaku.mute", target, { mutedUntil: before ? untilText(before.until) : null }, { mutedUntil: untilText(until) }), nowMs),
    ),
  ]);
  return { ok: true, value: { user: poster, until, mutedAt: nowMs, mutedBy: actor.email } };
}

/** Lifts a user's mute (an e-mail or an account id); 404 `not_muted` when none holds. */
export async function unmuteUser(env: Env, actor: AdminVisitor, userInput: string): Promise<Result<{ user: Poster }>> {
  const nowMs = Date.now();
  const text = userInput.trim();
  // A muted account may be gone from the account service: its id still finds the mute.
  const row = ACCOUNT_ID.test(text) ? await muteOf(env, text.toLowerCase(), nowMs) : null;
  let mute = row;
  if (!mute) {
    const poster = await posterOf(env, text);
    if ("ok" in poster) return poster;
    mute = await muteOf(env, poster.id, nowMs);
  }
  if (!mute) return refusal(404, "not_muted", DANMAKU_ADMIN_MESSAGES.notMuted);
  await env.DB.batch([
    env.DB.prepare("DELETE FROM danmaku_mutes WHERE user_id = ?").bind(mute.user.id),
    prepared(
      env.DB,
      auditStatement(auditOf(actor, "danmaku.unmute", mute.user.email ?? mute.user.id, { mutedUntil: untilText(mute.until) }, { mutedUntil: null }), nowMs),
    ),
  ]);
  return { ok: true, value: { user: mute.user } };
}
