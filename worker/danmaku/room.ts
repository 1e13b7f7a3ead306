/**
 * DanmakuRoom: the Durable Object of one episode's 弹幕, named by its room key
 * (shared/danmaku/model.ts roomKey; the worker resolves keys in room-id.ts). SQLite storage
 * holds the comments (ids increase; at most MAX_COMMENTS_PER_ROOM, oldest out); a built-in
 * title's room starts with its sample comments. Each post passes the author's rate limit, kept
 * across all rooms by their DanmakuRateLimit object (rate-limit.ts). Viewers connect over the WebSocket
 * Hibernation API: the object keeps nothing in memory between events — who may post is in each
 * socket's attachment, the access token that proves it in the object's storage (socket_sessions)
 * — so an idle room is evicted and costs nothing. Every post first asks poster.ts whether its
 * author may post (a socket's session again at each post: docs/decisions/0041-danmaku-session.md).
 * 弹幕管理 reaches the room too (docs/decisions/0076-danmaku-moderation.md): every post reads the
 * blocked words saved on the web and the poster's mute from D1 (policy.ts), every stored comment
 * is indexed in D1 for the cross-room list, and a moderator's delete (remove) leaves the history
 * and every open screen at once.
 */
import { DurableObject } from "cloudflare:workers";
import { SAMPLE_AUTHOR, sampleComments } from "../../shared/danmaku/samples";
import { toSimplified } from "../../shared/search/t2s";
import {
  checkDraft,
  containsBlockedWord,
  DANMAKU_MESSAGES,
  MAX_COMMENTS_PER_ROOM,
  MAX_MESSAGE_BYTES,
  type DanmakuComment,
  type DanmakuDraft,
  type DanmakuErrorCode,
  type DanmakuMode,
  type HexColor,
  type ServerMessage,
} from "../../shared/danmaku/model";
import { configOf } from "../config";
import { newAuthorKey, publicAuthor } from "./author";
import { indexComments, readPostPolicy, recordPost } from "./policy";
import { mayPost, type Standing } from "./poster";
import { takeRate } from "./rate-limit";
import type { RoomRef } from "./room-id";

/**
 * Request header the worker sets on the WebSocket upgrade of a signed-in user: their session
 * (URI-encoded JSON {@link SocketSession}); absent: the socket is read only.
 */
export const SESSION_HEADER = "X-Danmaku-Session";
/** Request header with the default blocked words (URI-encoded JSON array) for posts made over the socket; words saved in 弹幕管理 replace them (policy.ts). */
export const WORDS_HEADER = "X-Danmaku-Words";
/** Most comments one backlog or window read returns. */
export const MAX_READ = 1000;

/** A refusal's `message` replaces DANMAKU_MESSAGES[code] where it names more (a mute's end). */
export type PostResult = { ok: true; comment: DanmakuComment } | { ok: false; code: DanmakuErrorCode; retryAfterMs?: number; message?: string };

/** How long a room remembers a deleted comment's id, to tell sockets that open after the delete (a read up to this old may still hold it). */
export const DELETIONS_KEPT_MS = 60_000;

/** What the room needs to know about itself (from room-id.ts findRoom). */
export type RoomInfo = Pick<RoomRef, "key" | "sampleSeconds">;

/** The session a socket opened with: the user id, the access token, when it expires (ms) and the site's origin (the token's issuer). */
export interface SocketSession {
  user: string;
  accessToken: string;
  expiresAt: number;
  site: string;
}

/**
 * How long a socket's session check stands for further posts that are refused (by the rate limit
 * or the text): a flood costs one account-service call per this. A stored comment uses the check
 * up, so every stored comment had its own (the rate limit allows one per 2 s anyway).
 */
export const SESSION_RECHECK_MS = 3000;

interface Attachment {
  room: RoomInfo;
  /** Who posts over this socket (`socket` names its socket_sessions row; `checkedAt`: the last check that passed, ms, 0 for none). Null: read only. */
  poster: { user: string; socket: string; checkedAt: number } | null;
  /** The poster's session ended: the socket is read only from then on. */
  ended: boolean;
  words: string[];
}

const READ_ONLY: Attachment = { room: { key: "", sampleSeconds: null }, poster: null, ended: false, words: [] };

function attachmentOf(ws: WebSocket): Attachment {
  const value = (ws.deserializeAttachment() ?? READ_ONLY) as Partial<Attachment> & { user?: unknown };
  // A socket opened before sessions were checked at each post (its attachment has only `user`) cannot prove its session: read only.
  return { ...READ_ONLY, ...value, poster: value.poster ?? null, ended: value.ended ?? typeof value.user === "string" };
}

type SessionRow = { socket: string; user: string; token: string; expires_at: number; site: string };

/** A socket's session, as the upgrade header carries it; null when absent or malformed. */
function parseSocketSession(header: string | null): SocketSession | null {
  if (!header) return null;
  try {
    const value: unknown = JSON.parse(decodeURIComponent(header));
    if (typeof value !== "object" || value === null) return null;
    const { user, accessToken, expiresAt, site } = value as Record<string, unknown>;
    if (typeof user !== "string" || !user || typeof accessToken !== "string" || !accessToken || typeof site !== "string") return null;
    return typeof expiresAt === "number" && Number.isFinite(expiresAt) ? { user, accessToken, expiresAt, site } : null;
  } catch {
    return null;
  }
}

type Row = { id: number; time: number; text: string; mode: string; color: string; author: string; created: number };

const toComment = (r: Row): DanmakuComment => ({
  id: r.id,
  time: r.time,
  text: r.text,
  mode: r.mode as DanmakuMode,
  color: r.color as HexColor,
  author: r.author,
  created: r.created,
});

export class DanmakuRoom extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Whether ensureIndexed ran in this instance. */
  private indexChecked = false;
  /** Whether ensureSamples ran in this instance (lost on eviction: it then checks the meta table once more). */
  private samplesChecked = false;
  /** The room's key for public author values (author.ts), read or made once per instance. */
  private authorKey: string | null = null;
  /** Public author values of this instance, by account id. */
  private readonly authors = new Map<string, string>();

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
    // The access token of each posting socket, while it is open and the token valid (not in the
    // attachment: a token with the user's metadata can outgrow an attachment's size limit).
    this.sql.exec(`CREATE TABLE IF NOT EXISTS socket_sessions (
      socket TEXT PRIMARY KEY, user TEXT NOT NULL, token TEXT NOT NULL, expires_at INTEGER NOT NULL, site TEXT NOT NULL)`);
    // Comments deleted by a moderator in the last DELETIONS_KEPT_MS (ids), told to sockets that open meanwhile.
    this.sql.exec("CREATE TABLE IF NOT EXISTS deletions (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
  }

  /**
   * Comments stored before 弹幕管理's index existed (migrations/0014) go into it once per room: the
   * meta row 'indexed' records that it was done; until then every instance tries once. Sample
   * comments are not indexed, as at seeding. A post meanwhile is indexed by itself (the backfill
   * skips rows already there).
   */
  private ensureIndexed(room: RoomInfo): void {
    if (this.indexChecked) return;
    this.indexChecked = true;
    if (this.sql.exec("SELECT 1 FROM meta WHERE key = 'indexed'").toArray().length > 0) return;
    const rows = this.sql.exec<Row>("SELECT * FROM comments WHERE author != ? ORDER BY id", SAMPLE_AUTHOR).toArray();
    const done = () => this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('indexed', ?)", String(rows.length));
    if (rows.length === 0) return void done();
    this.ctx.waitUntil(
      indexComments(
        this.env.DB,
        room.key,
        rows.map((row) => ({ author: row.author, comment: toComment(row) })),
      ).then(done, (error: unknown) => {
        this.indexChecked = false;
        console.error("danmaku: the room's earlier comments could not be indexed for 弹幕管理", error);
      }),
    );
  }

  /** Stores the sample comments of a built-in title once (shared/danmaku/samples.ts), unless DANMAKU_SAMPLES is "off". */
  private ensureSamples(room: RoomInfo): void {
    if (this.samplesChecked) return;
    this.samplesChecked = true;
    if (configOf(this.env).DANMAKU_SAMPLES === "off" || room.sampleSeconds === null) return;
    if (this.sql.exec("SELECT 1 FROM meta WHERE key = 'samples'").toArray().length > 0) return;
    this.seed(sampleComments(room.key, room.sampleSeconds, Date.now()));
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('samples', ?)", room.key);
  }

  /** A stored row as the public sees it: the author as this room's opaque value, never the account id. */
  private toPublic(row: Row): DanmakuComment {
    return { ...toComment(row), author: this.publicAuthorOf(row.author) };
  }

  private publicAuthorOf(account: string): string {
    let value = this.authors.get(account);
    if (value === undefined) {
      if (this.authorKey === null) {
        this.sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES ('author_key', ?)", newAuthorKey());
        this.authorKey = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'author_key'").one().value;
      }
      value = publicAuthor(this.authorKey, account);
      if (this.authors.size >= 10_000) this.authors.clear();
      this.authors.set(account, value);
    }
    return value;
  }

  /** Comments with from ≤ time ≤ to, by time (at most `limit`). */
  list(room: RoomInfo, from: number, to: number, limit = MAX_READ): DanmakuComment[] {
    this.ensureSamples(room);
    this.ensureIndexed(room);
    const rows = this.sql
      .exec<Row>("SELECT * FROM comments WHERE time >= ? AND time <= ? ORDER BY time, id LIMIT ?", from, to, Math.min(limit, MAX_READ))
      .toArray();
    return rows.map((row) => this.toPublic(row));
  }

  /**
   * A comment of `author`, whose session the worker read in the request that carries it
   * (DPlayer's POST): see {@link accept}. `words`: the default blocked words.
   */
  post(room: RoomInfo, author: string, input: unknown, words: readonly string[]): Promise<PostResult> {
    return this.accept(room, author, input, words, (mutedUntil) => mayPost(this.env, { user: author, proof: "request" }, Date.now(), mutedUntil));
  }

  /**
   * Checks a comment (its text), reads 弹幕管理's word list and the author's mute (policy.ts: one
   * D1 read, so a change applies to this very post), checks the blocked words (the saved list,
   * else `defaultWords`; after folding width, case and traditional characters), then whether its
   * author may post (`standing`: muted, or a session that ended — poster.ts), then their rate
   * limit (all rooms together), then stores and broadcasts it and indexes it for 弹幕管理. A
   * refused comment does not count against the limit.
   */
  private async accept(
    room: RoomInfo,
    author: string,
    input: unknown,
    defaultWords: readonly string[],
    standing: (mutedUntil: number | null | undefined) => Promise<Standing>,
  ): Promise<PostResult> {
    this.ensureSamples(room);
    this.ensureIndexed(room);
    const checked = checkDraft(input, [], toSimplified);
    if (!checked.ok) return { ok: false, code: checked.code };
    const policy = await readPostPolicy(this.env.DB, author);
    if (containsBlockedWord(checked.draft.text, policy.words ?? defaultWords, toSimplified)) return { ok: false, code: "blocked" };
    const may = await standing(policy.mutedUntil);
    if (!may.ok) return may.code === "muted" ? { ok: false, code: "muted", message: may.message } : { ok: false, code: may.code };
    const rate = await takeRate(this.env, author);
    if (!rate.ok) return { ok: false, code: "tooFast", retryAfterMs: rate.retryAfterMs };
    const comment = this.store(author, checked.draft);
    // The index of 弹幕管理 and 概览's count (policy.ts): the comment is out already; the ack waits
    // for this one write, so a comment its poster saw acknowledged can be found by a moderator.
    await recordPost(this.env.DB, room.key, author, comment);
    return { ok: true, comment };
  }

  /**
   * Deletes comments (弹幕管理): gone from the history, and a `delete` message to every open
   * socket takes them off every screen; sockets that open in the next DELETIONS_KEPT_MS hear it
   * too (their window read may be that old). Returns the rows that were there (the account id
   * as author, for the 操作日志).
   */
  remove(ids: readonly number[]): DanmakuComment[] {
    const wanted = JSON.stringify(ids.filter((id) => Number.isSafeInteger(id) && id > 0));
    const rows = this.sql.exec<Row>("DELETE FROM comments WHERE id IN (SELECT value FROM json_each(?)) RETURNING *", wanted).toArray();
    const now = Date.now();
    this.sql.exec("DELETE FROM deletions WHERE at <= ?", now - DELETIONS_KEPT_MS);
    for (const row of rows) this.sql.exec("INSERT OR REPLACE INTO deletions (id, at) VALUES (?, ?)", row.id, now);
    if (rows.length > 0) this.broadcast({ type: "delete", ids: rows.map((r) => r.id) });
    return rows.map(toComment);
  }

  /**
   * Whether the socket's poster may post now: their session asked of the account service
   * (poster.ts) unless a check passed less than SESSION_RECHECK_MS ago and no comment used it up.
   * A session that ended makes the socket read only (its token row goes); an unanswered check
   * changes nothing.
   */
  private async socketStanding(ws: WebSocket, mutedUntil: number | null | undefined): Promise<Standing> {
    const poster = attachmentOf(ws).poster;
    if (!poster) return { ok: false, code: "sessionEnded" };
    // A mute is asked at every post, whatever the session check's age.
    if (mutedUntil !== undefined) return mayPost(this.env, { user: poster.user, proof: "request" }, Date.now(), mutedUntil);
    if (Date.now() - poster.checkedAt < SESSION_RECHECK_MS) return { ok: true };
    const row = this.sql.exec<SessionRow>("SELECT * FROM socket_sessions WHERE socket = ?", poster.socket).toArray()[0];
    const standing: Standing = row
      ? await mayPost(this.env, { user: row.user, proof: "token", accessToken: row.token, expiresAt: row.expires_at, site: row.site })
      : { ok: false, code: "sessionEnded" };
    // Another message of this socket may have ended it meanwhile.
    const now = attachmentOf(ws);
    if (!standing.ok) {
      if (standing.code === "sessionEnded") this.endSession(ws, poster.socket);
      return standing;
    }
    if (!now.poster) return { ok: false, code: "sessionEnded" };
    ws.serializeAttachment({ ...now, poster: { ...now.poster, checkedAt: Date.now() } } satisfies Attachment);
    return standing;
  }

  /** The socket may no longer post: read only, its token forgotten. */
  private endSession(ws: WebSocket, socket: string): void {
    this.sql.exec("DELETE FROM socket_sessions WHERE socket = ?", socket);
    ws.serializeAttachment({ ...attachmentOf(ws), poster: null, ended: true } satisfies Attachment);
  }

  /** A stored comment used up the socket's last session check: the next post asks again. */
  private useUpCheck(ws: WebSocket): void {
    const now = attachmentOf(ws);
    if (now.poster) ws.serializeAttachment({ ...now, poster: { ...now.poster, checkedAt: 0 } } satisfies Attachment);
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
    const comment = this.toPublic(row);
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
    this.ensureIndexed(room);
    const session = parseSocketSession(request.headers.get(SESSION_HEADER));
    let words: string[] = [];
    try {
      const parsed: unknown = JSON.parse(decodeURIComponent(request.headers.get(WORDS_HEADER) ?? "[]"));
      if (Array.isArray(parsed)) words = parsed.filter((w): w is string => typeof w === "string");
    } catch {
      words = [];
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    let poster: Attachment["poster"] = null;
    if (session) {
      this.sql.exec("DELETE FROM socket_sessions WHERE expires_at <= ?", Date.now());
      poster = { user: session.user, socket: crypto.randomUUID(), checkedAt: 0 };
      this.sql.exec(
        "INSERT INTO socket_sessions (socket, user, token, expires_at, site) VALUES (?, ?, ?, ?, ?)",
        poster.socket,
        session.user,
        session.accessToken,
        session.expiresAt,
        session.site,
      );
    }
    server.serializeAttachment({ room, poster, ended: false, words } satisfies Attachment);
    // SQL calls are synchronous: no comment can slip in between the backlog and the first broadcast.
    const last = this.sql.exec<{ last: number | null }>("SELECT MAX(id) AS last FROM comments").one().last ?? 0;
    send(server, { type: "hello", canPost: poster !== null, last });
    const afterText = url.searchParams.get("after");
    const after = afterText !== null && /^\d{1,15}$/.test(afterText) ? Number(afterText) : null;
    if (after !== null && after < last) {
      const rows = this.sql.exec<Row>("SELECT * FROM comments WHERE id > ? ORDER BY id LIMIT ?", after, MAX_READ).toArray();
      send(server, { type: "backlog", comments: rows.map((row) => this.toPublic(row)) });
    }
    // Deleted lately: the page's window read (cached for a few seconds) may still hold them.
    const deleted = this.sql.exec<{ id: number }>("SELECT id FROM deletions WHERE at > ? ORDER BY id", Date.now() - DELETIONS_KEPT_MS).toArray();
    if (deleted.length > 0) send(server, { type: "delete", ids: deleted.map((d) => d.id) });
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
    const { room, poster, ended, words } = attachmentOf(ws);
    if (!poster) return fail(ws, ended ? "sessionEnded" : "notSignedIn", nonce);
    let result: PostResult;
    try {
      result = await this.accept(room, poster.user, data, words, (mutedUntil) => this.socketStanding(ws, mutedUntil));
    } catch (error) {
      console.error("danmaku: a post over the socket failed", error);
      return fail(ws, "unavailable", nonce);
    }
    if (!result.ok) return fail(ws, result.code, nonce, result.message);
    this.useUpCheck(ws);
    send(ws, { type: "ack", nonce, comment: result.comment });
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    this.forgetSession(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
  }

  override webSocketError(ws: WebSocket): void {
    this.forgetSession(ws);
  }

  /** A closed socket's token row goes (rows of sockets that never said goodbye go once their token expired). */
  private forgetSession(ws: WebSocket): void {
    const poster = attachmentOf(ws).poster;
    if (poster) this.sql.exec("DELETE FROM socket_sessions WHERE socket = ?", poster.socket);
  }

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

function fail(ws: WebSocket, code: DanmakuErrorCode, nonce?: string, message?: string): void {
  send(ws, { type: "error", code, message: message ?? DANMAKU_MESSAGES[code], ...(nonce ? { nonce } : {}) });
}
