/**
 * DanmakuShard: one of the socket shards of a 弹幕 room (docs/decisions/0065-danmaku-shards.md),
 * named `{room key}#{index}` (shared/danmaku/shards.ts shardName). It holds viewers' WebSockets
 * over the Hibernation API and relays: what the room (DanmakuRoom, room.ts, the coordinator that
 * owns the history, the ids, the rate limits and the D1 index) sends it in one batch per tick goes
 * to each of its sockets as one frame per run of comments; a post over one of its sockets passes
 * admit.ts here (the text, the blocked words and the mute read from D1, the socket's session asked
 * again: poster.ts, docs/decisions/0041-danmaku-session.md) and is then handed to the room
 * (`publish`: the rate limit, the store, the index). The instance keeps nothing in memory between
 * events — who may post is in each socket's attachment, the access token that proves it in the
 * shard's storage (socket_sessions) — so an idle shard is evicted and costs nothing.
 */
import { DurableObject } from "cloudflare:workers";
import { DANMAKU_MESSAGES, MAX_MESSAGE_BYTES, type DanmakuErrorCode, type ServerMessage } from "../../shared/danmaku/model";
import { framesFor, lowestId } from "../../shared/danmaku/shards";
import { admit } from "./admit";
import { mayPost, type Standing } from "./poster";
import type { PostResult, RoomInfo, SocketSession } from "./room";

/**
 * Request header the worker sets on the WebSocket upgrade of a signed-in user: their session
 * (URI-encoded JSON {@link SocketSession}); absent: the socket is read only.
 */
export const SESSION_HEADER = "X-Danmaku-Session";
/** Request header with the default blocked words (URI-encoded JSON array) for posts made over the socket; words saved in 弹幕管理 replace them (policy.ts). */
export const WORDS_HEADER = "X-Danmaku-Words";

/**
 * How long a socket's session check stands for further posts that are refused (by the rate limit
 * or the text): a flood costs one account-service call per this. A stored comment uses the check
 * up, so every stored comment had its own (the rate limit allows one per 2 s anyway).
 */
export const SESSION_RECHECK_MS = 3000;

interface Attachment {
  room: RoomInfo;
  /** The shard's own index in its room. */
  shard: number;
  /** The last comment id the socket's hello covered: a batch's older comments are not sent to it again. */
  last: number;
  /** Who posts over this socket (`socket` names its socket_sessions row; `checkedAt`: the last check that passed, ms, 0 for none). Null: read only. */
  poster: { user: string; socket: string; checkedAt: number } | null;
  /** The poster's session ended: the socket is read only from then on. */
  ended: boolean;
  words: string[];
}

const READ_ONLY: Attachment = { room: { key: "", sampleSeconds: null }, shard: 0, last: 0, poster: null, ended: false, words: [] };

function attachmentOf(ws: WebSocket): Attachment {
  const value = (ws.deserializeAttachment() ?? READ_ONLY) as Partial<Attachment>;
  return { ...READ_ONLY, ...value, poster: value.poster ?? null };
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

function parseWords(header: string | null): string[] {
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(header ?? "[]"));
    return Array.isArray(parsed) ? parsed.filter((w): w is string => typeof w === "string") : [];
  } catch {
    return [];
  }
}

export class DanmakuShard extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Upgrades waiting for the room's join answer: each collects the batches that arrive meanwhile (sent after its hello). */
  private readonly joining = new Set<ServerMessage[]>();
  /** Each socket's `last` (its attachment's), read once per instance. */
  private readonly lastOf = new WeakMap<WebSocket, number>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // The access token of each posting socket, while it is open and the token valid (not in the
    // attachment: a token with the user's metadata can outgrow an attachment's size limit).
    this.sql.exec(`CREATE TABLE IF NOT EXISTS socket_sessions (
      socket TEXT PRIMARY KEY, user TEXT NOT NULL, token TEXT NOT NULL, expires_at INTEGER NOT NULL, site TEXT NOT NULL)`);
  }

  private room(key: string) {
    return this.env.DANMAKU.get(this.env.DANMAKU.idFromName(key));
  }

  /**
   * The WebSocket upgrade (the worker checked the Origin and the session, found the room and had it
   * pick this shard: `?key=`, `?samples=` carry its RoomInfo, `?shard=` this shard's index).
   * `?after=ID` resumes. The room is asked for the hello (join) before the socket is accepted;
   * batches that arrive meanwhile are kept and sent after it, without what the hello covers — no
   * gap, no duplicate.
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 426 });
    const url = new URL(request.url);
    const samples = Number(url.searchParams.get("samples") ?? "");
    const room: RoomInfo = {
      key: url.searchParams.get("key") ?? "",
      sampleSeconds: url.searchParams.has("samples") && Number.isFinite(samples) ? samples : null,
    };
    const shard = Number(url.searchParams.get("shard") ?? "0");
    const afterText = url.searchParams.get("after");
    const after = afterText !== null && /^\d{1,15}$/.test(afterText) ? Number(afterText) : null;
    const session = parseSocketSession(request.headers.get(SESSION_HEADER));
    const words = parseWords(request.headers.get(WORDS_HEADER));

    const meanwhile: ServerMessage[] = [];
    this.joining.add(meanwhile);
    let joined;
    try {
      joined = await this.room(room.key).join(room, shard, after, this.ctx.getWebSockets().length + this.joining.size);
    } finally {
      this.joining.delete(meanwhile);
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
    server.serializeAttachment({ room, shard, last: joined.last, poster, ended: false, words } satisfies Attachment);
    this.lastOf.set(server, joined.last);
    send(server, { type: "hello", canPost: poster !== null, last: joined.last });
    if (joined.backlog) send(server, { type: "backlog", comments: joined.backlog });
    if (joined.deleted.length > 0) send(server, { type: "delete", ids: joined.deleted });
    for (const frame of framesFor(meanwhile, joined.last)) send(server, frame);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * One tick's messages from the room, in order, to every socket: one frame per run of comments
   * (shared/danmaku/shards.ts framesFor), serialised once for all sockets whose hello is older than
   * the batch. Answers how many sockets the shard holds (upgrades under way included): 0 tells the
   * room to stop sending.
   */
  deliver(batch: ServerMessage[]): number {
    for (const meanwhile of this.joining) meanwhile.push(...batch);
    const sockets = this.ctx.getWebSockets();
    const lowest = lowestId(batch);
    const common = framesFor(batch, 0).map((frame) => JSON.stringify(frame));
    for (const ws of sockets) {
      let last = this.lastOf.get(ws);
      if (last === undefined) {
        last = attachmentOf(ws).last;
        this.lastOf.set(ws, last);
      }
      const frames = last < lowest ? common : framesFor(batch, last).map((frame) => JSON.stringify(frame));
      for (const text of frames) {
        try {
          ws.send(text);
        } catch {
          // a socket closing right now: it resumes with ?after= when it comes back
        }
      }
    }
    return sockets.length + this.joining.size;
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
      const admitted = await admit(this.env, poster.user, data, words, (mutedUntil) => this.socketStanding(ws, mutedUntil));
      result = admitted.ok ? await this.room(room.key).publish(room, poster.user, admitted.draft) : admitted;
    } catch (error) {
      console.error("danmaku: a post over the socket failed", error);
      return fail(ws, "unavailable", nonce);
    }
    if (!result.ok) return fail(ws, result.code, nonce, result.message);
    this.useUpCheck(ws);
    send(ws, { type: "ack", nonce, comment: result.comment });
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

  /** Sockets open on this shard (tests, the bench). */
  sockets(): number {
    return this.ctx.getWebSockets().length;
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
