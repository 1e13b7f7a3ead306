/**
 * 操作日志: one row per admin write (who, when, what, on what, before → after) in D1's
 * `admin_audit` (migrations/0010_admin.sql). Written in the same batch as the change it records;
 * nothing updates or deletes a row.
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
  /** Entries older than this id (the next page). */
  beforeId?: number;
  limit: number;
}

const parse = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/** The newest entries first, filtered by actor e-mail and action. */
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
