/**
 * PlayShard: the play counter's Durable Objects (docs/decisions/0060-plays-aggregation.md). A
 * beacon goes to the shard of its viewer key (PLAY_SHARDS of them, chosen by the key), which
 * decides alone whether it counts: the viewer's visit of the title that day lives there (the
 * once-per-day rule), and the network's hourly limit lives in the shard of the network key
 * (the same shard for an anonymous viewer, whose viewer key is the network key; one RPC to
 * another shard for a signed-in one). A counted play is added to the shard's `pending` table
 * before the beacon is answered: SQLite storage of the object, a durable buffer that outlives
 * the object and the isolate. An alarm sends the buffer to D1 every FLUSH_INTERVAL_MS as
 * flushes (worker/plays/flush.ts), each applied exactly once, however often it is sent.
 */
import { DurableObject } from "cloudflare:workers";
import { withDeadline } from "../deadline";
import { utcDay } from "../../shared/ranking";
import { applyFlush, FLUSH_RETENTION_DAYS, FLUSH_ROWS, oldestKeptDay, type FlushRow } from "./flush";
import type { PlayKeys } from "./visitor";

/** Shards per site: a spike of plays on one title spreads over all of them (about 300 a second each at 10,000 a second). */
export const PLAY_SHARDS = 32;

/** How long a counted play waits in its shard before it is in D1 (the 排行榜 and the pages' counts). */
export const FLUSH_INTERVAL_MS = 10_000;

/** After a failed flush (D1 down or slow), the next try. */
export const FLUSH_RETRY_MS = 30_000;

/** The most one flush waits for D1 before it counts as failed (it is sent again later, applied once). */
export const FLUSH_DEADLINE_MS = 15_000;

/**
 * The most plays one network (an IPv4 address, an IPv6 /64) has counted per hour, across titles:
 * a household watching well above what people do (a play is 10 s of real playback), far below
 * what a script needs to move the 排行榜. Plays over it answer {"counted": false}, like a repeat.
 */
export const PLAY_LIMIT = { plays: 30, windowMs: 3_600_000 } as const;

export interface ShardPlay extends PlayKeys {
  titleId: string;
  /** UTC day of `nowMs`. */
  day: string;
  nowMs: number;
}

export type ShardOutcome = "counted" | "repeat" | "limited";

export const playShardName = (shard: number): string => `plays-${shard}`;

/** The shard of a key (base64url of an HMAC, so its characters are already uniform). */
export function shardOf(key: string): number {
  let hash = 0;
  for (let i = 0; i < Math.min(key.length, 8); i++) hash = (hash * 64 + key.charCodeAt(i)) % 1_000_003;
  return hash % PLAY_SHARDS;
}

export function playShard(env: Env, shard: number): DurableObjectStub<PlayShard> {
  return env.PLAYS.get(env.PLAYS.idFromName(playShardName(shard)));
}

export class PlayShard extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** When the next alarm is known to fire (ms), as this instance set or read it; null: unknown. */
  private alarmAt: number | null = null;
  /** Flushes run one after the other (the alarm and a test's flush() may meet). */
  private flushing: Promise<unknown> = Promise.resolve();
  private cleanedDay = "";

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS visits (day TEXT NOT NULL, viewer TEXT NOT NULL, title TEXT NOT NULL, PRIMARY KEY (day, viewer, title)) WITHOUT ROWID;" +
        "CREATE TABLE IF NOT EXISTS network_plays (network TEXT NOT NULL, at INTEGER NOT NULL);" +
        "CREATE INDEX IF NOT EXISTS network_plays_by_network ON network_plays (network, at);" +
        "CREATE INDEX IF NOT EXISTS network_plays_by_at ON network_plays (at);" +
        "CREATE TABLE IF NOT EXISTS pending (title TEXT NOT NULL, day TEXT NOT NULL, plays INTEGER NOT NULL, PRIMARY KEY (title, day)) WITHOUT ROWID;" +
        "CREATE TABLE IF NOT EXISTS outbox (flush TEXT NOT NULL, title TEXT NOT NULL, day TEXT NOT NULL, plays INTEGER NOT NULL, PRIMARY KEY (flush, title, day)) WITHOUT ROWID;",
    );
  }

  /**
   * Counts one play of a viewer whose key belongs to this shard. The checks and the records are
   * synchronous SQL (no other request runs in between), except the network's limit when it lives
   * in another shard: the visit is recorded before asking, so a second beacon of the same viewer
   * meanwhile is a repeat, and taken back when the network is over its limit.
   */
  async count(play: ShardPlay): Promise<ShardOutcome> {
    this.forgetOldVisits(play.day);
    const seen = this.sql.exec("SELECT 1 FROM visits WHERE day = ? AND viewer = ? AND title = ?", play.day, play.viewer, play.titleId).toArray();
    if (seen.length > 0) return "repeat";
    this.sql.exec("INSERT INTO visits (day, viewer, title) VALUES (?, ?, ?)", play.day, play.viewer, play.titleId);
    const networkShard = shardOf(play.network);
    let allowed: boolean;
    try {
      allowed =
        networkShard === shardOf(play.viewer)
          ? this.takeSlot(play.network, play.nowMs)
          : await playShard(this.env, networkShard).takeSlot(play.network, play.nowMs);
    } catch (error) {
      this.sql.exec("DELETE FROM visits WHERE day = ? AND viewer = ? AND title = ?", play.day, play.viewer, play.titleId);
      throw error;
    }
    if (!allowed) {
      this.sql.exec("DELETE FROM visits WHERE day = ? AND viewer = ? AND title = ?", play.day, play.viewer, play.titleId);
      return "limited";
    }
    this.sql.exec("INSERT INTO pending (title, day, plays) VALUES (?, ?, 1) ON CONFLICT (title, day) DO UPDATE SET plays = plays + 1", play.titleId, play.day);
    await this.scheduleFlush(FLUSH_INTERVAL_MS);
    return "counted";
  }

  /** Whether the network may count one more play now (PLAY_LIMIT); if so, it is recorded. */
  takeSlot(network: string, nowMs: number): boolean {
    const since = nowMs - PLAY_LIMIT.windowMs;
    this.sql.exec("DELETE FROM network_plays WHERE at <= ?", since);
    const recent = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM network_plays WHERE network = ? AND at > ?", network, since).one().n;
    if (recent >= PLAY_LIMIT.plays) return false;
    this.sql.exec("INSERT INTO network_plays (network, at) VALUES (?, ?)", network, nowMs);
    return true;
  }

  /** Sends every buffered play to D1 now; resolves once they are there (the alarm, and tests). */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.flushNow());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** Plays waiting in this shard, not yet in D1 (tests, the bench). */
  waiting(): number {
    const pending = this.sql.exec<{ n: number }>("SELECT COALESCE(SUM(plays), 0) AS n FROM pending").one().n;
    const outbox = this.sql.exec<{ n: number }>("SELECT COALESCE(SUM(plays), 0) AS n FROM outbox").one().n;
    return pending + outbox;
  }

  override async alarm(): Promise<void> {
    this.alarmAt = null;
    try {
      await this.flush();
    } catch (error) {
      console.error(`plays: flush failed, retrying in ${FLUSH_RETRY_MS / 1000} s: ${String(error)}`);
      await this.setAlarm(FLUSH_RETRY_MS);
      return;
    }
    // Plays counted during the flush.
    if (this.waiting() > 0) return this.setAlarm(FLUSH_INTERVAL_MS);
    // An idle shard wakes once more when its oldest visits expire, so it keeps nothing past the retention.
    const oldest = this.sql.exec<{ day: string | null }>("SELECT MIN(day) AS day FROM visits").one().day;
    if (oldest) await this.setAlarm(Math.max(FLUSH_INTERVAL_MS, Date.parse(`${oldest}T00:00:00Z`) + (FLUSH_RETENTION_DAYS + 1) * 86_400_000 - Date.now()));
  }

  private async setAlarm(delayMs: number): Promise<void> {
    this.alarmAt = Date.now() + delayMs;
    await this.ctx.storage.setAlarm(this.alarmAt);
  }

  private async flushNow(): Promise<void> {
    this.forgetOldVisits(utcDay(Date.now()));
    this.sql.exec("DELETE FROM network_plays WHERE at <= ?", Date.now() - PLAY_LIMIT.windowMs);
    // Pending plays become flushes with ids chosen now and kept in storage: after a restart the
    // same flush is sent again, and D1's ledger applies it once.
    this.ctx.storage.transactionSync(() => {
      const rows = this.sql.exec<{ title: string; day: string; plays: number }>("SELECT title, day, plays FROM pending").toArray();
      for (let i = 0; i < rows.length; i += FLUSH_ROWS) {
        const flush = crypto.randomUUID();
        for (const row of rows.slice(i, i + FLUSH_ROWS)) {
          this.sql.exec("INSERT INTO outbox (flush, title, day, plays) VALUES (?, ?, ?, ?)", flush, row.title, row.day, row.plays);
        }
      }
      this.sql.exec("DELETE FROM pending");
    });
    const flushes = new Map<string, FlushRow[]>();
    for (const row of this.sql.exec<{ flush: string; title: string; day: string; plays: number }>("SELECT flush, title, day, plays FROM outbox").toArray()) {
      const rows = flushes.get(row.flush) ?? [];
      rows.push({ title: row.title, day: row.day, plays: row.plays });
      flushes.set(row.flush, rows);
    }
    for (const [flush, rows] of flushes) {
      await withDeadline(applyFlush(this.env.DB, flush, rows, Date.now()), FLUSH_DEADLINE_MS, "D1 play flush");
      this.sql.exec("DELETE FROM outbox WHERE flush = ?", flush);
    }
  }

  /**
   * Makes sure an alarm will flush within `delayMs`: one storage read per instance while such an
   * alarm is known to be ahead. An alarm in the past is running (or about to): its handler may
   * already have looked for waiting plays, so a new one is set — setting an alarm during a
   * handler keeps the new one. A later alarm (the idle clean-up) is brought forward.
   */
  private async scheduleFlush(delayMs: number): Promise<void> {
    const now = Date.now();
    // An alarm ahead but no later than a flush's: it flushes. (A later one is the idle clean-up's.)
    const soonEnough = (at: number | null) => at !== null && at > now && at <= now + delayMs;
    if (soonEnough(this.alarmAt)) return;
    const scheduled = await this.ctx.storage.getAlarm();
    if (soonEnough(scheduled)) {
      this.alarmAt = scheduled;
      return;
    }
    await this.setAlarm(delayMs);
  }

  /** Visits and network plays of days past the retention go, once per day per instance. */
  private forgetOldVisits(day: string): void {
    if (this.cleanedDay === day) return;
    this.cleanedDay = day;
    this.sql.exec("DELETE FROM visits WHERE day < ?", oldestKeptDay(day));
  }
}
