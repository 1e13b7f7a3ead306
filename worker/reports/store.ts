/**
 * Reports in D1 (`reports`, migrations/0015_reports.sql): one row per report, written only while
 * its reporter is under the limits — REPORTS_PER_HOUR from a network (the day's keyed hash of the
 * address, worker/plays/visitor.ts) and as many from an account — decided in the INSERT itself,
 * so concurrent reports cannot pass the limit together. A report its reporter already sent and
 * that is still open is not stored twice.
 */
import { REPORT_WINDOW_MS, REPORTS_PER_HOUR, type ReportKind } from "../../shared/reports/model";

export interface NewReport {
  kind: ReportKind;
  titleId: string;
  episode: number;
  targetId: string | null;
  targetText: string | null;
  targetTime: number | null;
  reason: string;
  note: string | null;
  reporterId: string | null;
  reporterKey: string;
}

export type StoreOutcome = { kind: "created"; id: number } | { kind: "duplicate" } | { kind: "limited" };

/** Stores `report` unless it repeats an open one of the same reporter or the reporter is over the limit. */
export async function storeReport(db: D1Database, report: NewReport, nowMs: number): Promise<StoreOutcome> {
  // The same thing reported again by the same reporter (network or account) while still open.
  const same = await db
    .prepare(
      `SELECT 1 AS found FROM reports
        WHERE status = 'open' AND kind = ?1 AND title_id = ?2 AND episode = ?3
          AND COALESCE(target_id, reason) = COALESCE(?4, ?5)
          AND (reporter_key = ?6 OR reporter_id = ?7)
        LIMIT 1`,
    )
    .bind(report.kind, report.titleId, report.episode, report.targetId, report.reason, report.reporterKey, report.reporterId)
    .first<number>("found");
  if (same === 1) return { kind: "duplicate" };
  const since = nowMs - REPORT_WINDOW_MS;
  const row = await db
    .prepare(
      `INSERT INTO reports (kind, title_id, episode, target_id, target_text, target_time, reason, note, reporter_id, reporter_key, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11
        WHERE (SELECT COUNT(*) FROM reports WHERE reporter_key = ?10 AND created_at > ?12) < ?13
          AND (?9 IS NULL OR (SELECT COUNT(*) FROM reports WHERE reporter_id = ?9 AND created_at > ?12) < ?13)
       RETURNING id`,
    )
    .bind(
      report.kind,
      report.titleId,
      report.episode,
      report.targetId,
      report.targetText,
      report.targetTime,
      report.reason,
      report.note,
      report.reporterId,
      report.reporterKey,
      nowMs,
      since,
      REPORTS_PER_HOUR,
    )
    .first<{ id: number }>();
  return row ? { kind: "created", id: row.id } : { kind: "limited" };
}

/** The episodes of a title in the catalogue, or null when there is no such title. */
export async function episodesOf(db: D1Database, titleId: string): Promise<number | null> {
  return db.prepare("SELECT episode_count FROM titles WHERE id = ?").bind(titleId).first<number>("episode_count");
}
