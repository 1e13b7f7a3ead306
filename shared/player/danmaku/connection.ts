/**
 * The room connection of one video: the stored comments over HTTP, then the live WebSocket.
 * A dropped socket comes back (1 s, 2 s, … up to 30 s) asking for everything after the last id
 * it saw, so nothing is missed twice or shown twice (the stage drops known ids). A socket whose
 * session ended (signed out, or its access token expired) is read only: its refused post, and the
 * next ones, go as DPlayer's POST, which refreshes a live session or answers in Chinese. Comments
 * a moderator deleted arrive as a `delete` message and leave the stage. When the room cannot be
 * reached (its stored comments answer 5xx or nothing, or a socket closes before the room greets
 * it) the page is told, quietly, and the retries go on; the room's greeting ends it.
 */
import type { DanmakuComment, DanmakuDraft, ServerMessage } from "../../danmaku/model";

export interface ConnectionEvents {
  comments(comments: DanmakuComment[], live: boolean): void;
  /** Whether the socket may post (signed in when it opened). */
  canPost(can: boolean): void;
  /** Comments deleted by a moderator (弹幕管理): off the screen, never shown again. */
  removed(ids: number[]): void;
  /** Whether the room can be reached (false: the 弹幕 service is down for now; the video plays on). */
  reachable(up: boolean): void;
}

export type SendResult = { ok: true; comment: DanmakuComment } | { ok: false; message: string };

const GENERIC_ERROR = "发送失败，请稍后再试";

export class DanmakuConnection {
  private ws: WebSocket | null = null;
  private last = 0;
  private closed = false;
  private retry = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private socketCanPost = false;
  /** The open socket was greeted by the room. */
  private greeted = false;
  private readonly pending = new Map<string, { draft: DanmakuDraft; resolve: (result: SendResult) => void }>();

  constructor(
    /** The room key (shared/danmaku/model.ts roomKey). */
    private readonly room: string,
    private readonly events: ConnectionEvents,
  ) {
    void this.start();
  }

  private async start(): Promise<void> {
    try {
      const res = await fetch(`/api/danmaku/${encodeURIComponent(this.room)}`, { credentials: "same-origin" });
      if (res.ok) {
        const body = await res.json<{ comments: DanmakuComment[] }>();
        this.note(body.comments);
        this.events.comments(body.comments, false);
      } else if (res.status >= 500) this.events.reachable(false);
    } catch {
      // the socket's backlog still brings what is new
      this.events.reachable(false);
    }
    this.open();
  }

  private note(comments: readonly DanmakuComment[]): void {
    for (const c of comments) this.last = Math.max(this.last, c.id);
  }

  private open(): void {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const after = this.last > 0 ? `?after=${this.last}` : "";
    const ws = new WebSocket(`${scheme}//${location.host}/api/danmaku/${encodeURIComponent(this.room)}/ws${after}`);
    this.ws = ws;
    this.greeted = false;
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = () => {
      this.ws = null;
      if (!this.greeted && !this.closed) this.events.reachable(false);
      this.socketCanPost = false;
      for (const [, { resolve }] of this.pending) resolve({ ok: false, message: GENERIC_ERROR });
      this.pending.clear();
      if (this.closed) return;
      const delay = Math.min(30_000, 1000 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  private receive(data: unknown): void {
    if (typeof data !== "string") return;
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === "hello") {
      this.retry = 0;
      this.greeted = true;
      this.events.reachable(true);
      this.socketCanPost = message.canPost;
      this.events.canPost(message.canPost);
    } else if (message.type === "backlog") {
      this.note(message.comments);
      this.events.comments(message.comments, false);
    } else if (message.type === "comment") {
      this.note([message.comment]);
      this.events.comments([message.comment], true);
    } else if (message.type === "comments") {
      this.note(message.comments);
      this.events.comments(message.comments, true);
    } else if (message.type === "delete") {
      this.events.removed(message.ids);
    } else if (message.type === "ack") {
      this.note([message.comment]);
      this.pending.get(message.nonce)?.resolve({ ok: true, comment: message.comment });
      this.pending.delete(message.nonce);
    } else if (message.type === "error" && message.nonce) {
      const waiting = this.pending.get(message.nonce);
      this.pending.delete(message.nonce);
      if (message.code === "sessionEnded") {
        this.socketCanPost = false;
        if (waiting) void this.post(waiting.draft).then(waiting.resolve);
      } else waiting?.resolve({ ok: false, message: message.message });
    }
  }

  /** Posts over the socket when it may, else as DPlayer's POST (which also refreshes the session). */
  async send(draft: DanmakuDraft): Promise<SendResult> {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN && this.socketCanPost) {
      const nonce = crypto.randomUUID();
      return new Promise<SendResult>((resolve) => {
        this.pending.set(nonce, { draft, resolve });
        ws.send(JSON.stringify({ type: "post", nonce, ...draft }));
      });
    }
    return this.post(draft);
  }

  /** DPlayer's POST of a comment. */
  private async post(draft: DanmakuDraft): Promise<SendResult> {
    try {
      const res = await fetch("/api/danmaku/v3/", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: this.room, time: draft.time, text: draft.text, color: draft.color, type: { scroll: 0, top: 1, bottom: 2 }[draft.mode] }),
      });
      const body = await res.json<{ code: number; msg?: string; data?: DanmakuComment }>();
      if (body.code === 0 && body.data) {
        this.note([body.data]);
        return { ok: true, comment: body.data };
      }
      return { ok: false, message: body.msg ?? GENERIC_ERROR };
    } catch {
      return { ok: false, message: GENERIC_ERROR };
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
  }
}
