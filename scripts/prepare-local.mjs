#!/usr/bin/env node
// @ts-check
/**
 * Prepares the local bindings that `wrangler dev` uses (persisted under
 * .wrangler/state/v3): packs the placeholder media when missing or stale
 * (scripts/media/, TypeScript loaded through tsx), seeds them into the local
 * R2 bucket, applies the D1 migrations and imports the catalogue into D1
 * (scripts/catalogue/import.ts; $CATALOGUE_FILE instead of catalogue/titles.json
 * when set, e.g. by the bench) — all in this one process, no cloud account needed.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
import { statements } from "./sql-statements.mjs";

register();
const { prepareMedia } = await import("./media/prepare.ts");
const { openLocalBindings } = await import("./media/seed.ts");
const { importIntoD1, importSummary } = await import("./catalogue/import.ts");

process.env.WRANGLER_SEND_METRICS = "false";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MIGRATIONS_DIR = path.join(REPO_ROOT, "migrations");

/**
 * Applies migrations/*.sql to the local D1 database, recording them in the
 * same d1_migrations table that `wrangler d1 migrations apply` keeps.
 */
export async function applyLocalMigrations({
  log = /** @type {(line: string) => void} */ (console.log),
  persistPath = /** @type {string | undefined} */ (undefined),
} = {}) {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql")).sort();
  const proxy = await openLocalBindings(persistPath);
  try {
    const db = proxy.env.DB;
    await db
      .prepare(
        "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
      )
      .run();
    /** @type {D1Result<{ name: string }>} */
    const rows = await db.prepare("SELECT name FROM d1_migrations").all();
    const applied = new Set(rows.results.map((r) => r.name));
    let count = 0;
    for (const file of files) {
      if (applied.has(file)) continue;
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), "utf8");
      await db.batch([...statements(sql).map((s) => db.prepare(s)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file)]);
      count++;
    }
    log(`d1: ${count} migration(s) applied, ${files.length - count} already there`);
  } finally {
    await proxy.dispose();
  }
}

/**
 * Imports the catalogue file into the local D1 database (apply the migrations first).
 * `persistPath`: another local state's v3 directory (`wrangler dev --persist-to X` → X/v3).
 * @param {{ log?: (line: string) => void, file?: string, persistPath?: string, preferFile?: boolean }} [options]
 */
export async function importLocalCatalogue({
  log = console.log,
  file = process.env.CATALOGUE_FILE || undefined,
  persistPath = undefined,
  preferFile = false,
} = {}) {
  const proxy = await openLocalBindings(persistPath);
  try {
    const outcome = await importIntoD1(proxy.env.DB, file, preferFile);
    log(importSummary(outcome));
    return outcome;
  } finally {
    await proxy.dispose();
  }
}

/**
 * Media, migrations and catalogue, into wrangler dev's default state or another one.
 * `persistPath`: that state's v3 directory (`wrangler dev --persist-to X` → X/v3).
 * @param {{ log?: (line: string) => void, persistPath?: string }} [options]
 */
export async function prepareLocal({ log = console.log, persistPath = undefined } = {}) {
  await prepareMedia({ log, persistPath });
  await applyLocalMigrations({ log, persistPath });
  await importLocalCatalogue({ log, persistPath });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  prepareLocal().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
