/**
 * `npm run catalogue -- export [--remote [--config F]] [--file F] [--dry-run]`: writes the live
 * catalogue (D1: every title, published or not, with its state, time and version) back to
 * catalogue/titles.json, formatted as the repo formats JSON, so operators keep what was edited in
 * the 管理后台 in git (docs/decisions/0074-live-catalogue.md). Local (default): the database
 * `npm start` uses; --remote: the deployed one through `wrangler d1 execute --remote` (read only).
 * --dry-run: reads and validates, says what it would write (and, remote, the command it would run)
 * and writes nothing.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { LIVE_CATALOGUE_SQL, liveCatalogue } from "../../shared/catalogue/live-import";
import { formatProblem, validateCatalogue, type TitleEntry } from "../../shared/catalogue/schema";
import { d1CatalogueDb } from "../../worker/catalogue/import-db";
import { CATALOGUE_FILE } from "./check";
import { remoteDb } from "./import";

export interface ExportOptions {
  file?: string;
  remote?: boolean;
  wranglerConfig?: string;
  dryRun?: boolean;
  log?: (line: string) => void;
}

/** The query a remote export runs (shown by --dry-run --remote). */
export function remoteExportCommand(wranglerConfig?: string): string[] {
  return ["wrangler", "d1", "execute", "DB", "--remote", ...(wranglerConfig ? ["--config", wranglerConfig] : []), "--json", "--command", LIVE_CATALOGUE_SQL];
}

/** The order of an entry's fields in catalogue/titles.json (the schema's, but episodes before status), then how it is published. */
const FILE_KEY_ORDER: readonly (keyof TitleEntry)[] = [
  "id",
  "title",
  "description",
  "category",
  "tags",
  "year",
  "rating",
  "duration",
  "coverImage",
  "videoFile",
  "area",
  "language",
  "directors",
  "actors",
  "aliases",
  "episodes",
  "status",
  "totalEpisodes",
  "subtitles",
  "lines",
  "serial",
  "updateDays",
  "intro",
  "outro",
  "state",
  "publishAt",
  "version",
];

function inFileOrder(entry: TitleEntry): Record<string, unknown> {
  const unknown = Object.keys(entry).filter((key) => !FILE_KEY_ORDER.includes(key as keyof TitleEntry));
  // A field the schema gained but this list lacks would be dropped from the file: stop instead.
  if (unknown.length > 0) throw new Error(`export: add ${unknown.join(", ")} to FILE_KEY_ORDER (scripts/catalogue/export.ts)`);
  return Object.fromEntries(FILE_KEY_ORDER.filter((key) => entry[key] !== undefined).map((key) => [key, entry[key]]));
}

/** The file's text for `entries`: JSON as prettier formats it with the repo's settings, fields in the file's order. */
export async function catalogueText(entries: readonly TitleEntry[], file: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(JSON.stringify(entries.map(inFileOrder)), { ...options, filepath: file });
}

/** Validates what the live catalogue holds (a database written by this code always passes). */
function checked(entries: TitleEntry[]): TitleEntry[] {
  const result = validateCatalogue(entries);
  if (!result.ok) throw new Error(`the live catalogue has problems:\n${result.problems.map((p) => "  " + formatProblem(p)).join("\n")}`);
  return entries;
}

export async function exportCatalogue({
  file = CATALOGUE_FILE,
  remote = false,
  wranglerConfig,
  dryRun = false,
  log = console.log,
}: ExportOptions = {}): Promise<TitleEntry[] | null> {
  const name = path.relative(process.cwd(), file) || file;
  if (remote && dryRun) {
    log(`catalogue export (dry run): would run \`${remoteExportCommand(wranglerConfig).join(" ")}\` and write ${name}`);
    return null;
  }
  let entries: TitleEntry[];
  if (remote) entries = checked(await liveCatalogue(remoteDb(wranglerConfig ? ["--config", wranglerConfig] : [])));
  else {
    const { openLocalBindings } = (await import("../media/seed.ts")) as {
      openLocalBindings: (persist?: string) => Promise<{ env: { DB: D1Database }; dispose(): Promise<void> }>;
    };
    const proxy = await openLocalBindings();
    try {
      entries = checked(await liveCatalogue(d1CatalogueDb(proxy.env.DB)));
    } finally {
      await proxy.dispose();
    }
  }
  const hidden = entries.filter((e) => e.state || e.publishAt).length;
  const summary = `${entries.length} titles (${hidden} not plainly published) from the ${remote ? "live (remote)" : "local"} catalogue`;
  if (dryRun) {
    log(`catalogue export (dry run): ${summary} — ${name} not written`);
    return entries;
  }
  writeFileSync(file, await catalogueText(entries, file));
  log(`catalogue export: ${summary} written to ${name}; commit it to keep the web edits in git`);
  return entries;
}
