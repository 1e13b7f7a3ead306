/**
 * 弹幕管理's pure rules (worker/admin/danmaku.ts, worker/danmaku/poster.ts): how long a mute
 * lasts, what a muted poster reads, how a comment is named in a form (`room:id`), and the list's
 * filters read from a query string.
 */
import { shanghaiTime } from "../catalogue/publication";
import { parseRoomKey } from "./model";

/** The mute lengths the screen offers: days, or "forever". */
export const MUTE_CHOICES = ["1", "7", "30", "forever"] as const;
export type MuteChoice = (typeof MUTE_CHOICES)[number];

export const MUTE_NAMES: Readonly<Record<MuteChoice, string>> = { "1": "1 天", "7": "7 天", "30": "30 天", forever: "永久" };

const DAY_MS = 86_400_000;

/** When a mute chosen at `nowMs` ends (epoch ms), null for good; undefined when `choice` is not one of MUTE_CHOICES. */
export function muteUntil(choice: unknown, nowMs: number): number | null | undefined {
  if (choice === "forever") return null;
  if (typeof choice !== "string" && typeof choice !== "number") return undefined;
  const days = String(choice);
  return (MUTE_CHOICES as readonly string[]).includes(days) ? nowMs + Number(days) * DAY_MS : undefined;
}

/** A time as 北京时间 reads it: "2026-12-04 15:30". */
export const beijingMinute = (ms: number): string => shanghaiTime(ms).slice(0, 16).replace("T", " ");

/** What a muted poster reads: until when (Asia/Shanghai), or that it is for good. */
export function muteMessage(until: number | null): string {
  return until === null ? "你已被永久禁言" : `你已被禁言至${beijingMinute(until)}（北京时间）`;
}

/** Whether a mute row (its `until`) holds at `nowMs`. */
export const muteHolds = (until: number | null, nowMs: number): boolean => until === null || until > nowMs;

/** A comment as a form names it: its room key and its id in the room. */
export interface CommentRef {
  room: string;
  id: number;
}

export const commentRefText = (ref: CommentRef): string => `${ref.room}:${ref.id}`;

/** `room:id` (a well-formed room key, a positive whole id), or null. */
export function parseCommentRef(value: unknown): CommentRef | null {
  if (typeof value !== "string") return null;
  const at = value.lastIndexOf(":");
  const room = value.slice(0, at);
  const id = value.slice(at + 1);
  if (at <= 0 || !/^[1-9]\d{0,14}$/.test(id) || !parseRoomKey(room)) return null;
  return { room, id: Number(id) };
}

/** Most comments one delete may name. */
export const MAX_DELETE = 200;

/** Comments a page of the list shows. */
export const DANMAKU_PAGE = 50;

/** The list's filters, as the form and the JSON API send them. */
export interface DanmakuListQuery {
  /** Part of a title's name, or its id (video_…). */
  title: string;
  /** An episode number, or "" for all. */
  episode: string;
  /** An e-mail or an account id. */
  user: string;
  /** Part of the comment's text. */
  text: string;
  /** Days (YYYY-MM-DD, Asia/Shanghai), inclusive. */
  from: string;
  to: string;
  /** Comments older than this (the list's cursor), or null for the newest. */
  before: number | null;
}

const field = (query: (name: string) => string | undefined, name: string, max: number) => (query(name) ?? "").trim().slice(0, max);

export function danmakuListQuery(query: (name: string) => string | undefined): DanmakuListQuery {
  const episode = field(query, "episode", 4);
  const day = (name: string) => {
    const text = field(query, name, 10);
    return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : "";
  };
  const before = field(query, "before", 15);
  return {
    title: field(query, "title", 100),
    episode: /^[1-9]\d{0,3}$/.test(episode) ? episode : "",
    user: field(query, "user", 320).toLowerCase(),
    text: field(query, "text", 100),
    from: day("from"),
    to: day("to"),
    before: /^[1-9]\d{0,14}$/.test(before) ? Number(before) : null,
  };
}

/** The blocked words as the screen's text area holds them: one a line. */
export const wordsText = (words: readonly string[]): string => words.join("\n");

/** Most blocked words, and longest word (characters). */
export const MAX_WORDS = 1000;
export const MAX_WORD_CHARS = 30;
