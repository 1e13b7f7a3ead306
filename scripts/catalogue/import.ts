/**
 * `npm run catalogue -- import [--remote] [--file F]`: loads the catalogue file into D1.
 *
 * Local (default): the D1 database that `wrangler dev` and `npm start` use (.wrangler/state),
 * through wrangler's platform proxy, migrations applied first. `npm start`, the e2e site and
 * the bench run it through scripts/prepare-local.mjs.
 * Remote (--remote): the deployed database, through `wrangler d1 migrations apply` and
 * `wrangler d1 execute --remote` (the operator's Cloudflare login).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CATALOGUE_FILE, readCatalogue } from "./check";
import { type CatalogueDb, type SqlValue, type Statement } from "../../shared/catalogue/import-plan";
import { conflictLine, importIntoLive, type LiveImportReport } from "../../shared/catalogue/live-import";
import { d1CatalogueDb } from "../../worker/catalogue/import-db";

process.env.WRANGLER_SEND_METRICS = "false";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WRANGLER = path.join(REPO_ROOT, "node_modules/wrangler/bin/wrangler.js");
/** The D1 binding's name in wrangler.toml. */
const DB_BINDING = "DB";

export interface ImportOptions {
  file?: string;
  remote?: boolean;
  /** A wrangler config naming the remote database by id (remote only; `npm run deploy` writes one). */
  wranglerConfig?: string;
  /** Conflicts with web edits: the file wins instead of the live title (decision 0074). */
  preferFile?: boolean;
  log?: (line: string) => void;
}

export interface ImportOutcome extends LiveImportReport {
  ms: number;
}

/** A SQL literal, for the statement file of a remote import. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** A statement with its parameters written in (each `?` in order; our SQL has no `?` in literals). */
export function inlineStatement(s: Statement): string {
  let i = 0;
  const sql = s.sql.replace(/\?/g, () => sqlLiteral(s.params[i++] ?? null));
  if (i !== s.params.length) throw new Error(`statement has ${i} placeholders for ${s.params.length} parameters: ${s.sql}`);
  return sql + ";";
}

function wrangler(args: string[]): string {
  const out = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    maxBuffer: 512 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed:\n${out.stderr || out.stdout}`);
  return out.stdout;
}

/** D1's longest SQL statement is 100,000 bytes: merged INSERTs stay well under it. */
const MAX_STATEMENT_BYTES = 90_000;

const INSERT_HEAD = /^(INSERT(?: OR REPLACE)? INTO \w+ \([^)]*\) VALUES )/;

/**
 * The statements with their parameters written in. Consecutive INSERTs into the same table and
 * columns become one statement of many rows (up to MAX_STATEMENT_BYTES): the bound form is
 * capped at 100 parameters, a literal statement is not, and each statement costs the database
 * a parse and a round through its executor.
 */
export function mergedStatements(statements: readonly Statement[]): string[] {
  const out: string[] = [];
  let head: string | null = null;
  let tuples: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (head !== null && tuples.length > 0) out.push(head + tuples.join(", "));
    head = null;
    tuples = [];
    bytes = 0;
  };
  for (const statement of statements) {
    const sql = inlineStatement(statement).slice(0, -1);
    const match = INSERT_HEAD.exec(sql);
    if (!match) {
      flush();
      out.push(sql);
      continue;
    }
    const values = sql.slice(match[1].length);
    const size = Buffer.byteLength(values) + 2;
    if (head !== match[1] || bytes + size > MAX_STATEMENT_BYTES) {
      flush();
      head = match[1];
      bytes = Buffer.byteLength(head);
    }
    tuples.push(values);
    bytes += size;
  }
  flush();
  return out;
}

/** The statements as one SQL file (the remote import's). */
export function sqlFile(statements: readonly Statement[]): string {
  return mergedStatements(statements)
    .map((sql) => sql + ";\n")
    .join("");
}

/** Runs statements through `wrangler d1 execute --remote` as one SQL file, once (D1's import API: no splitting here). */
function runFile(statements: readonly Statement[], where: string[]): Promise<void> {
  if (statements.length === 0) return Promise.resolve();
  const dir = mkdtempSync(path.join(tmpdir(), "catalogue-import-"));
  try {
    const file = path.join(dir, "import.sql");
    writeFileSync(file, sqlFile(statements));
    wrangler(["d1", "execute", DB_BINDING, ...where, "--yes", "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Promise.resolve();
}

/** The deployed D1 database through wrangler (the statements go as one SQL file, run once). */
export function remoteDb(config: string[]): CatalogueDb {
  return {
    rows<T>(sql: string) {
      const out = JSON.parse(wrangler(["d1", "execute", DB_BINDING, "--remote", ...config, "--json", "--command", sql])) as Array<{ results: T[] }>;
      return Promise.resolve(out.flatMap((r) => r.results));
    },
    run: (statements) => runFile(statements, ["--remote", ...config]),
  };
}

/** Batches through the platform proxy cost a few ms per statement: large imports go as merged literal statements instead. */
const PROXY_MAX_STATEMENTS = 2000;

/** Merged statements per batch through the proxy (each up to 90 KB). */
const LITERAL_BATCH = 20;

/**
 * The local D1 database through the open proxy binding: a small import as bound statements, a
 * large one (10,000 titles: seconds, not minutes) as merged literal statements. Not through
 * `wrangler d1 execute --local --file`: its statement splitter rescans each statement's text
 * per character, which is quadratic in the length of a merged INSERT.
 */
function localDb(db: D1Database): CatalogueDb {
  const proxy = d1CatalogueDb(db);
  return {
    rows: (sql) => proxy.rows(sql),
    async run(statements) {
      if (statements.length <= PROXY_MAX_STATEMENTS) return proxy.run(statements);
      const merged = mergedStatements(statements);
      for (let i = 0; i < merged.length; i += LITERAL_BATCH) await db.batch(merged.slice(i, i + LITERAL_BATCH).map((sql) => db.prepare(sql)));
    },
  };
}

/** Imports the catalogue into a local D1 binding that is already open (migrations applied), keeping web edits (decision 0074). */
export async function importIntoD1(db: D1Database, file: string = CATALOGUE_FILE, preferFile = false): Promise<ImportOutcome> {
  const started = performance.now();
  const report = await importIntoLive(localDb(db), readCatalogue(file), { preferFile });
  return { ...report, ms: Math.round(performance.now() - started) };
}

export function importSummary(outcome: ImportOutcome): string {
  const { titles, added, changed, moved, removed, unchanged, rekeyed, ms, conflicts } = outcome;
  const keys = rekeyed > 0 ? `, search keys rewritten for ${rekeyed}` : "";
  const head = `catalogue: ${titles} titles imported in ${ms} ms — ${added} added, ${changed} changed, ${moved} moved, ${removed} removed, ${unchanged} unchanged${keys}`;
  if (conflicts.length === 0) return head;
  return [
    head,
    `${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"} with the live catalogue (edited in the 管理后台; docs/decisions/0074-live-catalogue.md):`,
    ...conflicts.map((c) => "  " + conflictLine(c)),
    "Run `npm run catalogue -- export` to bring the live catalogue into the file (then commit it), or import with --prefer-file to let the file win.",
  ].join("\n");
}

/** The whole command: validate, then import locally or remotely. */
export async function importCatalogue({
  file = CATALOGUE_FILE,
  remote = false,
  wranglerConfig,
  preferFile = false,
  log = console.log,
}: ImportOptions = {}): Promise<ImportOutcome> {
  if (!remote) {
    const { applyLocalMigrations, importLocalCatalogue } = await import("../prepare-local.mjs");
    await applyLocalMigrations({ log });
    return importLocalCatalogue({ log, file, preferFile });
  }
  const started = performance.now();
  const entries = readCatalogue(file);
  // wrangler.toml names the database without an id: `npm run deploy` passes a config that has it.
  const config = wranglerConfig ? ["--config", wranglerConfig] : [];
  wrangler(["d1", "migrations", "apply", DB_BINDING, "--remote", ...config]);
  const report = await importIntoLive(remoteDb(config), entries, { preferFile });
  const outcome = { ...report, ms: Math.round(performance.now() - started) };
  log(importSummary(outcome) + " (remote)");
  return outcome;
}
