/**
 * DanmakuRateLimit: one Durable Object per user (named by the user id) holding the times of
 * their recent 弹幕, so the limit (shared/danmaku/model.ts rateCheck: about one per 2 s, at
 * most 30 per 10 minutes) counts every room together. The room asks it (`take`) after a comment
 * passed its own checks and before storing it; the check and the record are one synchronous
 * step, so two rooms asking at once cannot both slip through. An alarm empties the table
 * WINDOW_MS after the last post: a user who stopped posting leaves nothing stored.
 */
import { DurableObject } from "cloudflare:workers";
import { rateCheck, WINDOW_MS } from "../../shared/danmaku/model";
import { withDeadline } from "../deadline";
import { STORAGE_TIMEOUT_MS } from "../outside-calls";

export type RateResult = { ok: true } | { ok: false; retryAfterMs: number };

export class DanmakuRateLimit extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS posts (at INTEGER NOT NULL)");
  }

  /** Whether the user may post now; if so the post is counted. */
  async take(): Promise<RateResult> {
    const now = Date.now();
    this.sql.exec("DELETE FROM posts WHERE at <= ?", now - WINDOW_MS);
    const recent = this.sql
      .exec<{ at: number }>("SELECT at FROM posts")
      .toArray()
      .map((r) => r.at);
    const rate = rateCheck(recent, now);
    if (!rate.ok) return rate;
    this.sql.exec("INSERT INTO posts (at) VALUES (?)", now);
    await this.ctx.storage.setAlarm(now + WINDOW_MS);
    return { ok: true };
  }

  override alarm(): void {
    this.sql.exec("DELETE FROM posts WHERE at <= ?", Date.now() - WINDOW_MS);
  }
}

/** Asks the user's limiter whether they may post now (and counts the post if so). */
export function takeRate(env: Env, userId: string): Promise<RateResult> {
  // A room's env is not the request's: the deadline is kept here (worker/outside-calls.ts).
  const asked: Promise<RateResult> = Promise.resolve(env.DANMAKU_LIMIT.get(env.DANMAKU_LIMIT.idFromName(userId)).take());
  return withDeadline(asked, STORAGE_TIMEOUT_MS, "DANMAKU_LIMIT.take");
}
