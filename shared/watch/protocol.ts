/**
 * 一起看 (watch together): the room's protocol and the rules both sides apply. Pure: the room
 * (worker/watch/room.ts) checks what members send with these functions, the browser
 * (shared/watch/) computes the room's position and its drift corrections with them.
 * docs/decisions/0100-watch-rooms.md.
 */
import { MAX_VIDEO_TIME, visibleText, type DanmakuErrorCode } from "../danmaku/model";

/** Most members one room holds at once. */
export const MAX_MEMBERS = 50;
/** How long a room stays after its last member left (ms); then it closes for good. */
export const CLOSE_AFTER_MS = 30 * 60 * 1000;
/** Longest nickname, in characters (code points). */
export const MAX_NICKNAME_CHARS = 16;
/** Chat lines a room keeps for members who join later. */
export const CHAT_KEPT = 50;
/** Control messages one member may send in CONTROL_WINDOW_MS; more are refused. */
export const CONTROL_MAX = 20;
export const CONTROL_WINDOW_MS = 10_000;
/** Playback rates a room may be set to (the player's 倍速 menu). */
export const ROOM_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** A room code: 8 characters of an alphabet without look-alikes (the short link /w/{code}). */
export const ROOM_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
export const ROOM_CODE_LENGTH = 8;
const ROOM_CODE = new RegExp(`^[${ROOM_CODE_ALPHABET}]{${ROOM_CODE_LENGTH}}$`);

export function isRoomCode(value: unknown): value is string {
  return typeof value === "string" && ROOM_CODE.test(value);
}

/** A new room code from `random` bytes (one per character; the caller supplies crypto randomness). */
export function roomCodeFrom(random: Uint8Array): string {
  let code = "";
  for (let i = 0; i < ROOM_CODE_LENGTH; i++) code += ROOM_CODE_ALPHABET[random[i] % ROOM_CODE_ALPHABET.length];
  return code;
}

/** The short link of a room. */
export function roomPath(code: string): string {
  return `/w/${code}`;
}

/** What plays in the room. `updatedAt` is the server's clock (ms) when `position` was true. */
export interface RoomState {
  videoId: string;
  title: string;
  episode: number;
  episodeCount: number;
  /** Seconds into the episode at `updatedAt`. */
  position: number;
  playing: boolean;
  rate: number;
  updatedAt: number;
}

export interface RoomSettings {
  /** Only the host may play, pause, seek, change the rate or the episode. */
  hostOnly: boolean;
}

export interface Member {
  id: string;
  nickname: string;
  /** Signed in: may chat. */
  signedIn: boolean;
}

export interface ChatLine {
  id: number;
  /** The member's nickname when they wrote it. */
  nickname: string;
  text: string;
  /** Server time, ms. */
  at: number;
}

/** Where the room's video is at server time `serverNow` (ms). */
export function positionAt(state: Pick<RoomState, "position" | "playing" | "rate" | "updatedAt">, serverNow: number): number {
  if (!state.playing) return state.position;
  return state.position + (Math.max(0, serverNow - state.updatedAt) / 1000) * state.rate;
}

/** What a member asks the room to do. */
export type Control =
  | { type: "play"; position?: number }
  | { type: "pause"; position?: number }
  | { type: "seek"; position: number }
  | { type: "rate"; rate: number }
  | { type: "episode"; episode: number };

export const CONTROL_TYPES = ["play", "pause", "seek", "rate", "episode"] as const;

/** Messages a member sends. */
export type ClientMessage =
  | { type: "join"; nickname: string }
  | Control
  | { type: "chat"; text: string; nonce?: string }
  | { type: "settings"; hostOnly: boolean }
  | { type: "ping"; t: number };

export const WATCH_MESSAGES = {
  noNickname: "请输入昵称",
  nicknameTooLong: `昵称不能超过 ${MAX_NICKNAME_CHARS} 个字`,
  nicknameBad: "昵称包含不允许的字符",
  nicknameBlocked: "昵称包含屏蔽词",
  full: `房间已满（最多 ${MAX_MEMBERS} 人）`,
  closed: "房间不存在或已关闭",
  notJoined: "请先加入房间",
  hostOnly: "只有房主可以控制播放",
  notHost: "只有房主可以修改房间设置",
  badControl: "播放指令无效",
  badEpisode: "没有这一集",
  tooManyControls: "操作太频繁，请稍后再试",
  chatNotSignedIn: "请先登录后再发言",
  signInToCreate: "请先登录后再创建一起看房间",
} as const;

export type WatchErrorCode = keyof typeof WATCH_MESSAGES;

/** Messages the room sends. `now` is the server's clock (ms) when it was sent. */
export type ServerMessage =
  | {
      type: "welcome";
      you: string;
      host: string | null;
      members: Member[];
      state: RoomState;
      settings: RoomSettings;
      chat: ChatLine[];
      canChat: boolean;
      now: number;
    }
  | { type: "state"; state: RoomState; by: string | null; now: number }
  | { type: "members"; members: Member[]; host: string | null }
  | { type: "settings"; settings: RoomSettings }
  | { type: "chat"; line: ChatLine; nonce?: string }
  | { type: "pong"; t: number; now: number }
  | { type: "error"; code: WatchErrorCode | DanmakuErrorCode; message: string; nonce?: string };

export type NicknameCheck = { ok: true; nickname: string } | { ok: false; code: "noNickname" | "nicknameTooLong" | "nicknameBad" };

const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** A nickname as sent: trimmed, invisible characters dropped, 1–16 characters, no control characters. */
export function checkNickname(input: unknown): NicknameCheck {
  if (typeof input !== "string") return { ok: false, code: "noNickname" };
  const trimmed = input.trim();
  if (FORBIDDEN.test(trimmed)) return { ok: false, code: "nicknameBad" };
  const nickname = visibleText(trimmed);
  if (nickname.length === 0) return { ok: false, code: "noNickname" };
  if (Array.from(nickname).length > MAX_NICKNAME_CHARS) return { ok: false, code: "nicknameTooLong" };
  return { ok: true, nickname };
}

const isPosition = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= MAX_VIDEO_TIME;

/** A control message as sent (any JSON): the checked control, or null when malformed. Episodes are checked against the title by the room. */
export function parseControl(input: unknown): Control | null {
  if (typeof input !== "object" || input === null) return null;
  const m = input as Record<string, unknown>;
  switch (m.type) {
    case "play":
    case "pause":
      if (m.position === undefined) return { type: m.type };
      return isPosition(m.position) ? { type: m.type, position: m.position } : null;
    case "seek":
      return isPosition(m.position) ? { type: "seek", position: m.position } : null;
    case "rate":
      return typeof m.rate === "number" && (ROOM_RATES as readonly number[]).includes(m.rate) ? { type: "rate", rate: m.rate } : null;
    case "episode":
      return typeof m.episode === "number" && Number.isInteger(m.episode) && m.episode >= 1 ? { type: "episode", episode: m.episode } : null;
    default:
      return null;
  }
}

/** The state after `control` at server time `now` (the episode already checked). */
export function applyControl(state: RoomState, control: Control, now: number): RoomState {
  const here = positionAt(state, now);
  switch (control.type) {
    case "play":
      return { ...state, position: control.position ?? here, playing: true, updatedAt: now };
    case "pause":
      return { ...state, position: control.position ?? here, playing: false, updatedAt: now };
    case "seek":
      return { ...state, position: control.position, updatedAt: now };
    case "rate":
      return { ...state, position: here, rate: control.rate, updatedAt: now };
    case "episode":
      return { ...state, episode: control.episode, position: 0, updatedAt: now };
  }
}

/** Who is host after `leaving` left: the member who joined first among those still there (`members` in join order); null when none. */
export function nextHost(host: string | null, leaving: string, members: readonly string[]): string | null {
  const rest = members.filter((m) => m !== leaving);
  if (host !== null && host !== leaving && rest.includes(host)) return host;
  return rest[0] ?? null;
}

/** Drift (s, local minus room) under which a member is left alone. */
export const DRIFT_TOLERANCE = 0.12;
/**
 * Drift (s) a rate correction under way closes to before it stops: stopping at DRIFT_TOLERANCE left
 * each member at the edge it came from, two members 0.2 s apart for good (the bench's median).
 */
export const DRIFT_SETTLED = 0.03;
/** Drift above which a member seeks instead of changing its rate for a while. */
export const DRIFT_SEEK = 1.5;
/**
 * The most a correction changes the rate (fraction of the room's rate): a gap of a second (a seek
 * that landed a little off) closes in about four seconds, not ten (the bench saw members a second
 * behind for ten seconds after a seek). Jellyfin's SyncPlay speeds up harder still, for a second.
 */
export const MAX_RATE_NUDGE = 0.25;
/** Seconds a rate correction aims to take to close the gap. */
export const CORRECTION_SECONDS = 3;

export type Correction = { kind: "none"; rate: number } | { kind: "rate"; rate: number } | { kind: "seek"; to: number; rate: number };

/**
 * How a member gets back in step with the room: nothing within DRIFT_TOLERANCE (within
 * DRIFT_SETTLED while a rate correction is under way: `correcting`); a short rate change (at most
 * ±MAX_RATE_NUDGE of the room's rate, closing the gap in about CORRECTION_SECONDS) up to
 * DRIFT_SEEK; a seek to the room's position beyond it.
 */
export function correctionFor(local: number, room: number, roomRate: number, correcting = false): Correction {
  const drift = local - room;
  if (Math.abs(drift) <= (correcting ? DRIFT_SETTLED : DRIFT_TOLERANCE)) return { kind: "none", rate: roomRate };
  if (Math.abs(drift) >= DRIFT_SEEK) return { kind: "seek", to: room, rate: roomRate };
  const nudge = Math.max(-MAX_RATE_NUDGE, Math.min(MAX_RATE_NUDGE, -drift / CORRECTION_SECONDS));
  const rate = Math.round(roomRate * (1 + nudge) * 1000) / 1000;
  // Never one of the rates a viewer picks (ROOM_RATES: 1 × 1.25, 1.25 × 0.8…): the sync takes a
  // ratechange to one of those that is not its own as the viewer's 倍速 and sends it to the room.
  const offRoomRates = (ROOM_RATES as readonly number[]).includes(rate) ? Math.round((rate - Math.sign(nudge) * 0.001) * 1000) / 1000 : rate;
  return { kind: "rate", rate: offRoomRates };
}

/** The furthest ahead of the room a seek aims (s): the most a member's seek is expected to take. */
export const MAX_SEEK_LEAD = 5;

/**
 * How long a member's seeks take to play again (s), from the last estimate and a seek just
 * measured: a smoothed figure, so one slow or fast seek does not swing it, within MAX_SEEK_LEAD.
 */
export function nextSeekLatency(previous: number, measured: number): number {
  const m = Math.min(MAX_SEEK_LEAD, Math.max(0, measured));
  return previous <= 0 ? m : Math.round(((previous + m) / 2) * 1000) / 1000;
}

/**
 * Where a member that must seek while the room plays aims: the room moves on while the member
 * fetches the new position, so a seek to the room's position itself lands behind it by the seek's
 * time — on a slow link by more than DRIFT_SEEK, and the member would seek again and again. Into
 * media it holds already (`buffered`) the seek is at once: the room's position; otherwise ahead
 * by the member's seek latency at the room's rate, never past the end.
 */
export function seekTarget(room: number, roomRate: number, latency: number, buffered: boolean, duration: number): number {
  const lead = buffered ? 0 : Math.min(MAX_SEEK_LEAD, Math.max(0, latency)) * roomRate;
  return Math.min(room + lead, Number.isFinite(duration) ? Math.max(0, duration - 0.5) : Infinity);
}

/**
 * The server's clock from the member's: `offset` (server minus local, ms) from a ping sent at
 * local `sent`, answered with the server's `now`, received at local `received` (the answer is
 * taken as half the round trip old).
 */
export function clockOffset(sent: number, now: number, received: number): { offset: number; rtt: number } {
  const rtt = Math.max(0, received - sent);
  return { offset: now - (sent + rtt / 2), rtt };
}
