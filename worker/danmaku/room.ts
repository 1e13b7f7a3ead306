/**
 * DanmakuRoom: the Durable Object of one video's 弹幕 (shared/danmaku/model.ts roomName).
 * SQLite storage holds the comments (ids increase; at most MAX_COMMENTS_PER_ROOM, oldest out)
 * and each author's recent post times (the rate limit); a built-in title's room starts with its
 * sample comments. Viewers connect over the WebSocket
 * Hibernation API: the object keeps nothing in memory between events — who may post is in each
 * socket's attachment — so an idle room is evicted and costs nothing.
 */
import { DurableObject } from "cloudflare:workers";
import { getVideo } from "../../shared/catalogue/index";
import { durationSeconds, sampleComments } from "../../shared/danmaku/samples";
import {
  checkDraft,
  DANMAKU_MESSAGES,
  MAX_COMMENTS_PER_ROOM,
  MAX_MESSAGE_BYTES,
  rateCheck,
  WINDOW_MS,
  type DanmakuComment,
  type DanmakuErrorCode,
  type DanmakuMode,
  type DanmakuColor,
  type ServerMessage,
} from "../../shared/danmaku/model";

/** Request header the worker sets on the WebSocket upgrade: the signed-in user id (absent: read only). */
export const USER_HEADER = "X-Danmaku-User";
/** Request header with the blocked words (URI-encoded JSON array) for posts made over the socket. */
export const WORDS_HEADER = "X-Danmaku-Words";
/** Most comments one backlog or window read returns. */
export const MAX_READ = 1000;

export type PostResult = { ok: true; comment: DanmakuComment } | { ok: false; code: DanmakuErrorCode; retryAfterMs?: number };

interface Attachment {
  video: string;
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
    this.sql.exec("CREATE TABLE IF NOT EXISTS posts (author TEXT NOT NULL, at INTEGER NOT NULL)");
    this.sql.exec("CREATE INDEX IF NOT EXISTS posts_author ON posts (author, at)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /** Stores the sample comments of a built-in title once (shared/danmaku/samples.ts), unless DANMAKU_SAMPLES is "off". */
  private ensureSamples(videoId: string): void {
    if (this.samplesChecked) return;
    this.samplesChecked = true;
    if (this.env.DANMAKU_SAMPLES === "off") return;
    if (this.sql.exec("SELECT 1 FROM meta WHERE key = 'samples'").toArray().length > 0) return;
    const video = getVideo(videoId);
    if (!video) return;
    this.seed(sampleComments(videoId, durationSeconds(video.duration), Date.now()));
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('samples', ?)", videoId);
  }

  /** Comments with from ≤ time ≤ to, by time (at most `limit`). */
  list(videoId: string, from: number, to: number, limit = MAX_READ): DanmakuComment[] {
    this.ensureSamples(videoId);
    const rows = this.sql
      .exec<Row>("SELECT * FROM comments WHERE time >= ? AND time <= ? ORDER BY time, id LIMIT ?", from, to, Math.min(limit, MAX_READ))
      .toArray();
    return rows.map(toComment);
  }

  /** Checks, stores and broadcasts a comment of `author`. */
  post(videoId: string, author: string, input: unknown, words: readonly string[]): PostResult {
    this.ensureSamples(videoId);
    const checked = checkDraft(input, words);
    if (!checked.ok) return { ok: false, code: checked.code };
    const now = Date.now();
    this.sql.exec("DELETE FROM posts WHERE at <= ?", now - WINDOW_MS);
    const recent = this.sql
      .exec<{ at: number }>("SELECT at FROM posts WHERE author = ?", author)
      .toArray()
      .map((r) => r.at);
    const rate = rateCheck(recent, now);
    if (!rate.ok) return { ok: false, code: "tooFast", retryAfterMs: rate.retryAfterMs };
    const { time, text, mode, color } = checked.draft;
    const row = this.sql
      .exec<Row>("INSERT INTO comments (time, text, mode, color, author, created) VALUES (?, ?, ?, ?, ?, ?) RETURNING *", time, text, mode, color, author, now)
      .one();
    this.sql.exec("INSERT INTO posts (author, at) VALUES (?, ?)", author, now);
    this.sql.exec("DELETE FROM comments WHERE id <= ?", row.id - MAX_COMMENTS_PER_ROOM);
    const comment = toComment(row);
    this.broadcast({ type: "comment", comment });
    return { ok: true, comment };
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

  /** The WebSocket upgrade (the worker checked the Origin and the session). `?after=ID` resumes. */
  override fetch(request: Request): Response {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 426 });
    const url = new URL(request.url);
    this.ensureSamples(url.searchParams.get("video") ?? "");
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
    server.serializeAttachment({ video: url.searchParams.get("video") ?? "", user: user || null, words } satisfies Attachment);
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

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
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
    const { video, user, words } = (ws.deserializeAttachment() ?? { video: "", user: null, words: [] }) as Attachment;
    if (!user) return fail(ws, "notSignedIn", nonce);
    const result = this.post(video, user, data, words);
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
