/**
 * 举报 in the 管理后台 (both roles): the queue of reports (migrations/0015_reports.sql) grouped by
 * title with counts, filtered by kind and status, a page of groups at a time; resolving or
 * dismissing one report or every open report of a title (of the kind filtered), each with its
 * 操作日志 row in the same D1 batch — written only when a report actually changed.
 */
import { KIND_NAMES, REPORT_KINDS, REPORT_STATUSES, STATUS_NAMES, type ReportKind, type ReportStatus } from "../../shared/reports/model";
import { isTitleId } from "../../shared/catalogue/title-ids";
import type { AdminVisitor } from "./access";
import type { Refusal, Result } from "./actions";
import { auditStatement, prepared } from "./audit";

/** Titles a page of the queue shows. */
export const GROUPS_PER_PAGE = 20;
/** Reports shown under a title (the newest); the count says how many there are. */
export const REPORTS_PER_GROUP = 20;

export interface ReportQuery {
  kind: ReportKind | "";
  status: ReportStatus;
  page: number;
}

export function reportQueryOf(query: (name: string) => string | undefined): ReportQuery {
  const kind = query("kind") ?? "";
  const status = query("status") ?? "";
  const page = Number(query("page"));
  return {
    kind: (REPORT_KINDS as readonly string[]).includes(kind) ? (kind as ReportKind) : "",
    status: (REPORT_STATUSES as readonly string[]).includes(status) ? (status as ReportStatus) : "open",
    page: Number.isInteger(page) && page > 1 && page < 100_000 ? page : 1,
  };
}

export interface QueuedReport {
  id: number;
  kind: ReportKind;
  episode: number;
  reason: string;
  note: string | null;
  /** The reported 弹幕's text (as it was when reported), its id and time. */
  targetId: string | null;
  targetText: string | null;
  targetTime: number | null;
  signedIn: boolean;
  createdAt: number;
  status: ReportStatus;
  resolvedBy: string | null;
  resolvedAt: number | null;
}

export interface ReportGroup {
  titleId: string;
  /** The title's name; the id when the title is gone from the catalogue. */
  title: string;
  count: number;
  byKind: Partial<Record<ReportKind, number>>;
  latest: number;
  reports: QueuedReport[];
}

export interface ReportQueue {
  query: ReportQuery;
  groups: ReportGroup[];
  /** Titles with reports under the filter, and the reports. */
  titles: number;
  reports: number;
  pages: number;
}

interface GroupRow {
  title_id: string;
  title: string | null;
  count: number;
  danmaku: number;
  playback: number;
  comment: number;
  latest: number;
}

interface ReportRow {
  id: number;
  kind: ReportKind;
  title_id: string;
  episode: number;
  reason: string;
  note: string | null;
  target_id: string | null;
  target_text: string | null;
  target_time: number | null;
  reporter_id: string | null;
  created_at: number;
  status: ReportStatus;
  resolved_by: string | null;
  resolved_at: number | null;
}

/** The queue: titles with the most reports (then the newest) first, GROUPS_PER_PAGE a page. */
export async function reportQueue(db: D1Database, query: ReportQuery): Promise<ReportQueue> {
  const where = "status = ?1 AND (?2 = '' OR kind = ?2)";
  const totals = await db
    .prepare(`SELECT COUNT(DISTINCT title_id) AS titles, COUNT(*) AS reports FROM reports WHERE ${where}`)
    .bind(query.status, query.kind)
    .first<{ titles: number; reports: number }>();
  const titles = totals?.titles ?? 0;
  const pages = Math.max(1, Math.ceil(titles / GROUPS_PER_PAGE));
  const { results: groupRows } = await db
    .prepare(
      `SELECT r.title_id, t.title, COUNT(*) AS count, SUM(r.kind = 'danmaku') AS danmaku, SUM(r.kind = 'playback') AS playback, SUM(r.kind = 'comment') AS comment, MAX(r.created_at) AS latest
         FROM reports r LEFT JOIN titles t ON t.id = r.title_id
        WHERE r.status = ?1 AND (?2 = '' OR r.kind = ?2)
        GROUP BY r.title_id ORDER BY count DESC, latest DESC, r.title_id LIMIT ?3 OFFSET ?4`,
    )
    .bind(query.status, query.kind, GROUPS_PER_PAGE, (query.page - 1) * GROUPS_PER_PAGE)
    .all<GroupRow>();
  const ids = groupRows.map((g) => g.title_id);
  const { results: reportRows } = ids.length
    ? await db
        .prepare(
          `SELECT * FROM (
             SELECT *, ROW_NUMBER() OVER (PARTITION BY title_id ORDER BY created_at DESC, id DESC) AS n
               FROM reports WHERE ${where} AND title_id IN (SELECT value FROM json_each(?3))
           ) WHERE n <= ?4 ORDER BY created_at DESC, id DESC`,
        )
        .bind(query.status, query.kind, JSON.stringify(ids), REPORTS_PER_GROUP)
        .all<ReportRow>()
    : { results: [] as ReportRow[] };
  const groups = groupRows.map((g): ReportGroup => ({
    titleId: g.title_id,
    title: g.title ?? g.title_id,
    count: g.count,
    byKind: { danmaku: g.danmaku, playback: g.playback, comment: g.comment },
    latest: g.latest,
    reports: reportRows.filter((r) => r.title_id === g.title_id).map(queued),
  }));
  return { query, groups, titles, reports: totals?.reports ?? 0, pages };
}

const queued = (r: ReportRow): QueuedReport => ({
  id: r.id,
  kind: r.kind,
  episode: r.episode,
  reason: r.reason,
  note: r.note,
  targetId: r.target_id,
  targetText: r.target_text,
  targetTime: r.target_time,
  signedIn: r.reporter_id !== null,
  createdAt: r.created_at,
  status: r.status,
  resolvedBy: r.resolved_by,
  resolvedAt: r.resolved_at,
});

export type SettleAction = "resolve" | "dismiss";
export const SETTLE_NAMES: Record<SettleAction, string> = { resolve: "处理", dismiss: "驳回" };
const SETTLED: Record<SettleAction, ReportStatus> = { resolve: "resolved", dismiss: "dismissed" };

const refusal = (status: Refusal["status"], code: string, message: string): Refusal => ({ ok: false, status, code, message });

export function settleActionOf(value: unknown): SettleAction | null {
  return value === "resolve" || value === "dismiss" ? value : null;
}

async function titleName(db: D1Database, titleId: string): Promise<string> {
  return (await db.prepare("SELECT title FROM titles WHERE id = ?").bind(titleId).first<string>("title")) ?? titleId;
}

/**
 * Marks the open reports `where` picks as resolved or dismissed by `actor`, with one audit row
 * (only when at least one changed: `changes()` of the UPDATE, in the same batch).
 */
async function settle(
  db: D1Database,
  actor: AdminVisitor,
  action: SettleAction,
  where: { sql: string; params: (string | number)[] },
  target: string,
  nowMs: number,
): Promise<number> {
  const status = SETTLED[action];
  const audit = auditStatement(
    { actorId: actor.userId, actorEmail: actor.email, action: `report.${action}`, target, before: { status: "open" }, after: { status } },
    nowMs,
  );
  // The audit row's after-value gets the number of reports changed, read from changes() of the UPDATE.
  const auditSql = audit.sql.replace("VALUES (?, ?, ?, ?, ?, ?, ?)", "SELECT ?, ?, ?, ?, ?, ?, json_set(?, '$.count', changes()) WHERE changes() > 0");
  const [updated] = await db.batch([
    db
      .prepare(`UPDATE reports SET status = ?, resolved_by = ?, resolved_at = ? WHERE status = 'open' AND ${where.sql}`)
      .bind(status, actor.email, nowMs, ...where.params),
    prepared(db, { sql: auditSql, params: audit.params }),
  ]);
  return updated.meta.changes;
}

/** Resolves or dismisses one open report. */
export async function settleReport(
  db: D1Database,
  actor: AdminVisitor,
  id: string,
  actionInput: unknown,
  nowMs = Date.now(),
): Promise<Result<{ count: number }>> {
  const action = settleActionOf(actionInput);
  if (!action) return refusal(400, "bad_action", "操作无效");
  const reportId = /^\d{1,15}$/.test(id) ? Number(id) : NaN;
  const row = Number.isSafeInteger(reportId)
    ? await db
        .prepare("SELECT title_id, kind, status FROM reports WHERE id = ?")
        .bind(reportId)
        .first<{ title_id: string; kind: ReportKind; status: ReportStatus }>()
    : null;
  if (!row) return refusal(404, "not_found", "没有这条举报");
  if (row.status !== "open") return refusal(409, "already_settled", `这条举报已${STATUS_NAMES[row.status].slice(1)}`);
  const target = `${KIND_NAMES[row.kind]}举报 #${reportId}（${await titleName(db, row.title_id)}）`;
  const count = await settle(db, actor, action, { sql: "id = ?", params: [reportId] }, target, nowMs);
  if (count === 0) return refusal(409, "already_settled", "这条举报已被其他人处理");
  return { ok: true, value: { count } };
}

/** Resolves or dismisses every open report of a title (of `kind` when one is given). */
export async function settleGroup(
  db: D1Database,
  actor: AdminVisitor,
  titleId: unknown,
  kindInput: unknown,
  actionInput: unknown,
  nowMs = Date.now(),
): Promise<Result<{ count: number }>> {
  const action = settleActionOf(actionInput);
  if (!action) return refusal(400, "bad_action", "操作无效");
  if (!isTitleId(titleId)) return refusal(400, "bad_title", "请指定视频");
  const kind = kindInput === undefined || kindInput === "" ? "" : kindInput;
  if (kind !== "" && !(REPORT_KINDS as readonly unknown[]).includes(kind)) return refusal(400, "bad_kind", "举报类型无效");
  const kindName = kind === "" ? "" : KIND_NAMES[kind as ReportKind];
  const target = `${await titleName(db, titleId)} 的全部待处理${kindName}举报`;
  const count = await settle(
    db,
    actor,
    action,
    { sql: "title_id = ? AND (? = '' OR kind = ?)", params: [titleId, kind as string, kind as string] },
    target,
    nowMs,
  );
  if (count === 0) return refusal(404, "nothing_open", "该视频没有待处理的举报");
  return { ok: true, value: { count } };
}
