/**
 * The catalogue file meets the live catalogue (docs/decisions/0074-live-catalogue.md). Once a
 * title has been edited in the 管理后台, the live database is the catalogue: an import (`npm run
 * catalogue -- import`, `npm run deploy`) never overwrites such a title with a different file
 * entry that does not know that edit, and never drops either side silently — it keeps the live
 * title and reports a conflict. Pure: the rules here, the I/O in scripts/catalogue/import.ts and
 * the tests.
 *
 * A title's live row says whether it holds a web edit the file has not seen (`edited_at`) and its
 * version; `npm run catalogue -- export` writes each entry with that version. For one title:
 *
 * - no web edit pending → the file wins (as before the 管理后台 existed);
 * - web edit pending, the file holds the same content → in sync: the mark is cleared;
 * - web edit pending, the file entry carries the live version (exported after the last web edit,
 *   then edited in the file) → the file wins;
 * - otherwise → the live title is kept, conflict reported (`--prefer-file` makes the file win);
 * - a title only in the live catalogue: kept when it was created or edited on the web (conflict
 *   "only in the live catalogue"), deleted when it came from an older file (as before);
 * - a file entry deleted on the web (tombstone) → not brought back, conflict reported; the
 *   tombstone goes once the file no longer has the entry.
 */
import { planImport, TITLES_TABLE, type CatalogueDb, type ImportReport, type Statement } from "./import-plan";
import { fileEntry } from "./publication";
import { entryHash, titleRows } from "./rows";
import { formatProblem, validateCatalogue, type PublicationState, type TitleEntry } from "./schema";

export interface LiveTitle {
  id: string;
  content_hash: string;
  version: number;
  edited_at: number | null;
  edited_by: string | null;
  /** The live entry as the file would hold it (only needed for titles with a web edit pending). */
  entry?: TitleEntry;
}

export interface Tombstone {
  id: string;
  deleted_at: number;
  deleted_by: string;
}

export type ConflictKind = "edited_on_web" | "only_on_web" | "deleted_on_web";

export interface Conflict {
  id: string;
  kind: ConflictKind;
  /** Which side the import kept. */
  kept: "live" | "file";
  /** When and by whom the web change was made. */
  at: number;
  by: string;
}

export interface Merge {
  /** The catalogue to import, in file order (live titles kept where the file has theirs, web-only ones at the end). */
  entries: TitleEntry[];
  conflicts: Conflict[];
  /** Titles whose web edit the file now holds: their mark is cleared. */
  settled: string[];
  /** Tombstones of ids the file no longer has. */
  clearedTombstones: string[];
}

export function mergeWithLive(file: readonly TitleEntry[], live: readonly LiveTitle[], tombstones: readonly Tombstone[], preferFile = false): Merge {
  const byId = new Map(live.map((l) => [l.id, l]));
  const dead = new Map(tombstones.map((t) => [t.id, t]));
  const inFile = new Set(file.map((e) => e.id));
  const merge: Merge = { entries: [], conflicts: [], settled: [], clearedTombstones: tombstones.filter((t) => !inFile.has(t.id)).map((t) => t.id) };
  const keepLive = (l: LiveTitle, kind: ConflictKind) => {
    if (!l.entry) throw new Error(`live entry of ${l.id} not read`);
    merge.entries.push(l.entry);
    merge.conflicts.push({ id: l.id, kind, kept: "live", at: l.edited_at ?? 0, by: l.edited_by ?? "" });
  };
  for (const entry of file) {
    const l = byId.get(entry.id);
    if (!l) {
      const tomb = dead.get(entry.id);
      if (!tomb) merge.entries.push(entry);
      else {
        merge.conflicts.push({ id: entry.id, kind: "deleted_on_web", kept: preferFile ? "file" : "live", at: tomb.deleted_at, by: tomb.deleted_by });
        if (preferFile) {
          merge.entries.push(entry);
          merge.clearedTombstones.push(entry.id);
        }
      }
      continue;
    }
    if (l.edited_at === null) merge.entries.push(entry);
    else if (entryHash(entry) === l.content_hash) {
      merge.entries.push(entry);
      merge.settled.push(entry.id);
    } else if (entry.version === l.version) merge.entries.push(entry);
    else if (preferFile) {
      merge.entries.push(entry);
      merge.conflicts.push({ id: l.id, kind: "edited_on_web", kept: "file", at: l.edited_at, by: l.edited_by ?? "" });
    } else keepLive(l, "edited_on_web");
  }
  for (const l of live) {
    if (inFile.has(l.id) || l.edited_at === null) continue;
    if (preferFile) merge.conflicts.push({ id: l.id, kind: "only_on_web", kept: "file", at: l.edited_at, by: l.edited_by ?? "" });
    else keepLive(l, "only_on_web");
  }
  return merge;
}

const when = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 16).replace("T", " ");

/** One line of the import's conflict report. */
export function conflictLine(c: Conflict): string {
  const who = `${c.by || "管理后台"}，${when(c.at)}（北京时间）`;
  switch (c.kind) {
    case "edited_on_web":
      return c.kept === "live"
        ? `${c.id}: 已在网页上修改（${who}），文件中的版本不同且不是基于最新版本 — 保留网页版本`
        : `${c.id}: 已在网页上修改（${who}） — 按 --prefer-file 改用文件中的版本`;
    case "only_on_web":
      return c.kept === "live" ? `${c.id}: 只在线上目录中（网页上新建或修改，${who}） — 保留` : `${c.id}: 只在线上目录中（${who}） — 按 --prefer-file 删除`;
    case "deleted_on_web":
      return c.kept === "live" ? `${c.id}: 已在网页上删除（${who}） — 不从文件恢复` : `${c.id}: 已在网页上删除（${who}） — 按 --prefer-file 从文件恢复`;
  }
}

export interface LiveImportReport extends ImportReport {
  titles: number;
  conflicts: Conflict[];
}

interface LiveRow {
  id: string;
  content_hash: string;
  version: number;
  edited_at: number | null;
  edited_by: string | null;
  entry: string | null;
  state: PublicationState | null;
  publish_at: number | null;
}

/** Reads the live side, merges, and writes what the merge decided (one plan, as every import). */
export async function importIntoLive(
  db: CatalogueDb,
  file: readonly TitleEntry[],
  options: { preferFile?: boolean; now?: number } = {},
): Promise<LiveImportReport> {
  const now = options.now ?? Date.now();
  const rows = await db.rows<LiveRow>(
    `SELECT id, content_hash, version, edited_at, edited_by, CASE WHEN edited_at IS NULL THEN NULL ELSE entry END AS entry, ` +
      `CASE WHEN edited_at IS NULL THEN NULL ELSE state END AS state, CASE WHEN edited_at IS NULL THEN NULL ELSE publish_at END AS publish_at FROM ${TITLES_TABLE}`,
  );
  const live: LiveTitle[] = rows.map((r) => ({
    id: r.id,
    content_hash: r.content_hash,
    version: r.version,
    edited_at: r.edited_at,
    edited_by: r.edited_by,
    ...(r.entry ? { entry: fileEntry(JSON.parse(r.entry) as TitleEntry, r.state ?? "published", r.publish_at ?? 0) } : {}),
  }));
  const tombstones = await db.rows<Tombstone>("SELECT id, deleted_at, deleted_by FROM catalogue_deletions");
  const merge = mergeWithLive(file, live, tombstones, options.preferFile);
  // The file and the kept live titles together must still be one valid catalogue (ids, media numbers).
  const together = validateCatalogue(merge.entries);
  if (!together.ok)
    throw new Error(`the file and the live catalogue together have problems:\n${together.problems.map((p) => "  " + formatProblem(p)).join("\n")}`);
  const titles = titleRows(merge.entries);
  const existing = await db.rows<{ id: string; content_hash: string; position: number; title_order: number; search_version: number }>(
    `SELECT id, content_hash, position, title_order, search_version FROM ${TITLES_TABLE}`,
  );
  const { statements, report } = planImport(titles, existing, now);
  const extra: Statement[] = [];
  for (const id of merge.settled) extra.push({ sql: `UPDATE ${TITLES_TABLE} SET edited_at = NULL, edited_by = NULL WHERE id = ?`, params: [id] });
  for (const id of merge.clearedTombstones) extra.push({ sql: "DELETE FROM catalogue_deletions WHERE id = ?", params: [id] });
  const wrote = statements.length > 0 || extra.length > 0;
  // The edge caches' keys carry the catalogue's version (worker/content-version.ts): an import that wrote raises it.
  if (wrote)
    extra.push({
      sql: "INSERT INTO content_versions (kind, version) VALUES ('catalogue', 1) ON CONFLICT (kind) DO UPDATE SET version = version + 1",
      params: [],
    });
  await db.run([...statements, ...extra]);
  return { ...report, titles: titles.length, conflicts: merge.conflicts };
}

/** The one query of an export. */
export const LIVE_CATALOGUE_SQL = `SELECT entry, state, publish_at, version, edited_at FROM ${TITLES_TABLE} ORDER BY position, id`;

/**
 * The live catalogue as the file holds it: every title in catalogue order, with its state and
 * time, and the version of those holding a web edit the file has not seen (what lets the next
 * import tell a later file edit from a stale file). A catalogue never edited on the web exports
 * as the very file it was imported from.
 */
export async function liveCatalogue(db: CatalogueDb): Promise<TitleEntry[]> {
  const rows = await db.rows<{ entry: string; state: PublicationState; publish_at: number; version: number; edited_at: number | null }>(LIVE_CATALOGUE_SQL);
  return rows.map((r) => fileEntry(JSON.parse(r.entry) as TitleEntry, r.state, r.publish_at, r.edited_at === null ? undefined : r.version));
}
