/**
 * DanmakuRoom: the Durable Object of one episode's 弹幕 — its coordinator — named by its room key
 * (shared/danmaku/model.ts roomKey; the worker resolves keys in room-id.ts). SQLite storage
 * holds the comments (ids increase; at most MAX_COMMENTS_PER_ROOM, oldest out); a built-in
 * title's room starts with its sample comments. The room holds no socket: viewers' WebSockets
 * live in its shards (DanmakuShard, shard.ts; docs/decisions/0065-danmaku-shards.md), as many as
 * the room needs (`seat` picks one per socket), and the room sends each live shard what it stores
 * and deletes in one batch per tick (SHARD_TICK_MS); a shard tells it how many sockets it still
 * holds, and one with none stops being sent to — an idle room and its shards are evicted and cost
 * nothing (no alarm, no timer left behind). Each post passes admit.ts where it enters (here for
 * DPlayer's POST, in the shard for a socket's post: blocked words and the mute read from D1,
 * policy.ts; whether the author may post, poster.ts and docs/decisions/0041-danmaku-session.md),
 * then here the author's rate limit, kept across all rooms by their DanmakuRateLimit object
 * (rate-limit.ts). 弹幕管理 reaches the room too (docs/decisions/0076-danmaku-moderation.md):
 * every stored comment is indexed in D1 for the cross-room list (several posts in one batch
 * under load: indexPost), and a moderator's delete (remove) leaves the history and, through the
 * shards, every open screen at once.
 */
import { DurableObject } from "cloudflare:workers";
import { SAMPLE_AUTHOR, sampleComments } from "../../shared/danmaku/samples";
import {
  MAX_COMMENTS_PER_ROOM,
  type DanmakuComment,
  type DanmakuDraft,
  type DanmakuErrorCode,
  type DanmakuMode,
  type HexColor,
  type ServerMessage,
} from "../../shared/danmaku/model";
import { chooseShard, shardName, SHARD_TICK_MS } from "../../shared/danmaku/shards";
import { configOf } from "../config";
import { admit } from "./admit";
import { newAuthorKey, publicAuthor } from "./author";
import { indexComments, recordPosts } from "./policy";
import { mayPost } from "./poster";
import { takeRate } from "./rate-limit";
import type { RoomRef } from "./room-id";

/** Most comments one backlog or window read returns. */
export const MAX_READ = 1000;

/** A refusal's `message` replaces DANMAKU_MESSAGES[code] where it names more (a mute's end). */
export type PostResult = { ok: true; comment: DanmakuComment } | { ok: false; code: DanmakuErrorCode; retryAfterMs?: number; message?: string };

/** How long a room remembers a deleted comment's id, to tell sockets that open after the delete (a read up to this old may still hold it). */
export const DELETIONS_KEPT_MS = 60_000;

/** Most posts one D1 index batch holds (the rest wait for the next). */
export const INDEX_BATCH = 100;

/** What the room needs to know about itself (from room-id.ts findRoom). */
export type RoomInfo = Pick<RoomRef, "key" | "sampleSeconds">;

/** The session a socket opened with: the user id, the access token, when it expires (ms) and the site's origin (the token's issuer). */
export interface SocketSession {
  user: string;
  accessToken: string;
  expiresAt: number;
  site: string;
}

/** What a socket's hello needs, as the room answers a shard's `join`: the last id, the backlog after the socket's `after` (null: none) and the ids deleted lately. */
export interface JoinAnswer {
  last: number;
  backlog: DanmakuComment[] | null;
  deleted: number[];
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
  /** The room's key (meta 'key'), read once per instance. */
  private key: string | null = null;
  /** The live shards (table `shards`) with their sockets as last told, and a count of joins to tell a stale "none left" from a current one. */
  private shards: Map<number, { sockets: number; epoch: number }> | null = null;
  /** Messages for the shards' next batch, the pending tick and when the last batch left (ms). */
  private outbox: ServerMessage[] = [];
  private tick: ReturnType<typeof setTimeout> | null = null;
  private lastTick = 0;
  /** Posts waiting for their D1 index batch, and the batch being written. */
  private indexQueue: Array<{ author: string; comment: DanmakuComment; done: () => void }> = [];
  private indexing: Promise<void> | null = null;
  private batchesSent = 0;
  private indexBatches = 0;

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
    // The shards that hold sockets, and how many each held when it last said (docs/decisions/0065-danmaku-shards.md).
    this.sql.exec("CREATE TABLE IF NOT EXISTS shards (idx INTEGER PRIMARY KEY, sockets INTEGER NOT NULL)");
    // The sockets' sessions of before the shards: the shards keep them now.
    this.sql.exec("DROP TABLE IF EXISTS socket_sessions");
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
   * (DPlayer's POST): the checks of admit.ts, then {@link publish}. `words`: the default blocked words.
   */
  async post(room: RoomInfo, author: string, input: unknown, words: readonly string[]): Promise<PostResult> {
    this.ensureSamples(room);
    this.ensureIndexed(room);
    const admitted = await admit(this.env, author, input, words, (mutedUntil) => mayPost(this.env, { user: author, proof: "request" }, Date.now(), mutedUntil));
    return admitted.ok ? this.publish(room, author, admitted.draft) : admitted;
  }

  /**
   * Stores a comment that passed admit.ts, after its author's rate limit (all rooms together:
   * rate-limit.ts): the comment goes out to every shard with the next tick, and the answer waits
   * for the D1 index write that holds it (group commit, {@link indexPost}) — a comment its poster
   * saw acknowledged can be found by a moderator. Called by {@link post} and, for posts over a
   * socket, by the socket's shard (shard.ts) as an RPC. A refused comment does not count.
   */
  async publish(room: RoomInfo, author: string, draft: DanmakuDraft): Promise<PostResult> {
    this.ensureSamples(room);
    this.ensureIndexed(room);
    const rate = await takeRate(this.env, author);
    if (!rate.ok) return { ok: false, code: "tooFast", retryAfterMs: rate.retryAfterMs };
    const { comment, row } = this.storeRow(author, draft);
    await this.indexPost(room.key, author, toComment(row));
    return { ok: true, comment };
  }

  /**
   * Queues a stored comment for the D1 index and resolves once a batch holding it was written: one
   * batch is written at a time, and the posts that arrive meanwhile go together in the next (at
   * most INDEX_BATCH) — one D1 round trip per post while posts are rare, far fewer than one per
   * post in a burst, and no timer.
   */
  private indexPost(key: string, author: string, comment: DanmakuComment): Promise<void> {
    return new Promise((resolve) => {
      this.indexQueue.push({ author, comment, done: resolve });
      if (!this.indexing) this.indexing = this.writeIndex(key);
    });
  }

  private async writeIndex(key: string): Promise<void> {
    try {
      while (this.indexQueue.length > 0) {
        const batch = this.indexQueue.splice(0, INDEX_BATCH);
        await recordPosts(this.env.DB, key, batch);
        this.indexBatches++;
        for (const entry of batch) entry.done();
      }
    } finally {
      this.indexing = null;
    }
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

  /** Stores and broadcasts a checked comment (no rate limit, no index: {@link publish} adds them). */
  store(author: string, draft: DanmakuDraft): DanmakuComment {
    return this.storeRow(author, draft).comment;
  }

  private storeRow(author: string, draft: DanmakuDraft): { comment: DanmakuComment; row: Row } {
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
    return { comment, row };
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

  /** The room's key, as the routes named it (kept for naming its shards: the fan-out has no request to read it from). */
  private roomKey(room?: RoomInfo): string | null {
    if (room?.key && this.key !== room.key) {
      this.key = room.key;
      this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('key', ?)", room.key);
    }
    this.key ??= this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'key'").toArray()[0]?.value ?? null;
    return this.key;
  }

  /** The sockets of each live shard (its `shards` rows, read once per instance). */
  private liveShards(): Map<number, { sockets: number; epoch: number }> {
    if (!this.shards) {
      this.shards = new Map();
      for (const row of this.sql.exec<{ idx: number; sockets: number }>("SELECT idx, sockets FROM shards").toArray())
        this.shards.set(row.idx, { sockets: row.sockets, epoch: 0 });
    }
    return this.shards;
  }

  private countShard(index: number, sockets: number): void {
    const shard = this.liveShards().get(index);
    if (shard) shard.sockets = sockets;
    else this.liveShards().set(index, { sockets, epoch: 0 });
    this.sql.exec("INSERT OR REPLACE INTO shards (idx, sockets) VALUES (?, ?)", index, sockets);
  }

  /**
   * Which shard a new socket joins (the worker asks before the upgrade, api.ts): the least loaded
   * live shard with fewer than `size` sockets, else a new one (shared/danmaku/shards.ts
   * chooseShard). The socket is counted at once, so a burst of upgrades spreads.
   */
  seat(room: RoomInfo, size: number): number {
    this.ensureSamples(room);
    this.ensureIndexed(room);
    this.roomKey(room);
    const shards = this.liveShards();
    const index = chooseShard(new Map([...shards].map(([i, s]) => [i, s.sockets])), Math.max(1, size));
    this.countShard(index, (shards.get(index)?.sockets ?? 0) + 1);
    const shard = shards.get(index);
    if (shard) shard.epoch++;
    return index;
  }

  /**
   * A socket joins shard `index` (asked by the shard, shard.ts, before it accepts the socket): the
   * shard is live from now on — every comment stored after this answer goes to it — and gets what
   * the socket's hello needs: the last id, the backlog after `after` and the ids deleted lately.
   * One synchronous step, so no comment falls between the answer and the shard's first batch.
   * `sockets`: what the shard holds, the new one included.
   */
  join(room: RoomInfo, index: number, after: number | null, sockets: number): JoinAnswer {
    this.ensureSamples(room);
    this.ensureIndexed(room);
    this.roomKey(room);
    this.countShard(index, sockets);
    const shard = this.liveShards().get(index);
    if (shard) shard.epoch++;
    const last = this.sql.exec<{ last: number | null }>("SELECT MAX(id) AS last FROM comments").one().last ?? 0;
    const backlog =
      after !== null && after < last
        ? this.sql
            .exec<Row>("SELECT * FROM comments WHERE id > ? ORDER BY id LIMIT ?", after, MAX_READ)
            .toArray()
            .map((row) => this.toPublic(row))
        : null;
    // Deleted lately: the page's window read (cached for a few seconds) may still hold them.
    const deleted = this.sql
      .exec<{ id: number }>("SELECT id FROM deletions WHERE at > ? ORDER BY id", Date.now() - DELETIONS_KEPT_MS)
      .toArray()
      .map((d) => d.id);
    return { last, backlog, deleted };
  }

  /** Queues a message for every shard: it leaves with the next tick (at most one batch per SHARD_TICK_MS). */
  private broadcast(message: ServerMessage): void {
    this.outbox.push(message);
    if (this.tick) return;
    const wait = Math.max(0, this.lastTick + SHARD_TICK_MS - Date.now());
    this.tick = setTimeout(() => this.flush(), wait);
  }

  /** Sends the queued messages to every live shard, one RPC each, in parallel; a shard that answers with no socket left stops being live. */
  private flush(): void {
    this.tick = null;
    this.lastTick = Date.now();
    const batch = this.outbox;
    this.outbox = [];
    const key = this.roomKey();
    if (batch.length === 0 || key === null) return;
    for (const [index, shard] of this.liveShards()) {
      const epoch = shard.epoch;
      this.ctx.waitUntil(this.deliver(key, index, batch, epoch));
    }
    this.batchesSent += this.liveShards().size;
  }

  private async deliver(key: string, index: number, batch: ServerMessage[], epoch: number): Promise<void> {
    const stub = this.env.DANMAKU_SHARD.get(this.env.DANMAKU_SHARD.idFromName(shardName(key, index)));
    let sockets: number;
    try {
      sockets = await stub.deliver(batch);
    } catch {
      try {
        // Once more, on a fresh stub (a broken stub throws for good).
        sockets = await this.env.DANMAKU_SHARD.get(this.env.DANMAKU_SHARD.idFromName(shardName(key, index))).deliver(batch);
      } catch (error) {
        console.error(`danmaku: shard ${index} of ${key} missed a batch`, error);
        return;
      }
    }
    const shard = this.liveShards().get(index);
    if (!shard) return;
    // No socket left, and none joined since this batch left: the shard may sleep.
    if (sockets === 0 && shard.epoch === epoch) {
      this.liveShards().delete(index);
      this.sql.exec("DELETE FROM shards WHERE idx = ?", index);
    } else if (sockets !== shard.sockets && shard.epoch === epoch) this.countShard(index, sockets);
  }

  /** What this instance sent (tests, the bench): fan-out RPCs to shards and D1 index batches. */
  traffic(): { shardBatches: number; indexBatches: number; shards: Record<number, number> } {
    return {
      shardBatches: this.batchesSent,
      indexBatches: this.indexBatches,
      shards: Object.fromEntries([...this.liveShards()].map(([i, s]) => [i, s.sockets])),
    };
  }
}
