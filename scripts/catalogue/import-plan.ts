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
}

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
] as const satisfies ReadonlyArray<keyof TitleRow>;

function multiInsert(table: string, columns: readonly string[], rows: readonly SqlValue[][]): Statement[] {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const out: Statement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const values = chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ");
    out.push({ sql: `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values}`, params: chunk.flat() });
  }
  return out;
}

/** Writes one whole title (new or changed): its row, categories and episodes. */
function writeTitle(row: TitleRow, now: number, isNew: boolean): Statement[] {
  const values = TITLE_COLUMNS.map((c) => row[c]);
  const upsert: Statement = isNew
    ? {
        sql: `INSERT OR REPLACE INTO titles (${TITLE_COLUMNS.join(", ")}, added_at, updated_at) VALUES (${TITLE_COLUMNS.map(() => "?").join(", ")}, ?, ?)`,
        params: [...values, now, now],
      }
    : {
        sql: `UPDATE titles SET ${TITLE_COLUMNS.slice(1)
          .map((c) => `${c} = ?`)
          .join(", ")}, updated_at = ? WHERE id = ?`,
        params: [...values.slice(1), now, row.id],
      };
  return [
    upsert,
    { sql: "DELETE FROM title_categories WHERE title_id = ?", params: [row.id] },
    ...multiInsert(
      "title_categories",
      ["category", "title_id"],
      row.categories.map((c) => [c, row.id]),
    ),
    { sql: "DELETE FROM episodes WHERE title_id = ?", params: [row.id] },
    ...multiInsert(
      "episodes",
      ["title_id", "number", "name", "video_file", "duration"],
      row.episodes.map((e) => [row.id, e.number, e.name, e.video_file, e.duration]),
    ),
  ];
}

interface ExistingRow {
  id: string;
  content_hash: string;
  position: number;
  title_order: number;
}

/** The statements that bring the database to `rows`, and what they do. */
export function planImport(rows: readonly TitleRow[], existing: readonly ExistingRow[], now: number): { statements: Statement[]; report: ImportReport } {
  const before = new Map(existing.map((r) => [r.id, r]));
  const report: ImportReport = { added: 0, changed: 0, moved: 0, removed: 0, unchanged: 0 };
  const statements: Statement[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.id);
    const old = before.get(row.id);
    if (!old) {
      report.added++;
      statements.push(...writeTitle(row, now, true));
    } else if (old.content_hash !== row.content_hash) {
      report.changed++;
      statements.push(...writeTitle(row, now, false));
    } else if (old.position !== row.position || old.title_order !== row.title_order) {
      report.moved++;
      statements.push({ sql: "UPDATE titles SET position = ?, title_order = ? WHERE id = ?", params: [row.position, row.title_order, row.id] });
    } else report.unchanged++;
  }
  const removed = existing.filter((r) => !seen.has(r.id)).map((r) => r.id);
  report.removed = removed.length;
  for (let i = 0; i < removed.length; i += MAX_PARAMS) {
    const ids = removed.slice(i, i + MAX_PARAMS);
    const marks = ids.map(() => "?").join(", ");
    for (const table of ["titles WHERE id", "title_categories WHERE title_id", "episodes WHERE title_id"])
      statements.push({ sql: `DELETE FROM ${table} IN (${marks})`, params: ids });
  }
  if (statements.length > 0) {
    statements.push({ sql: "DELETE FROM categories", params: [] });
    statements.push({ sql: "INSERT INTO categories (name, titles) SELECT category, count(*) FROM title_categories GROUP BY category", params: [] });
  }
  return { statements, report };
}

/** Imports `rows` (the whole catalogue, in file order) into `db`. */
export async function importRows(db: CatalogueDb, rows: readonly TitleRow[], now = Date.now()): Promise<ImportReport> {
  const existing = await db.rows<ExistingRow>("SELECT id, content_hash, position, title_order FROM titles");
  const { statements, report } = planImport(rows, existing, now);
  await db.run(statements);
  return report;
}

/** Statements per D1 batch: large enough to be quick, small enough for one request. */
const BATCH = 400;

/** A CatalogueDb over a D1 binding (the local proxy's, or workerd's in the tests). */
export function d1CatalogueDb(db: D1Database): CatalogueDb {
  return {
    async rows<T>(sql: string) {
      return (await db.prepare(sql).all<T>()).results;
    },
    async run(statements) {
      for (let i = 0; i < statements.length; i += BATCH) await db.batch(statements.slice(i, i + BATCH).map((s) => db.prepare(s.sql).bind(...s.params)));
    },
  };
}
