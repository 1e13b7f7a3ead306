/**
 * 操作日志: one row per admin write (who, when, what, on what, before → after) in D1's
 * `admin_audit` (migrations/0010_admin.sql). Written in the same batch as the change it records.
 * Nothing in the site updates or deletes a row — there is no such route or function, and rows are
 * kept for good (docs/admin.md); D1 itself cannot forbid it to someone with the database's
 * credentials (`wrangler d1 execute`), which only the operator's Cloudflare login has.
 */
import type { SqlStatement } from "../../shared/admin/account-roles";

export interface AuditEntry {
  actorId: string;
  actorEmail: string;
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
}

export interface AuditRecord {
  id: number;
  at: number;
  actorEmail: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

interface AuditRow {
  id: number;
  at: number;
  actor_email: string;
  action: string;
  target: string;
  before_value: string | null;
  after_value: string | null;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** The audit row of `entry`, as a statement to run with the change itself. */
export function auditStatement(entry: AuditEntry, nowMs: number): SqlStatement {
  return {
    sql: "INSERT INTO admin_audit (at, actor_id, actor_email, action, target, before_value, after_value) VALUES (?, ?, ?, ?, ?, ?, ?)",
    params: [nowMs, entry.actorId, entry.actorEmail, entry.action, entry.target, json(entry.before), json(entry.after)],
  };
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** Part of the target (an e-mail, 站点设置, …). */
  target?: string;
  /** From this time on (epoch ms, inclusive). */
  from?: number;
  /** Before this time (epoch ms). */
  to?: number;
  /** Entries older than this id (the next page). */
  beforeId?: number;
  limit: number;
}

const parse = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/** The newest entries first, filtered by actor e-mail, action, target and time. */
export async function readAudit(db: D1Database, filter: AuditFilter): Promise<AuditRecord[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.actor) {
    where.push("actor_email = ?");
    params.push(filter.actor.trim().toLowerCase());
  }
  if (filter.action) {
    where.push("action = ?");
    params.push(filter.action.trim());
  }
  if (filter.target) {
    where.push("target LIKE ? ESCAPE '\\'");
    params.push(`%${filter.target.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
  }
  if (filter.from !== undefined) {
    where.push("at >= ?");
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("at < ?");
    params.push(filter.to);
  }
  if (filter.beforeId !== undefined) {
    where.push("id < ?");
    params.push(filter.beforeId);
  }
  const sql =
    "SELECT id, at, actor_email, action, target, before_value, after_value FROM admin_audit" +
    (where.length ? ` WHERE ${where.join(" AND ")}` : "") +
    " ORDER BY id DESC LIMIT ?";
  const { results } = await db
    .prepare(sql)
    .bind(...params, filter.limit)
    .all<AuditRow>();
  return results.map((r) => ({
    id: r.id,
    at: r.at,
    actorEmail: r.actor_email,
    action: r.action,
    target: r.target,
    before: parse(r.before_value),
    after: parse(r.after_value),
  }));
}

/** A statement of shared/admin/account-roles.ts (or this module) bound to `db`. */
export function prepared(db: D1Database, statement: SqlStatement): D1PreparedStatement {
  return db.prepare(statement.sql).bind(...statement.params);
}

/** A day (YYYY-MM-DD) in Asia/Shanghai (UTC+8, no summer time) as its first millisecond; null when it is not one. */
export function shanghaiDayStart(text: string | undefined): number | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00+08:00`);
  return Number.isNaN(ms) ? null : ms;
}

/** The filter of a query string (the page's form and the JSON API): actor, action, target, from and to (days, Asia/Shanghai). */
export function auditFilterOf(query: (name: string) => string | undefined, limit: number): AuditFilter {
  const text = (name: string) => (query(name) ?? "").trim() || undefined;
  const from = shanghaiDayStart(text("from"));
  const to = shanghaiDayStart(text("to"));
  const before = Number(query("before"));
  return {
    actor: text("actor"),
    action: text("action"),
    target: text("target"),
    from: from ?? undefined,
    to: to === null ? undefined : to + 86_400_000,
    beforeId: Number.isInteger(before) && before > 0 ? before : undefined,
    limit,
  };
}
