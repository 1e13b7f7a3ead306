/**
 * 视频管理 (docs/admin.md, docs/decisions/0074-live-catalogue.md): the live catalogue in D1, every
 * title whatever its state (`catalogue_titles`), listed, searched, created, edited, published,
 * taken down and deleted by an admin. Every entry is validated by shared/catalogue/schema.ts —
 * the rules of `npm run catalogue -- check` — and written as the import writes it
 * (shared/catalogue/rows.ts), with its version raised, its web edit noted (an import will not
 * overwrite it), the catalogue's content version raised (the edge caches' keys change: decision
 * 0075) and an audit row, all in one D1 batch.
 */
import { MAIN_CATEGORIES } from "../../shared/catalogue/categories";
import {
  deleteTitleStatements,
  dependentRowStatements,
  REFRESH_CATEGORIES,
  SEARCH_VERSION,
  TITLE_ROW_COLUMNS,
  TITLES_TABLE,
  type SqlValue,
  type Statement,
  type TitleRow,
} from "../../shared/catalogue/import-plan";
import { fileEntry, shownState, STATE_NAMES, type ShownState } from "../../shared/catalogue/publication";
import { titleRows } from "../../shared/catalogue/rows";
import { mediaTaken, validateCatalogue, type CatalogueProblem, type PublicationState, type TitleEntry } from "../../shared/catalogue/schema";
import { problemText } from "../../shared/admin/title-form";
import { compareTitles } from "../../shared/collation";
import { bumpContentVersion, forgetContentTag } from "../content-version";
import { searchMatches, RELEVANCE_ORDER } from "../catalogue/search";
import type { AdminVisitor } from "./access";
import type { Refusal, Result } from "./actions";
import { auditStatement, prepared } from "./audit";
import { applyEpisodeOp, episodeOpOfBody, rowsToAddTo } from "../../shared/admin/episode-rows";

export const TITLE_PAGE_SIZE = 50;

export const TITLE_SORTS = ["updated", "position", "title", "year", "relevance"] as const;
export type TitleSort = (typeof TITLE_SORTS)[number];
export const SORT_NAMES: Readonly<Record<TitleSort, string>> = {
  updated: "最近修改",
  position: "目录顺序",
  title: "按标题",
  year: "按年份",
  relevance: "相关度",
};

export interface TitleListQuery {
  q: string;
  state: ShownState | "";
  category: string;
  sort: TitleSort;
  page: number;
}

export interface TitleListItem {
  id: string;
  title: string;
  year: number;
  cover: string;
  categories: string[];
  state: ShownState;
  publishAt: number;
  updatedAt: number;
  version: number;
  editedAt: number | null;
}

export interface TitleList {
  query: TitleListQuery;
  total: number;
  pages: number;
  items: TitleListItem[];
  /** Every category name with its number of titles (the filter's options). */
  categories: Array<{ name: string; titles: number }>;
}

/** The list query of a URL's parameters: unknown values fall back to the defaults. */
export function titleListQuery(get: (name: string) => string | undefined): TitleListQuery {
  const q = (get("q") ?? "").trim().slice(0, 100);
  const state = get("state") ?? "";
  const sort = get("sort") ?? "";
  const page = Number(get("page"));
  return {
    q,
    state: (["draft", "published", "scheduled", "unpublished"] as const).find((s) => s === state) ?? "",
    category: (get("category") ?? "").trim().slice(0, 40),
    sort: TITLE_SORTS.find((s) => s === sort) ?? (q ? "relevance" : "updated"),
    page: Number.isInteger(page) && page > 0 && page < 100_000 ? page : 1,
  };
}

const STATE_WHERE: Record<ShownState, string> = {
  published: "t.state = 'published' AND t.publish_at <= ?now",
  scheduled: "t.state = 'published' AND t.publish_at > ?now",
  draft: "t.state = 'draft'",
  unpublished: "t.state = 'unpublished'",
};

const ORDER: Record<TitleSort, string> = {
  updated: "t.updated_at DESC, t.id",
  position: "t.position, t.id",
  title: "t.title_order, t.position",
  year: "t.year DESC, t.position",
  relevance: RELEVANCE_ORDER,
};

interface ListRow {
  id: string;
  title: string;
  year: number;
  cover: string;
  categories: string | null;
  state: PublicationState;
  publish_at: number;
  updated_at: number;
  version: number;
  edited_at: number | null;
}

/**
 * One page of the list: every title, or the search's matches (the site search over every
 * title: title, pinyin, initials, names), filtered by state and category. Two statements in one
 * round trip (the count and the page) after the search's own.
 */
export async function listTitles(db: D1Database, query: TitleListQuery, nowMs: number): Promise<TitleList> {
  const matches = query.q ? await searchMatches(db, query.q, TITLES_TABLE) : null;
  const params: SqlValue[] = matches ? [...matches.params] : [];
  const named = (sql: string, name: string, value: SqlValue) => {
    if (!sql.includes(`?${name}`)) return sql;
    params.push(value);
    return sql.replaceAll(`?${name}`, `?${params.length}`);
  };
  const where: string[] = [];
  if (query.state) where.push(named(STATE_WHERE[query.state], "now", nowMs));
  if (query.category) where.push(named("t.id IN (SELECT title_id FROM title_categories WHERE category = ?category)", "category", query.category));
  const clause = where.length ? ` WHERE ${where.join(" AND ")}` : "";
  const from = query.q
    ? matches
      ? `WITH ${matches.sql} SELECT %s FROM m JOIN ${TITLES_TABLE} t ON t.id = m.id`
      : `SELECT %s FROM ${TITLES_TABLE} t WHERE 0`
    : `SELECT %s FROM ${TITLES_TABLE} t`;
  const sort = query.sort === "relevance" && !matches ? "updated" : query.sort;
  const countParams = [...params];
  const offset = (query.page - 1) * TITLE_PAGE_SIZE;
  const columns =
    "t.id, t.title, t.year, json_extract(t.card, '$.cover') AS cover, (SELECT group_concat(category, char(10)) FROM title_categories WHERE title_id = t.id) AS categories, " +
    "t.state, t.publish_at, t.updated_at, t.version, t.edited_at";
  const [count, page, categories] = await db.batch([
    db.prepare(from.replace("%s", "count(*) AS n") + clause).bind(...countParams),
    db.prepare(`${from.replace("%s", columns)}${clause} ORDER BY ${ORDER[sort]} LIMIT ${TITLE_PAGE_SIZE} OFFSET ${offset}`).bind(...params),
    db.prepare("SELECT name, titles FROM categories ORDER BY titles DESC, name"),
  ]);
  const total = (count.results[0] as { n: number } | undefined)?.n ?? 0;
  return {
    query: { ...query, sort },
    total,
    pages: Math.max(1, Math.ceil(total / TITLE_PAGE_SIZE)),
    items: (page.results as ListRow[]).map((r) => ({
      id: r.id,
      title: r.title,
      year: r.year,
      cover: r.cover,
      categories: r.categories ? r.categories.split("\n") : [],
      state: shownState(r.state, r.publish_at, nowMs),
      publishAt: r.publish_at,
      updatedAt: r.updated_at,
      version: r.version,
      editedAt: r.edited_at,
    })),
    categories: categories.results as Array<{ name: string; titles: number }>,
  };
}

export interface EditableTitle {
  /** The entry as the catalogue file holds it (state and publishAt included, no version). */
  entry: TitleEntry;
  state: ShownState;
  publishAt: number;
  version: number;
  addedAt: number;
  updatedAt: number;
  editedAt: number | null;
  editedBy: string | null;
}

interface StoredRow {
  id: string;
  entry: string;
  state: PublicationState;
  publish_at: number;
  version: number;
  added_at: number;
  updated_at: number;
  edited_at: number | null;
  edited_by: string | null;
  position: number;
  title: string;
  title_order: number;
}

const STORED_COLUMNS = "id, entry, state, publish_at, version, added_at, updated_at, edited_at, edited_by, position, title, title_order";

async function storedRow(db: D1Database, id: string): Promise<StoredRow | null> {
  return db.prepare(`SELECT ${STORED_COLUMNS} FROM ${TITLES_TABLE} WHERE id = ?`).bind(id).first<StoredRow>();
}

const entryOf = (row: StoredRow): TitleEntry => fileEntry(JSON.parse(row.entry) as TitleEntry, row.state, row.publish_at);

export async function titleForEdit(db: D1Database, id: string, nowMs: number): Promise<EditableTitle | null> {
  const row = await storedRow(db, id);
  if (!row) return null;
  return {
    entry: entryOf(row),
    state: shownState(row.state, row.publish_at, nowMs),
    publishAt: row.publish_at,
    version: row.version,
    addedAt: row.added_at,
    updatedAt: row.updated_at,
    editedAt: row.edited_at,
    editedBy: row.edited_by,
  };
}

/** A refusal of a save, with every problem of the entry (shown next to the form). */
export type SaveRefusal = Refusal & { problems?: string[] };
export type SaveResult = { ok: true; value: { id: string; version: number } } | SaveRefusal;

const refusal = (status: Refusal["status"], code: string, message: string, problems?: string[]): SaveRefusal => ({
  ok: false,
  status,
  code,
  message,
  ...(problems ? { problems } : {}),
});

/** The message two admins saving the same title get: the second save is refused. */
export const STALE_VERSION_MESSAGE = (current: number, edited: number, by: string | null): string =>
  `保存失败：此视频已被${by ? ` ${by} ` : "其他管理员或导入"}修改（当前版本 ${current}，你编辑的是版本 ${edited}）。请重新打开后再修改，你的内容未保存。`;

function invalid(problems: readonly CatalogueProblem[]): SaveRefusal {
  const texts = problems.map(problemText);
  return refusal(400, "invalid_entry", `有 ${texts.length} 处需要修改：${texts[0]}`, texts);
}

/** The entry validated alone, then its media numbers against every other title's. */
async function validated(db: D1Database, raw: unknown): Promise<{ ok: true; entry: TitleEntry; row: TitleRow } | SaveRefusal> {
  const checked = validateCatalogue([raw]);
  if (!checked.ok) return invalid(checked.problems);
  const entry = checked.titles[0];
  const row = titleRows([entry])[0];
  const { results } = await db
    .prepare("SELECT number, title_id FROM title_media WHERE number IN (SELECT value FROM json_each(?1)) AND title_id != ?2 ORDER BY number")
    .bind(JSON.stringify(row.media), entry.id)
    .all<{ number: number; title_id: string }>();
  if (results.length > 0) {
    // The words of the file's own cross-check (shared/catalogue/schema.ts).
    return invalid(results.map((r) => ({ entry: entry.id, field: "videoFile", message: mediaTaken(r.number, r.title_id) })));
  }
  return { ok: true, entry, row };
}

/**
 * Where `title` goes in pinyin collation (`title_order`, the 按标题 sort): the order of an equal
 * title, or the place before the first greater one (the later orders move up by one).
 */
async function titleOrderFor(db: D1Database, title: string, id: string): Promise<{ order: number; shift: Statement | null }> {
  const { results } = await db
    .prepare(`SELECT min(title) AS title, title_order FROM ${TITLES_TABLE} WHERE id != ? GROUP BY title_order ORDER BY title_order`)
    .bind(id)
    .all<{ title: string; title_order: number }>();
  let lo = 0;
  let hi = results.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareTitles(results[mid].title, title) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo === results.length) return { order: (results.at(-1)?.title_order ?? -1) + 1, shift: null };
  const at = results[lo];
  if (compareTitles(at.title, title) === 0) return { order: at.title_order, shift: null };
  return { order: at.title_order, shift: { sql: `UPDATE ${TITLES_TABLE} SET title_order = title_order + 1 WHERE title_order >= ?`, params: [at.title_order] } };
}

const bound = (db: D1Database, s: Statement) => db.prepare(s.sql).bind(...s.params);

const actorOf = (actor: AdminVisitor) => ({ actorId: actor.userId, actorEmail: actor.email });

/**
 * Aborts the batch (a transaction: nothing of it is kept) when the statement before it changed
 * no row — the guarded UPDATE of a title whose version moved on since the form was opened.
 * `json('…')` of a text that is not JSON is an error, which is all this statement is for.
 */
const ABORT_UNLESS_CHANGED = "SELECT json(CASE WHEN changes() = 1 THEN '1' ELSE 'version moved on' END) AS guard";

async function runWrite(db: D1Database, statements: D1PreparedStatement[]): Promise<void> {
  await db.batch(statements);
  forgetContentTag();
}

/** Creates a title (`version` is absent) or saves an edit of the version the form was opened at. */
export async function saveTitle(
  env: Env,
  actor: AdminVisitor,
  raw: unknown,
  edit: { id: string; version: unknown } | null,
  nowMs: number,
  /** More statements for the same batch (a published upload's state and audit row: worker/admin/media-uploads.ts). */
  extra: (db: D1Database) => D1PreparedStatement[] = () => [],
  /** The 操作日志's action for an edit (default title.update): title.episodes for a 剧集 row change. */
  auditAction = "title.update",
): Promise<SaveResult> {
  const db = env.DB;
  const checked = await validated(db, raw);
  if (!checked.ok) return checked;
  const { entry, row } = checked;
  if (edit && entry.id !== edit.id) return refusal(400, "id_changed", `编号不能修改（${edit.id}）：要换编号，请新建一个视频再删除这一个`);
  const old = await storedRow(db, entry.id);
  if (!edit && old) return refusal(409, "id_taken", `编号 ${entry.id} 已被「${old.title}」使用，请换一个编号`);
  if (edit && !old) return refusal(404, "not_found", `没有编号为 ${edit.id} 的视频（可能已被删除）`);
  let version = 0;
  if (edit && old) {
    version = typeof edit.version === "number" ? edit.version : Number(edit.version);
    if (!Number.isInteger(version) || version < 1) return refusal(400, "version_required", "缺少版本号，请重新打开编辑页面后再保存");
    if (version !== old.version) return refusal(409, "stale_version", STALE_VERSION_MESSAGE(old.version, version, old.edited_by));
  }
  const placed = old && old.title === row.title ? { order: old.title_order, shift: null } : await titleOrderFor(db, row.title, entry.id);
  const columns = TITLE_ROW_COLUMNS.filter((c) => c !== "id" && c !== "position" && c !== "title_order");
  const values = columns.map((c) => row[c] as SqlValue);
  const statements: D1PreparedStatement[] = [];
  if (placed.shift) statements.push(bound(db, placed.shift));
  if (old) {
    statements.push(
      db
        .prepare(
          `UPDATE ${TITLES_TABLE} SET ${columns.map((c) => `${c} = ?`).join(", ")}, title_order = ?, search_version = ?, updated_at = ?, ` +
            "version = version + 1, edited_at = ?, edited_by = ? WHERE id = ? AND version = ?",
        )
        .bind(...values, placed.order, SEARCH_VERSION, nowMs, nowMs, actor.email, entry.id, version),
      db.prepare(ABORT_UNLESS_CHANGED),
    );
  } else {
    statements.push(
      db
        .prepare(
          `INSERT INTO ${TITLES_TABLE} (id, position, title_order, ${columns.join(", ")}, search_version, added_at, updated_at, version, edited_at, edited_by) ` +
            `VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM ${TITLES_TABLE}), ?, ${columns.map(() => "?").join(", ")}, ?, ?, ?, 1, ?, ?)`,
        )
        .bind(entry.id, placed.order, ...values, SEARCH_VERSION, nowMs, nowMs, nowMs, actor.email),
      db.prepare("DELETE FROM catalogue_deletions WHERE id = ?").bind(entry.id),
    );
  }
  statements.push(...dependentRowStatements([row]).map((s) => bound(db, s)), ...REFRESH_CATEGORIES.map((s) => bound(db, s)));
  statements.push(bumpContentVersion(db, "catalogue"), ...extra(db));
  const before = old ? entryOf(old) : null;
  statements.push(
    prepared(db, auditStatement({ ...actorOf(actor), action: old ? auditAction : "title.create", target: entry.id, before, after: entry }, nowMs)),
  );
  try {
    await runWrite(db, statements);
  } catch (error) {
    const now = await storedRow(db, entry.id);
    if (old && now && now.version !== version) return refusal(409, "stale_version", STALE_VERSION_MESSAGE(now.version, version, now.edited_by));
    if (!old && now) return refusal(409, "id_taken", `编号 ${entry.id} 已被「${now.title}」使用，请换一个编号`);
    throw error;
  }
  return { ok: true, value: { id: entry.id, version: old ? version + 1 : 1 } };
}

export type EpisodesResult = { ok: true; value: { id: string; version: number; summary: string; episodes: number } } | SaveRefusal;

/**
 * 剧集 one at a time (`POST /api/admin/titles/{id}/episodes`): add, remove or move one episode
 * of the saved entry (shared/admin/episode-rows.ts), then save it like an edit of `version` —
 * the schema's rules, the version check, the caches and the 操作日志 (title.episodes).
 */
export async function editEpisodes(env: Env, actor: AdminVisitor, id: string, body: Record<string, unknown>, nowMs: number): Promise<EpisodesResult> {
  const op = episodeOpOfBody(body);
  if ("error" in op) return refusal(400, "bad_episode_action", op.error);
  const saved = await titleForEdit(env.DB, id, nowMs);
  if (!saved) return refusal(404, "not_found", `没有编号为 ${id} 的视频（可能已被删除）`);
  const rows = op.action === "add" ? rowsToAddTo(saved.entry.episodes, saved.entry, op.row) : (saved.entry.episodes ?? []);
  const applied = applyEpisodeOp(rows, op);
  if (!applied.ok) return refusal(400, "bad_episode_action", applied.message);
  const result = await saveTitle(env, actor, { ...saved.entry, episodes: applied.rows }, { id, version: body.version }, nowMs, undefined, "title.episodes");
  if (!result.ok) return result;
  return { ok: true, value: { ...result.value, summary: applied.summary, episodes: applied.rows.length } };
}

export const BULK_ACTIONS = ["publish", "unpublish", "draft", "category", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_NAMES: Readonly<Record<BulkAction, string>> = {
  publish: "发布",
  unpublish: "下架",
  draft: "设为草稿",
  category: "修改分类",
  delete: "删除",
};

/** How a bulk action changes an entry (null: delete). */
function changed(entry: TitleEntry, action: BulkAction, category: string): TitleEntry | null {
  const { state: _s, publishAt: _p, ...rest } = entry;
  void _s;
  void _p;
  switch (action) {
    case "publish":
      // Published now: a scheduled time still ahead is dropped too.
      return rest;
    case "unpublish":
      return { ...rest, state: "unpublished" };
    case "draft":
      return { ...rest, state: "draft" };
    case "category": {
      const main = new Set<string>(MAIN_CATEGORIES);
      return { ...entry, category: [category, ...entry.category.filter((c) => c !== category && !main.has(c))] };
    }
    case "delete":
      return null;
  }
}

export interface BulkOutcome {
  done: string[];
  /** Titles not changed, with why (an entry the change would make invalid, a title deleted meanwhile). */
  failed: Array<{ id: string; message: string }>;
}

const MAX_BULK = 200;

/** A bulk action on a selection: each title is saved like an edit (its own version, validation and audit row). */
export async function bulkTitles(
  env: Env,
  actor: AdminVisitor,
  action: unknown,
  ids: readonly string[],
  category: string,
  nowMs: number,
): Promise<Result<BulkOutcome>> {
  const act = BULK_ACTIONS.find((a) => a === action);
  if (!act) return refusal(400, "bad_action", "请选择要执行的操作");
  const wanted = [...new Set(ids)].slice(0, MAX_BULK + 1);
  if (wanted.length === 0) return refusal(400, "nothing_selected", "请先勾选视频");
  if (wanted.length > MAX_BULK) return refusal(400, "too_many", `一次最多处理 ${MAX_BULK} 个视频`);
  if (act === "category" && !category.trim()) return refusal(400, "category_required", "请填写新的分类");
  if (act === "delete") return deleteTitles(env, actor, wanted, nowMs);
  const outcome: BulkOutcome = { done: [], failed: [] };
  for (const id of wanted) {
    const old = await storedRow(env.DB, id);
    if (!old) {
      outcome.failed.push({ id, message: "视频不存在" });
      continue;
    }
    const next = changed(entryOf(old), act, category.trim());
    const saved = await saveTitle(env, actor, next, { id, version: old.version }, nowMs);
    if (saved.ok) outcome.done.push(id);
    else outcome.failed.push({ id, message: saved.message });
  }
  return { ok: true, value: outcome };
}

/** Deletes titles (and their rows); the file's copy is kept from coming back by a tombstone (decision 0074). */
export async function deleteTitles(env: Env, actor: AdminVisitor, ids: readonly string[], nowMs: number): Promise<Result<BulkOutcome>> {
  const db = env.DB;
  const { results } = await db
    .prepare(`SELECT ${STORED_COLUMNS} FROM ${TITLES_TABLE} WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(ids))
    .all<StoredRow>();
  const found = new Map(results.map((r) => [r.id, r]));
  const outcome: BulkOutcome = { done: [], failed: ids.filter((id) => !found.has(id)).map((id) => ({ id, message: "视频不存在" })) };
  if (results.length === 0) return { ok: true, value: outcome };
  const gone = results.map((r) => r.id);
  const statements = [
    ...deleteTitleStatements(gone).map((s) => bound(db, s)),
    ...gone.map((id) => db.prepare("INSERT OR REPLACE INTO catalogue_deletions (id, deleted_at, deleted_by) VALUES (?, ?, ?)").bind(id, nowMs, actor.email)),
    ...REFRESH_CATEGORIES.map((s) => bound(db, s)),
    bumpContentVersion(db, "catalogue"),
    ...results.map((r) => prepared(db, auditStatement({ ...actorOf(actor), action: "title.delete", target: r.id, before: entryOf(r), after: null }, nowMs))),
  ];
  await runWrite(db, statements);
  outcome.done.push(...gone);
  return { ok: true, value: outcome };
}

/** The most a cover may weigh once the browser has resized it (client/admin/cover-upload.ts makes ~50–150 KB). */
export const MAX_COVER_BYTES = 1024 * 1024;

const isWebp = (bytes: Uint8Array) =>
  bytes.length > 12 && String.fromCharCode(...bytes.subarray(0, 4)) === "RIFF" && String.fromCharCode(...bytes.subarray(8, 12)) === "WEBP";

/**
 * A cover from the browser (already resized and converted to WebP there) stored in R2 under the
 * title's cover name (`N.webp`, worker/media/serve.ts), the catalogue version raised so pages
 * showing it are rendered anew, and an audit row.
 */
export async function putCover(env: Env, actor: AdminVisitor, id: string, bytes: Uint8Array, nowMs: number): Promise<Result<{ cover: string; bytes: number }>> {
  const row = await storedRow(env.DB, id);
  if (!row) return refusal(404, "not_found", `没有编号为 ${id} 的视频`);
  if (bytes.length === 0) return refusal(400, "empty_cover", "没有收到图片");
  if (bytes.length > MAX_COVER_BYTES) return refusal(400, "cover_too_large", `封面不能超过 ${MAX_COVER_BYTES / 1024} KB`);
  if (!isWebp(bytes)) return refusal(400, "cover_not_webp", "封面必须是 WebP 图片（由管理后台在浏览器中转换）");
  const cover = (JSON.parse(row.entry) as TitleEntry).coverImage.replace(/^\/+/, "");
  await env.MEDIA.put(cover, bytes, { httpMetadata: { contentType: "image/webp" } });
  await runWrite(env.DB, [
    bumpContentVersion(env.DB, "catalogue"),
    prepared(env.DB, auditStatement({ ...actorOf(actor), action: "title.cover", target: id, after: { cover, bytes: bytes.length } }, nowMs)),
  ]);
  return { ok: true, value: { cover: `/${cover}`, bytes: bytes.length } };
}

export const stateName = (state: ShownState): string => STATE_NAMES[state];
