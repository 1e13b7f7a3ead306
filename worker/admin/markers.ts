/**
 * 片头 / 片尾 of 视频管理 (docs/decisions/0096-marker-editing.md): a title's markers and each
 * episode's own, read and checked by shared/admin/marker-form.ts, saved like any edit (the
 * version the form was opened at, the catalogue's validation, the content version raised so the
 * pages and their player show them) with a `title.markers` audit row in the same batch.
 */
import { markerAudit, markersFromFields, withMarkers, type MarkerEdit } from "../../shared/admin/marker-form";
import type { AdminVisitor } from "./access";
import type { Refusal } from "./actions";
import { auditStatement, prepared } from "./audit";
import { saveTitle, titleForEdit, type SaveResult } from "./titles";

/**
 * Saves the markers `get` reads (the form's field names) on title `id`, edited at `version`.
 * Refusals: 404 for an unknown title, 400 with every problem, 409 for a version moved on.
 */
export async function saveMarkers(
  env: Env,
  actor: AdminVisitor,
  id: string,
  get: (name: string) => unknown,
  version: unknown,
  nowMs: number,
): Promise<SaveResult & { edit?: MarkerEdit }> {
  const title = await titleForEdit(env.DB, id, nowMs);
  if (!title) return { ok: false, status: 404, code: "not_found", message: `没有编号为 ${id} 的视频（可能已被删除）` } satisfies Refusal;
  const read = markersFromFields(get, title.entry);
  if (!read.ok) {
    return { ok: false, status: 400, code: "invalid_markers", message: `有 ${read.problems.length} 处需要修改：${read.problems[0]}`, problems: read.problems };
  }
  const audit = { actorId: actor.userId, actorEmail: actor.email, action: "title.markers", target: id, after: markerAudit(read.edit) };
  const saved = await saveTitle(env, actor, withMarkers(title.entry, read.edit), { id, version }, nowMs, (db) => [prepared(db, auditStatement(audit, nowMs))]);
  return saved.ok ? { ...saved, edit: read.edit } : saved;
}
