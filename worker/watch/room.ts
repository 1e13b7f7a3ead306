/**
 * WatchRoom: the Durable Object of one 一起看 room, named by its code (shared/watch/protocol.ts).
 * Modelled on the 弹幕 rooms (worker/danmaku/room.ts): SQLite storage holds the room (what plays,
 * its settings, the host, the last CHAT_KEPT chat lines), members are WebSockets accepted through
 * the Hibernation API with who they are in each socket's attachment, so the object keeps nothing
 * in memory between events and an idle room is evicted and costs nothing. The room closes
 * CLOSE_AFTER_MS after its last member left (an alarm deletes everything; a room nobody joined
 * closes the same way). Chat passes the 弹幕 rules: the text checks and blocked words of
 * shared/danmaku/model.ts, 弹幕管理's word list and mutes (worker/danmaku/policy.ts), the socket's
 * session asked again (worker/danmaku/poster.ts) and the per-user rate limit of all 弹幕 rooms
 * (worker/danmaku/rate-limit.ts). docs/decisions/0100-watch-rooms.md.
 */
import { DurableObject } from "cloudflare:workers";
import { checkDraft, containsBlockedWord, DANMAKU_MESSAGES, MAX_MESSAGE_BYTES } from "../../shared/danmaku/model";
import { toSimplified } from "../../shared/search/t2s";
import {
  applyControl,
  CHAT_KEPT,
  checkNickname,
  CLOSE_AFTER_MS,
  CONTROL_MAX,
  CONTROL_TYPES,
  CONTROL_WINDOW_MS,
  MAX_MEMBERS,
  nextHost,
  parseControl,
  WATCH_MESSAGES,
  type ChatLine,
  type Member,
  type RoomSettings,
  type RoomState,
  type ServerMessage,
} from "../../shared/watch/protocol";
import { readPostPolicy } from "../danmaku/policy";
import { mayPost } from "../danmaku/poster";
import { takeRate } from "../danmaku/rate-limit";
import type { SocketSession } from "../danmaku/room";

/** Request header of a signed-in member's upgrade: their session (URI-encoded JSON SocketSession). */
export const WATCH_SESSION_HEADER = "X-Watch-Session";
/** Request header with the default blocked words (URI-encoded JSON array). */
export const WATCH_WORDS_HEADER = "X-Watch-Words";

/** What a new room starts with (the worker found the title in D1). */
export interface NewRoom {
  owner: string;
  videoId: string;
  title: string;
  episode: number;
  episodeCount: number;
  position: number;
}

interface Attachment {
  /** Null until the socket joined. */
  member: { id: string; nickname: string; joinedAt: number } | null;
  /** The signed-in user's session, or null (may watch, not chat). */
  session: SocketSession | null;
  words: string[];
  /** Control messages in the current window: its start (ms) and count. */
  controls: { since: number; count: number };
}

type ChatRow = { id: number; nickname: string; text: string; at: number };

type ErrorCode = Extract<ServerMessage, { type: "error" }>["code"];

function attachmentOf(ws: WebSocket): Attachment {
  return ws.deserializeAttachment() as Attachment;
}

function parseSession(header: string | null): SocketSession | null {
  if (!header) return null;
  try {
    const value = JSON.parse(decodeURIComponent(header)) as Partial<SocketSession>;
    const { user, accessToken, expiresAt, site } = value;
    if (typeof user !== "string" || typeof accessToken !== "string" || typeof expiresAt !== "number" || typeof site !== "string") return null;
    return { user, accessToken, expiresAt, site };
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

export class WatchRoom extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.createTables();
  }

  private createTables(): void {
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.sql.exec("CREATE TABLE IF NOT EXISTS chat (id INTEGER PRIMARY KEY AUTOINCREMENT, nickname TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL)");
  }

  private read<T>(key: string): T | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  private write(key: string, value: unknown): void {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, JSON.stringify(value));
  }

  /** Opens the room (once: a second call for the same code changes nothing and returns false). It closes CLOSE_AFTER_MS from now unless someone joins. */
  async create(room: NewRoom): Promise<boolean> {
    if (this.read<RoomState>("state")) return false;
    const now = Date.now();
    const state: RoomState = {
      videoId: room.videoId,
      title: room.title,
      episode: room.episode,
      episodeCount: room.episodeCount,
      position: room.position,
      playing: true,
      rate: 1,
      updatedAt: now,
    };
    this.write("state", state);
    this.write("settings", { hostOnly: false } satisfies RoomSettings);
    this.write("owner", room.owner);
    this.write("host", null);
    await this.ctx.storage.setAlarm(now + CLOSE_AFTER_MS);
    return true;
  }

  /** What plays, for the short link's redirect and the page; null once closed (or never opened). */
  summary(): RoomState | null {
    return this.read<RoomState>("state");
  }

  /** The joined members in join order. */
  private members(except?: WebSocket): Array<{ ws: WebSocket; member: Member; joinedAt: number }> {
    const list: Array<{ ws: WebSocket; member: Member; joinedAt: number }> = [];
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === except) continue;
      const a = attachmentOf(ws);
      if (a.member) list.push({ ws, joinedAt: a.member.joinedAt, member: { id: a.member.id, nickname: a.member.nickname, signedIn: a.session !== null } });
    }
    return list.sort((x, y) => x.joinedAt - y.joinedAt || (x.member.id < y.member.id ? -1 : 1));
  }

  /** The WebSocket upgrade (the worker checked the Origin and read the session). */
  override fetch(request: Request): Response {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    const attachment: Attachment = {
      member: null,
      session: parseSession(request.headers.get(WATCH_SESSION_HEADER)),
      words: parseWords(request.headers.get(WATCH_WORDS_HEADER)),
      controls: { since: 0, count: 0 },
    };
    server.serializeAttachment(attachment);
    if (!this.read<RoomState>("state")) {
      fail(server, "closed");
      server.close(4404, "closed");
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
    if (typeof data !== "object" || data === null) return fail(ws, "badRequest");
    const type = (data as { type?: unknown }).type;
    const state = this.read<RoomState>("state");
    if (!state) return fail(ws, "closed");
    const a = attachmentOf(ws);
    if (type === "ping") {
      const t = (data as { t?: unknown }).t;
      return send(ws, { type: "pong", t: typeof t === "number" && Number.isFinite(t) ? t : 0, now: Date.now() });
    }
    if (type === "join") return this.join(ws, a, (data as { nickname?: unknown }).nickname, state);
    if (!a.member) return fail(ws, "notJoined");
    if ((CONTROL_TYPES as readonly unknown[]).includes(type)) return this.control(ws, a, data, state);
    if (type === "settings") return this.settings(ws, a, data);
    if (type === "chat") return this.chat(ws, a, data);
    return fail(ws, "badRequest");
  }

  private async join(ws: WebSocket, a: Attachment, nicknameInput: unknown, state: RoomState): Promise<void> {
    if (a.member) return fail(ws, "badRequest");
    const checked = checkNickname(nicknameInput);
    if (!checked.ok) return fail(ws, checked.code);
    const policy = await readPostPolicy(this.env.DB, "");
    if (containsBlockedWord(checked.nickname, policy.words ?? a.words, toSimplified)) return fail(ws, "nicknameBlocked");
    const present = this.members(ws);
    if (present.length >= MAX_MEMBERS) {
      fail(ws, "full");
      ws.close(4403, "full");
      return;
    }
    const id = crypto.randomUUID().slice(0, 8);
    const now = Date.now();
    ws.serializeAttachment({ ...a, member: { id, nickname: checked.nickname, joinedAt: now } } satisfies Attachment);
    await this.ctx.storage.deleteAlarm();
    let host = this.read<string>("host");
    if (host === null || !present.some((m) => m.member.id === host)) {
      host = id;
      this.write("host", host);
    }
    const members = this.members();
    const chat = this.sql
      .exec<ChatRow>("SELECT id, nickname, text, at FROM chat ORDER BY id")
      .toArray()
      .map((r) => ({ ...r }));
    send(ws, {
      type: "welcome",
      you: id,
      host,
      members: members.map((m) => m.member),
      state,
      settings: this.read<RoomSettings>("settings") ?? { hostOnly: false },
      chat,
      canChat: a.session !== null,
      now: Date.now(),
    });
    this.broadcast({ type: "members", members: members.map((m) => m.member), host }, ws);
  }

  private control(ws: WebSocket, a: Attachment, data: unknown, state: RoomState): void {
    const member = a.member!;
    const now = Date.now();
    const controls = now - a.controls.since >= CONTROL_WINDOW_MS ? { since: now, count: 0 } : a.controls;
    if (controls.count >= CONTROL_MAX) return fail(ws, "tooManyControls");
    ws.serializeAttachment({ ...a, controls: { ...controls, count: controls.count + 1 } } satisfies Attachment);
    const control = parseControl(data);
    if (!control) return fail(ws, "badControl");
    const settings = this.read<RoomSettings>("settings");
    if (settings?.hostOnly && this.read<string>("host") !== member.id) {
      fail(ws, "hostOnly");
      // The member's player snaps back to the room.
      return send(ws, { type: "state", state, by: null, now });
    }
    if (control.type === "episode" && control.episode > state.episodeCount) return fail(ws, "badEpisode");
    const next = applyControl(state, control, now);
    this.write("state", next);
    this.broadcast({ type: "state", state: next, by: member.id, now });
  }

  private settings(ws: WebSocket, a: Attachment, data: unknown): void {
    if (this.read<string>("host") !== a.member!.id) return fail(ws, "notHost");
    const hostOnly = (data as { hostOnly?: unknown }).hostOnly;
    if (typeof hostOnly !== "boolean") return fail(ws, "badRequest");
    const settings: RoomSettings = { hostOnly };
    this.write("settings", settings);
    this.broadcast({ type: "settings", settings });
  }

  private async chat(ws: WebSocket, a: Attachment, data: unknown): Promise<void> {
    const nonceValue = (data as { nonce?: unknown }).nonce;
    const nonce = typeof nonceValue === "string" ? nonceValue.slice(0, 64) : undefined;
    if (!a.session) return fail(ws, "chatNotSignedIn", nonce);
    const text = (data as { text?: unknown }).text;
    const checked = checkDraft({ text, time: 0 }, [], toSimplified);
    if (!checked.ok) return fail(ws, checked.code, nonce);
    let line: ChatLine;
    try {
      const policy = await readPostPolicy(this.env.DB, a.session.user);
      if (containsBlockedWord(checked.draft.text, policy.words ?? a.words, toSimplified)) return fail(ws, "blocked", nonce);
      const standing = await mayPost(this.env, { proof: "token", ...a.session }, Date.now(), policy.mutedUntil);
      if (!standing.ok) {
        if (standing.code === "sessionEnded") ws.serializeAttachment({ ...attachmentOf(ws), session: null } satisfies Attachment);
        return fail(ws, standing.code, nonce, standing.code === "muted" ? standing.message : undefined);
      }
      const rate = await takeRate(this.env, a.session.user);
      if (!rate.ok) return fail(ws, "tooFast", nonce);
      line = this.sql
        .exec<ChatRow>(
          "INSERT INTO chat (nickname, text, at) VALUES (?, ?, ?) RETURNING id, nickname, text, at",
          attachmentOf(ws).member!.nickname,
          checked.draft.text,
          Date.now(),
        )
        .one();
      this.sql.exec("DELETE FROM chat WHERE id <= ?", line.id - CHAT_KEPT);
    } catch (error) {
      console.error("watch: a chat line failed", error);
      return fail(ws, "unavailable", nonce);
    }
    line = { ...line };
    for (const other of this.ctx.getWebSockets()) if (other !== ws && attachmentOf(other).member) send(other, { type: "chat", line });
    send(ws, { type: "chat", line, ...(nonce ? { nonce } : {}) });
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    await this.leave(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.leave(ws);
  }

  /** A member left: the host passes to the member who joined first; the last one out starts the closing clock. */
  private async leave(ws: WebSocket): Promise<void> {
    const a = attachmentOf(ws);
    ws.serializeAttachment({ ...a, member: null } satisfies Attachment);
    if (!this.read<RoomState>("state")) return;
    const rest = this.members(ws);
    if (rest.length === 0) {
      await this.ctx.storage.setAlarm(Date.now() + CLOSE_AFTER_MS);
      return;
    }
    if (!a.member) return;
    const host = nextHost(
      this.read<string>("host"),
      a.member.id,
      rest.map((m) => m.member.id),
    );
    this.write("host", host);
    this.broadcast({ type: "members", members: rest.map((m) => m.member), host }, ws);
  }

  /** CLOSE_AFTER_MS after the last member left (or after the room opened, if nobody came): the room closes for good. */
  override async alarm(): Promise<void> {
    if (this.members().length > 0) return;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(4404, "closed");
      } catch {
        // closed meanwhile
      }
    }
    await this.ctx.storage.deleteAll();
    // This instance may still answer (a late join): the room reads as closed, not as a broken table.
    this.createTables();
  }

  /** Who is host (tests). */
  hostId(): string | null {
    return this.read<string>("host");
  }

  private broadcast(message: ServerMessage, except?: WebSocket): void {
    const text = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === except || !attachmentOf(ws).member) continue;
      try {
        ws.send(text);
      } catch {
        // closing right now
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

function fail(ws: WebSocket, code: ErrorCode, nonce?: string, message?: string): void {
  const text =
    message ?? (code in WATCH_MESSAGES ? WATCH_MESSAGES[code as keyof typeof WATCH_MESSAGES] : DANMAKU_MESSAGES[code as keyof typeof DANMAKU_MESSAGES]);
  send(ws, { type: "error", code, message: text, ...(nonce ? { nonce } : {}) });
}
