/**
 * DanmakuRoom: the Durable Object of one episode's 弹幕, named by its room key
 * (shared/danmaku/model.ts roomKey; the worker resolves keys in room-id.ts). SQLite storage
 * holds the comments (ids increase; at most MAX_COMMENTS_PER_ROOM, oldest out); a built-in
 * title's room starts with its sample comments. Each post passes the author's rate limit, kept
 * across all rooms by their DanmakuRateLimit object (rate-limit.ts). Viewers connect over the WebSocket
 * Hibernation API: the object keeps nothing in memory between events — who may post is in each
 * socket's attachment — so an idle room is evicted and costs nothing.
 */
import { DurableObject } from "cloudflare:workers";
import { sampleComments } from "../../shared/danmaku/samples";
import { toSimplified } from "../../shared/search/t2s";
import {
  checkDraft,
  DANMAKU_MESSAGES,
  MAX_COMMENTS_PER_ROOM,
  MAX_MESSAGE_BYTES,
  type DanmakuComment,
  type DanmakuDraft,
  type DanmakuErrorCode,
  type DanmakuMode,
  type DanmakuColor,
  type ServerMessage,
} from "../../shared/danmaku/model";
import { takeRate } from "./rate-limit";
import type { RoomRef } from "./room-id";

/** Request header the worker sets on the WebSocket upgrade: the signed-in user id (absent: read only). */
export const USER_HEADER = "X-Danmaku-User";
/** Request header with the blocked words (URI-encoded JSON array) for posts made over the socket. */
export const WORDS_HEADER = "X-Danmaku-Words";
/** Most comments one backlog or window read returns. */
export const MAX_READ = 1000;

export type PostResult = { ok: true; comment: DanmakuComment } | { ok: false; code: DanmakuErrorCode; retryAfterMs?: number };

/** What the room needs to know about itself (from room-id.ts findRoom). */
export type RoomInfo = Pick<RoomRef, "key" | "sampleSeconds">;

interface Attachment {
  room: RoomInfo;
  user: string | null;
  words: string[];
}

type Row = { id: number; time: number; text: string; mode: string; color: string; author: string; created: number };

const toComment = (r: Row): DanmakuComment => ({
  id: r.id,
  time: r.time,
  text: r.text,
  mode: r.mode as DanmakuMode,
  color: r.color as DanmakuColor,
  author: r.author,
  created: r.created,
});

export class DanmakuRoom extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Whether ensureSamples ran in this instance (lost on eviction: it then checks the meta table once more). */
  private samplesChecked = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS comments (
      id INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL, text TEXT NOT NULL, mode TEXT NOT NULL,
      color TEXT NOT NULL, author TEXT NOT NULL, created INTEGER NOT NULL)`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS comments_time ON comments (time)");
    // The per-room rate-limit table of before DanmakuRateLimit.
    this.sql.exec("DROP TABLE IF EXISTS posts");
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /** Stores the sample comments of a built-in title once (shared/danmaku/samples.ts), unless DANMAKU_SAMPLES is "off". */
  private ensureSamples(room: RoomInfo): void {
    if (this.samplesChecked) return;
    this.samplesChecked = true;
    if (this.env.DANMAKU_SAMPLES === "off" || room.sampleSeconds === null) return;
    if (this.sql.exec("SELECT 1 FROM meta WHERE key = 'samples'").toArray().length > 0) return;
    this.seed(sampleComments(room.key, room.sampleSeconds, Date.now()));
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('samples', ?)", room.key);
  }

  /** Comments with from ≤ time ≤ to, by time (at most `limit`). */
  list(room: RoomInfo, from: number, to: number, limit = MAX_READ): DanmakuComment[] {
    this.ensureSamples(room);
    const rows = this.sql
      .exec<Row>("SELECT * FROM comments WHERE time >= ? AND time <= ? ORDER BY time, id LIMIT ?", from, to, Math.min(limit, MAX_READ))
      .toArray();
    return rows.map(toComment);
  }

  /**
   * Checks a comment of `author`, asks their rate limit (all rooms together), then stores and
   * broadcasts it. A refused comment does not count against the limit.
   */
  async post(room: RoomInfo, author: string, input: unknown, words: readonly string[]): Promise<PostResult> {
    this.ensureSamples(room);
    const checked = checkDraft(input, words, toSimplified);
    if (!checked.ok) return { ok: false, code: checked.code };
    const rate = await takeRate(this.env, author);
    if (!rate.ok) return { ok: false, code: "tooFast", retryAfterMs: rate.retryAfterMs };
    return { ok: true, comment: this.store(author, checked.draft) };
  }

  /** Stores and broadcasts a checked comment (no rate limit: post() asks it). */
  store(author: string, draft: DanmakuDraft): DanmakuComment {
    const { time, text, mode, color } = draft;
    const row = this.sql
      .exec<Row>(
        "INSERT INTO comments (time, text, mode, color, author, created) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
        time,
        text,
        mode,
        color,
        author,
        Date.now(),
      )
      .one();
    this.sql.exec("DELETE FROM comments WHERE id <= ?", row.id - MAX_COMMENTS_PER_ROOM);
    const comment = toComment(row);
    this.broadcast({ type: "comment", comment });
    return comment;
  }

  /** Number of stored comments (tests, seeding). */
  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM comments").one().n;
  }

  /** Stores comments as given (the sample comments of the built-in titles). */
  private seed(comments: ReadonlyArray<Omit<DanmakuComment, "id">>): void {
    for (const c of comments) {
      this.sql.exec(
        "INSERT INTO comments (time, text, mode, color, author, created) VALUES (?, ?, ?, ?, ?, ?)",
        c.time,
        c.text,
        c.mode,
        c.color,
        c.author,
        c.created,
      );
    }
  }

  /**
   * The WebSocket upgrade (the worker checked the Origin and the session, and found the room:
   * `?key=` and `?samples=` carry its RoomInfo). `?after=ID` resumes.
   */
  override fetch(request: Request): Response {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 426 });
    const url = new URL(request.url);
    const samples = Number(url.searchParams.get("samples") ?? "");
    const room: RoomInfo = {
      key: url.searchParams.get("key") ?? "",
      sampleSeconds: url.searchParams.has("samples") && Number.isFinite(samples) ? samples : null,
    };
    this.ensureSamples(room);
    const user = request.headers.get(USER_HEADER);
    let words: string[] = [];
    try {
      const parsed: unknown = JSON.parse(decodeURIComponent(request.headers.get(WORDS_HEADER) ?? "[]"));
      if (Array.isArray(parsed)) words = parsed.filter((w): w is string => typeof w === "string");
    } catch {
      words = [];
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ room, user: user || null, words } satisfies Attachment);
    // SQL calls are synchronous: no comment can slip in between the backlog and the first broadcast.
    const last = this.sql.exec<{ last: number | null }>("SELECT MAX(id) AS last FROM comments").one().last ?? 0;
    send(server, { type: "hello", canPost: Boolean(user), last });
    const afterText = url.searchParams.get("after");
    const after = afterText !== null && /^\d{1,15}$/.test(afterText) ? Number(afterText) : null;
    if (after !== null && after < last) {
      const rows = this.sql.exec<Row>("SELECT * FROM comments WHERE id > ? ORDER BY id LIMIT ?", after, MAX_READ).toArray();
      send(server, { type: "backlog", comments: rows.map(toComment) });
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const size = typeof message === "string" ? new TextEncoder().encode(message).byteLength : message.byteLength;
    if (typeof message !== "string" || size > MAX_MESSAGE_BYTES) return fail(ws, size > MAX_MESSAGE_BYTES ? "tooLarge" : "badRequest");
    let data: unknown;
    try {
      data = JSON.parse(message);
    } catch {
      return fail(ws, "badRequest");
    }
    if (typeof data !== "object" || data === null || (data as { type?: unknown }).type !== "post") return fail(ws, "badRequest");
    const nonceValue = (data as { nonce?: unknown }).nonce;
    const nonce = typeof nonceValue === "string" ? nonceValue.slice(0, 64) : "";
    const { room, user, words } = (ws.deserializeAttachment() ?? { room: { key: "", sampleSeconds: null }, user: null, words: [] }) as Attachment;
    if (!user) return fail(ws, "notSignedIn", nonce);
    let result: PostResult;
    try {
      result = await this.post(room, user, data, words);
    } catch (error) {
      console.error("danmaku: a post over the socket failed", error);
      return fail(ws, "unavailable", nonce);
    }
    if (!result.ok) return fail(ws, result.code, nonce);
    send(ws, { type: "ack", nonce, comment: result.comment });
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
  }

  override webSocketError(): void {}

  private broadcast(message: ServerMessage): void {
    const text = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // a socket closing right now: it resumes with ?after= when it comes back
      }
    }
  }
}

function send(ws: WebSocket, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // closed meanwhile
  }
}

function fail(ws: WebSocket, code: DanmakuErrorCode, nonce?: string): void {
  send(ws, { type: "error", code, message: DANMAKU_MESSAGES[code], ...(nonce ? { nonce } : {}) });
}
