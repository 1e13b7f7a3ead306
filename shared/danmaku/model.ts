/**
 * 弹幕 (bullet comments): the comment shape, the checks every posted comment passes (text,
 * time, mode, colour, blocked words), the per-user rate limit and the DPlayer v3 mapping. Pure
 * logic shared by the room (worker/danmaku/room.ts) and the player overlay (shared/player/danmaku/).
 */
import { fold, type CharMap } from "../search/normalise";

/** How a comment is shown: scrolling right to left, fixed at the top, fixed at the bottom. */
export const DANMAKU_MODES = ["scroll", "top", "bottom"] as const;
export type DanmakuMode = (typeof DANMAKU_MODES)[number];

/**
 * The colours the site's own picker offers (lower-case #rrggbb); white is the default. A comment
 * may carry any colour (DPlayer offers others): see {@link normaliseColor}.
 */
export const DANMAKU_COLORS = ["#ffffff", "#fe0302", "#ff7204", "#ffd302", "#00cd00", "#00a0ff", "#4266be", "#cc0273"] as const;
export type DanmakuColor = (typeof DANMAKU_COLORS)[number];
/** A comment's colour: lower-case "#rrggbb", any of the 16,777,216. */
export type HexColor = `#${string}`;

/** Longest comment text, in characters (code points) after trimming. */
export const MAX_TEXT_CHARS = 100;
/** Latest time in the video a comment may be placed at (s): longer than any title. */
export const MAX_VIDEO_TIME = 24 * 3600;
/** Largest JSON body or WebSocket message a client may send (bytes). */
export const MAX_MESSAGE_BYTES = 2048;
/** Comments kept per room; the oldest go first. */
export const MAX_COMMENTS_PER_ROOM = 3000;

/** A stored comment as the API and the WebSocket send it. */
export interface DanmakuComment {
  /** Increasing per room: a reconnecting client asks for everything after the last id it saw. */
  id: number;
  /** Seconds into the video, 0.1 precision. */
  time: number;
  text: string;
  mode: DanmakuMode;
  color: HexColor;
  /**
   * Who wrote it, as an opaque value of this room: the same account has the same value in one
   * room and unrelated values in others; never the account id or the e-mail
   * (worker/danmaku/author.ts). The sample comments' value is "sample".
   */
  author: string;
  /** Server time of the post, ms since the epoch. */
  created: number;
}

/** What a viewer sends; checked by {@link checkDraft}. */
export interface DanmakuDraft {
  time: number;
  text: string;
  mode: DanmakuMode;
  color: HexColor;
}

export const DANMAKU_MESSAGES = {
  notSignedIn: "请先登录后再发送弹幕",
  sessionEnded: "登录已失效，请重新登录后再发送弹幕",
  empty: "弹幕内容不能为空",
  tooLong: `弹幕不能超过 ${MAX_TEXT_CHARS} 个字`,
  control: "弹幕包含不允许的字符",
  badTime: "弹幕时间无效",
  badMode: "弹幕位置无效",
  badColor: "弹幕颜色无效",
  blocked: "内容包含屏蔽词",
  tooFast: "发送太频繁，请稍后再试",
  tooLarge: "请求过大",
  badRequest: "请求格式有误",
  foreign: "禁止跨站请求",
  unknownVideo: "视频不存在",
  unavailable: "弹幕服务暂时不可用，请稍后再试",
  /** The generic wording; a refusal names until when (shared/danmaku/moderation.ts muteMessage). */
  muted: "你已被禁言",
} as const;

export type DanmakuErrorCode = keyof typeof DANMAKU_MESSAGES;

export type DraftCheck = { ok: true; draft: DanmakuDraft } | { ok: false; code: DanmakuErrorCode };

// C0/C1 controls, line and paragraph separators and the bidirectional overrides (text spoofing).
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The number of characters (code points) of a string. */
export function charCount(text: string): number {
  return Array.from(text).length;
}

/** Rounds a time to 0.1 s. */
export function roundTime(time: number): number {
  return Math.round(time * 10) / 10;
}

/**
 * Checks what a client sent (any JSON) and returns the normalised draft: text trimmed and without
 * invisible characters ({@link visibleText}; 1–100 characters, no control characters), time
 * rounded to 0.1 s within [0, 24 h], a known mode, a colour ({@link normaliseColor}), and none of `blockedWords` ({@link
 * containsBlockedWord}; `map` is the traditional→simplified table where the caller has it).
 */
export function checkDraft(input: unknown, blockedWords: readonly string[] = [], map?: CharMap): DraftCheck {
  if (typeof input !== "object" || input === null) return { ok: false, code: "badRequest" };
  const raw = input as Record<string, unknown>;
  if (typeof raw.text !== "string") return { ok: false, code: "empty" };
  const trimmed = raw.text.trim();
  if (trimmed.length === 0) return { ok: false, code: "empty" };
  // Controls and bidi overrides are refused as sent, before the invisible characters go.
  if (FORBIDDEN.test(trimmed)) return { ok: false, code: "control" };
  const text = visibleText(trimmed);
  if (text.length === 0) return { ok: false, code: "empty" };
  if (charCount(text) > MAX_TEXT_CHARS) return { ok: false, code: "tooLong" };
  const time = typeof raw.time === "string" && raw.time.trim() !== "" ? Number(raw.time) : raw.time;
  if (typeof time !== "number" || !Number.isFinite(time) || time < 0 || time > MAX_VIDEO_TIME) return { ok: false, code: "badTime" };
  const mode = raw.mode ?? "scroll";
  if (typeof mode !== "string" || !(DANMAKU_MODES as readonly string[]).includes(mode)) return { ok: false, code: "badMode" };
  const color = normaliseColor(raw.color ?? DANMAKU_COLORS[0]);
  if (!color) return { ok: false, code: "badColor" };
  if (containsBlockedWord(text, blockedWords, map)) return { ok: false, code: "blocked" };
  return { ok: true, draft: { text, time: roundTime(time), mode: mode as DanmakuMode, color } };
}

/**
 * A comment's colour, lower-case "#rrggbb", from a 0xRRGGBB integer (DPlayer sends every colour it
 * offers so) or a "#RRGGBB" string in any case (MacCMS, the site's own picker); null for anything
 * else. Any colour is accepted, not only the picker's (decisions/0042-danmaku-any-colour.md).
 */
export function normaliseColor(value: unknown): HexColor | null {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffff) return `#${value.toString(16).padStart(6, "0")}`;
  if (typeof value === "string" && /^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase() as HexColor;
  return null;
}

/** Relative luminance (WCAG 2) below which a colour counts as dark: under 3:1 contrast against black. */
export const DARK_LUMINANCE = 0.1;

/** WCAG 2 relative luminance of a "#rrggbb" colour, 0 (black) to 1 (white). */
export function relativeLuminance(color: HexColor): number {
  const channel = (at: number) => {
    const c = Number.parseInt(color.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * Whether a comment's colour is too dark to read inside the overlay's black outline: such a
 * comment keeps its colour and is drawn with a light outline instead (decisions/0042-danmaku-any-colour.md).
 */
export function isDarkColor(color: HexColor): boolean {
  return relativeLuminance(color) < DARK_LUMINANCE;
}

/**
 * Characters that show nothing: Unicode's default-ignorable code points (zero-width space and
 * joiners, soft hyphen, word joiner, variation selectors, combining grapheme joiner, Hangul
 * fillers, tag characters …) and every other format character (general category Cf).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
/**
 * What stays of them: the joiner inside an emoji ZWJ sequence (between two pictographs, after an
 * optional VS16 or skin tone) and an emoji's presentation selector (captured with their emoji).
 */
const KEPT_OR_INVISIBLE =
  /(\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?\u200D(?=\p{Extended_Pictographic})|\p{Emoji}(?:\uFE0E|\uFE0F))|[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * The text as stored: invisible characters dropped (they can hide text from readers and from
 * the blocked words), except the joiners and presentation selectors inside emoji sequences
 * (👨‍👩‍👧, ❤️), which carry no text; then trimmed again.
 */
export function visibleText(text: string): string {
  return text.replace(KEPT_OR_INVISIBLE, (_match, kept: string | undefined) => kept ?? "").trim();
}

/**
 * Text folded for word matching: invisible characters dropped, then the search's folding
 * (shared/search/normalise.ts `fold`: NFKC — full-width → half-width —, lower case, only letters
 * and digits, and the traditional→simplified `map` when given).
 */
export function foldForMatching(text: string, map?: CharMap): string {
  return fold(text.replace(INVISIBLE, ""), map);
}

/** Folding for a word of only symbols or punctuation (`😡`, `???`), which the search folding empties: NFKC, lower case, no white space. */
function foldSymbols(text: string): string {
  return text.replace(INVISIBLE, "").normalize("NFKC").toLowerCase().replace(/\s+/gu, "");
}

/**
 * Whether the text contains one of the words, both folded by {@link foldForMatching} (so
 * invisible characters, punctuation, width, case and — with `map` — traditional characters make
 * no difference); a word of only symbols is matched as symbols; blank words are ignored.
 */
export function containsBlockedWord(text: string, words: readonly string[], map?: CharMap): boolean {
  const folded = foldForMatching(text, map);
  let symbols: string | undefined;
  return words.some((word) => {
    const w = foldForMatching(word, map);
    if (w.length > 0) return folded.includes(w);
    const s = foldSymbols(word);
    return s.length > 0 && (symbols ??= foldSymbols(text)).includes(s);
  });
}

/** A configured word list: one word per line or comma-separated (, or ，). */
export function parseWordList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[\n,，]/u)
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
}

/** The per-user limit: at least this long between two comments (ms)… */
export const MIN_GAP_MS = 2000;
/** …and at most WINDOW_MAX comments in WINDOW_MS. */
export const WINDOW_MS = 10 * 60 * 1000;
export const WINDOW_MAX = 30;

/**
 * Whether a user who posted at `recent` (ms, any order) may post at `now`; `retryAfterMs` says
 * how long to wait otherwise.
 */
export function rateCheck(recent: readonly number[], now: number): { ok: true } | { ok: false; retryAfterMs: number } {
  const inWindow = recent.filter((t) => t > now - WINDOW_MS).sort((a, b) => a - b);
  const last = inWindow.at(-1);
  if (last !== undefined && now - last < MIN_GAP_MS) return { ok: false, retryAfterMs: MIN_GAP_MS - (now - last) };
  if (inWindow.length >= WINDOW_MAX) return { ok: false, retryAfterMs: inWindow[inWindow.length - WINDOW_MAX] + WINDOW_MS - now };
  return { ok: true };
}

/** DPlayer's type numbers: 0 scroll, 1 top, 2 bottom. */
export const DPLAYER_TYPES: Readonly<Record<DanmakuMode, number>> = { scroll: 0, top: 1, bottom: 2 };

export function modeOfDplayerType(type: unknown): DanmakuMode | null {
  const n = typeof type === "string" && /^\d$/.test(type) ? Number(type) : type;
  const found = DANMAKU_MODES.find((mode) => DPLAYER_TYPES[mode] === n);
  return found ?? null;
}

/** One comment as DPlayer v3 reads it: [time, type, colour 0xRRGGBB, author, text]. */
export type DplayerItem = [number, number, number, string, string];

export function toDplayerItem(c: DanmakuComment): DplayerItem {
  return [c.time, DPLAYER_TYPES[c.mode], Number.parseInt(c.color.slice(1), 16), c.author, c.text];
}

// The room keys live in ./room-key.ts (the episode list needs them without the rest of this module).
export { EPISODE_SEPARATOR, MAX_EPISODE, parseRoomKey, roomKey, type RoomPlace } from "./room-key";

/** Messages the room sends over its WebSocket. */
export type ServerMessage =
  | { type: "hello"; canPost: boolean; last: number }
  | { type: "backlog"; comments: DanmakuComment[] }
  | { type: "comment"; comment: DanmakuComment }
  /** Several live comments at once, in id order: what a room's socket shard sends when a tick brought more than one (docs/decisions/0065-danmaku-shards.md). */
  | { type: "comments"; comments: DanmakuComment[] }
  | { type: "ack"; nonce: string; comment: DanmakuComment }
  /** Comments a moderator deleted (弹幕管理): gone from every screen and from the history. */
  | { type: "delete"; ids: number[] }
  | { type: "error"; nonce?: string; code: DanmakuErrorCode; message: string };

/** Messages a client sends: a comment to post (`nonce` comes back in the ack or error). */
export interface PostMessage extends Partial<DanmakuDraft> {
  type: "post";
  nonce: string;
}
