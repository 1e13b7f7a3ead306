// `npm run catalogue -- export`: the file it writes for a catalogue never edited on the web is the
// very file (same bytes: the repo's JSON formatting), and the remote export is checked as a dry
// run (the command it would run; no network).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIVE_CATALOGUE_SQL } from "../../shared/catalogue/live-import";
import { CATALOGUE_FILE, readCatalogue } from "../../scripts/catalogue/check";
import { catalogueText } from "../../scripts/catalogue/export";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("catalogue export", () => {
  it("writes the catalogue file's own bytes back for its entries", async () => {
    expect(await catalogueText(readCatalogue(), CATALOGUE_FILE)).toBe(readFileSync(CATALOGUE_FILE, "utf8"));
  });

  it("--remote --dry-run names the read-only query it would run and writes nothing", () => {
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/catalogue/cli.ts", "export", "--remote", "--dry-run", "--file", "/nonexistent/titles.json"],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`wrangler d1 execute DB --remote --json --command ${LIVE_CATALOGUE_SQL}`);
    expect(run.stdout).toContain("dry run");
  });
});
