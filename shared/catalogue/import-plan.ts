/**
 * The catalogue import as SQL statements (migrations/0004_catalogue.sql), independent of where
 * they run: the local D1 through wrangler's platform proxy, the remote one through
 * `wrangler d1 execute --remote`, or workerd in the worker tests. Pure: no Node modules.
 *
 * Idempotent: an entry whose content is unchanged is not written (its `updated_at` stays), a
 * changed entry is rewritten with a new `updated_at`, a new one gets `added_at`, and titles no
 * longer in the file are deleted. Re-importing the same file writes nothing.
 */

/** One title's rows: the `titles` columns, plus its categories and episodes. */
export interface TitleRow {
  id: string;
  position: number;
  title: string;
  title_order: number;
  year: number;
  rating: number;
  duration: string;
  area: string | null;
  language: string | null;
  letter: string;
  episode_count: number;
  content_hash: string;
  card: string;
  entry: string;
  search_title: string;
  search_pinyin: string;
  search_pinyin_flat: string;
  search_names: string;
  search_names_flat: string;
  search_labels: string;
  search_description: string;
  /** `search_chars` rows: each folded character once, with its best tier. */
  search_chars: Array<[string, number]>;
  /** `search_pinyin` rows (shared/search/pinyin-keys.ts) of the title and its names: each key once, with its best tier. */
  search_pinyin_keys: Array<[string, number]>;
  /** draft / published / unpublished, and when a published title goes live (ms, 0: at once). */
  state: string;
  publish_at: number;
  /** Every media number of the title (`title_media`: its videoFile and its episodes'). */
  media: number[];
  categories: string[];
  episodes: Array<{ number: number; name: string | null; video_file: string; duration: string }>;
}

export type SqlValue = string | number | null;

export interface Statement {
  sql: string;
  params: SqlValue[];
}

/** Where the statements run. */
export interface CatalogueDb {
  rows<T>(sql: string): Promise<T[]>;
  /** Runs the statements in order (in batches; each batch is atomic where the database allows). */
  run(statements: readonly Statement[]): Promise<void>;
}

export interface ImportReport {
  added: number;
  changed: number;
  /** Unchanged entries whose position or title order moved (other entries were added or removed). */
  moved: number;
  removed: number;
  unchanged: number;
  /** Unchanged entries whose search keys were written by an older import (SEARCH_VERSION): rewritten. */
  rekeyed: number;
}

/**
 * The table of every title, published or not (migrations/0013_live_catalogue.sql). `titles` is
 * the view of the titles a viewer may see: the import and the 管理后台 write here.
 */
export const TITLES_TABLE = "catalogue_titles";

/** D1 allows at most 100 bound parameters per statement. */
const MAX_PARAMS = 100;

const TITLE_COLUMNS = [
  "id",
  "position",
  "title",
  "title_order",
  "year",
  "rating",
  "duration",
  "area",
  "language",
  "letter",
  "episode_count",
  "content_hash",
  "card",
  "entry",
  "search_title",
  "search_pinyin",
  "search_pinyin_flat",
  "search_names",
  "search_names_flat",
  "search_labels",
  "search_description",
  "state",
  "publish_at",
] as const satisfies ReadonlyArray<keyof TitleRow>;

function multiInsert(table: string, columns: readonly string[], rows: readonly SqlValue[][], verb = "INSERT"): Statement[] {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const out: Statement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const values = chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ");
    out.push({ sql: `${verb} INTO ${table} (${columns.join(", ")}) VALUES ${values}`, params: chunk.flat() });
  }
  return out;
}

/**
 * The version of the search keys (`search_chars`, `search_pinyin`) this import writes; older
 * titles get theirs rewritten. 2: `search_pinyin` (migrations/0007_search_pinyin.sql).
 */
export const SEARCH_VERSION = 2;

/** `DELETE FROM {table} WHERE {column} IN (…)` for `ids`, in statements of at most 100 ids. */
function deleteIn(table: string, column: string, ids: readonly string[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 0; i < ids.length; i += MAX_PARAMS) {
    const chunk = ids.slice(i, i + MAX_PARAMS);
    out.push({ sql: `DELETE FROM ${table} WHERE ${column} IN (${chunk.map(() => "?").join(", ")})`, params: chunk });
  }
  return out;
}

/** `search_chars` rows of titles (their old rows deleted first by the caller). */
function searchCharRows(rows: readonly TitleRow[]): SqlValue[][] {
  return rows.flatMap((row) => row.search_chars.map(([char, tier]): SqlValue[] => [char, row.id, tier]));
}

/** `search_pinyin` rows of titles (their old rows deleted first by the caller). */
function searchPinyinRows(rows: readonly TitleRow[]): SqlValue[][] {
  return rows.flatMap((row) => row.search_pinyin_keys.map(([key, tier]): SqlValue[] => [key, row.id, tier]));
}

/** The rows hanging off `rows`' titles (categories, episodes, media numbers), and the search keys of `searched`. */
function dependentInserts(rows: readonly TitleRow[], searched: readonly TitleRow[] = rows): Statement[] {
  return [
    ...multiInsert(
      "title_categories",
      ["category", "title_id"],
      rows.flatMap((row) => row.categories.map((c): SqlValue[] => [c, row.id])),
    ),
    ...multiInsert(
      "episodes",
      ["title_id", "number", "name", "video_file", "duration"],
      rows.flatMap((row) => row.episodes.map((e): SqlValue[] => [row.id, e.number, e.name, e.video_file, e.duration])),
    ),
    ...multiInsert(
      "title_media",
      ["number", "title_id"],
      rows.flatMap((row) => row.media.map((n): SqlValue[] => [n, row.id])),
      "INSERT OR REPLACE",
    ),
    ...multiInsert("search_chars", ["char", "title_id", "tier"], searchCharRows(searched)),
    ...multiInsert("search_pinyin", ["key", "title_id", "tier"], searchPinyinRows(searched)),
  ];
}

interface ExistingRow {
  id: string;
  content_hash: string;
  position: number;
  title_order: number;
  /** Absent (treated as 0) before migrations/0006_search_in_sql.sql. */
  search_version?: number;
}

/**
 * The statements that bring the database to `rows`, and what they do. Whole titles are written
 * with multi-row INSERTs (at most 100 bound parameters each: D1's limit); the SQL file of a
 * large or remote import merges consecutive ones further (scripts/catalogue/import.ts).
 */
export function planImport(rows: readonly TitleRow[], existing: readonly ExistingRow[], now: number): { statements: Statement[]; report: ImportReport } {
  const before = new Map(existing.map((r) => [r.id, r]));
  const report: ImportReport = { added: 0, changed: 0, moved: 0, removed: 0, unchanged: 0, rekeyed: 0 };
  const added: TitleRow[] = [];
  const changed: TitleRow[] = [];
  const rekeyed: TitleRow[] = [];
  const moves: Statement[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.id);
    const old = before.get(row.id);
    if (!old) {
      report.added++;
      added.push(row);
    } else if (old.content_hash !== row.content_hash) {
      report.changed++;
      changed.push(row);
    } else {
      if (old.position !== row.position || old.title_order !== row.title_order) {
        report.moved++;
        moves.push({ sql: `UPDATE ${TITLES_TABLE} SET position = ?, title_order = ? WHERE id = ?`, params: [row.position, row.title_order, row.id] });
      } else report.unchanged++;
      if ((old.search_version ?? 0) < SEARCH_VERSION) {
        report.rekeyed++;
        rekeyed.push(row);
      }
    }
  }
  const removed = existing.filter((r) => !seen.has(r.id)).map((r) => r.id);
  report.removed = removed.length;

  const written = [...added, ...changed];
  const writtenIds = written.map((r) => r.id);
  const statements: Statement[] = [
    // A title's dependent rows are replaced whole: deleted here, inserted below.
    ...deleteIn("title_categories", "title_id", [...writtenIds, ...removed]),
    ...deleteIn("episodes", "title_id", [...writtenIds, ...removed]),
    ...deleteIn("search_chars", "title_id", [...writtenIds, ...rekeyed.map((r) => r.id), ...removed]),
    ...deleteIn("search_pinyin", "title_id", [...writtenIds, ...rekeyed.map((r) => r.id), ...removed]),
    ...deleteIn("title_media", "title_id", [...writtenIds, ...removed]),
    ...deleteIn(TITLES_TABLE, "id", removed),
    ...changed.map((row): Statement => ({
      // An import that changes a title raises its version (an open edit form of the 管理后台 is then refused) and
      // clears the mark of a web edit: the row is what the file says.
      sql: `UPDATE ${TITLES_TABLE} SET ${TITLE_COLUMNS.slice(1)
        .map((c) => `${c} = ?`)
        .join(", ")}, search_version = ?, updated_at = ?, version = version + 1, edited_at = NULL, edited_by = NULL WHERE id = ?`,
      params: [...TITLE_COLUMNS.slice(1).map((c) => row[c]), SEARCH_VERSION, now, row.id],
    })),
    ...multiInsert(
      TITLES_TABLE,
      [...TITLE_COLUMNS, "search_version", "added_at", "updated_at"],
      added.map((row) => [...TITLE_COLUMNS.map((c) => row[c]), SEARCH_VERSION, now, now]),
      "INSERT OR REPLACE",
    ),
    ...dependentInserts(written, [...written, ...rekeyed]),
    ...moves,
  ];
  const rekeyedIds = rekeyed.map((r) => r.id);
  for (let i = 0; i < rekeyedIds.length; i += MAX_PARAMS - 1) {
    const chunk = rekeyedIds.slice(i, i + MAX_PARAMS - 1);
    statements.push({
      sql: `UPDATE ${TITLES_TABLE} SET search_version = ? WHERE id IN (${chunk.map(() => "?").join(", ")})`,
      params: [SEARCH_VERSION, ...chunk],
    });
  }
  if (written.length > 0 || removed.length > 0) {
    statements.push({ sql: "DELETE FROM categories", params: [] });
    statements.push({ sql: "INSERT INTO categories (name, titles) SELECT category, count(*) FROM title_categories GROUP BY category", params: [] });
  }
  return { statements, report };
}

/** Imports `rows` (the whole catalogue, in file order) into `db`. */
export async function importRows(db: CatalogueDb, rows: readonly TitleRow[], now = Date.now()): Promise<ImportReport> {
  const existing = await db.rows<ExistingRow>(`SELECT id, content_hash, position, title_order, search_version FROM ${TITLES_TABLE}`);
  const { statements, report } = planImport(rows, existing, now);
  await db.run(statements);
  return report;
}

/** The `titles` columns a title's row sets (the 管理后台 writes one title with them). */
export const TITLE_ROW_COLUMNS: readonly (keyof TitleRow)[] = TITLE_COLUMNS;

/**
 * The statements that replace the rows depending on `rows`' titles (categories, episodes,
 * search keys, media numbers): what an import does for a changed title, for one title written by
 * the 管理后台 (worker/admin/titles.ts).
 */
export function dependentRowStatements(rows: readonly TitleRow[]): Statement[] {
  const ids = rows.map((r) => r.id);
  return [
    ...deleteIn("title_categories", "title_id", ids),
    ...deleteIn("episodes", "title_id", ids),
    ...deleteIn("search_chars", "title_id", ids),
    ...deleteIn("search_pinyin", "title_id", ids),
    ...deleteIn("title_media", "title_id", ids),
    ...dependentInserts(rows),
  ];
}

/** The statements that delete titles and every row depending on them. */
export function deleteTitleStatements(ids: readonly string[]): Statement[] {
  return [
    ...deleteIn("title_categories", "title_id", ids),
    ...deleteIn("episodes", "title_id", ids),
    ...deleteIn("search_chars", "title_id", ids),
    ...deleteIn("search_pinyin", "title_id", ids),
    ...deleteIn("title_media", "title_id", ids),
    ...deleteIn(TITLES_TABLE, "id", ids),
  ];
}

/** The category names and counts (`categories`), recounted. */
export const REFRESH_CATEGORIES: readonly Statement[] = [
  { sql: "DELETE FROM categories", params: [] },
  { sql: "INSERT INTO categories (name, titles) SELECT category, count(*) FROM title_categories GROUP BY category", params: [] },
];
