#!/usr/bin/env node
// @ts-check
/**
 * `npm test`: every check and test layer in one command.
 *  1. static checks, each stopping the run on failure: env.d.ts is what `wrangler types` makes
 *     of wrangler.toml (scripts/types.mjs --check), `tsc --noEmit` (worker, client, shared,
 *     scripts, tests) and again for the pure layer without DOM or runtime types
 *     (tsconfig.pure.json), `eslint . --max-warnings 0`, `prettier --check .`, every repository path
 *     named in a comment or a doc exists (scripts/check-paths.mjs)
 *     (`--no-checks` skips them: the test:unit/worker/e2e scripts),
 *     (with e2e tests to run, the e2e site's media start packing first, alongside everything
 *     else: tests/e2e/pack-media.ts),
 *  2. installs Debian's chromium and fonts-noto-cjk when missing (never a downloaded browser),
 *  3. builds the client and the worker's asset manifest,
 *  4. runs vitest: unit (node), worker (inside workerd), e2e (Chromium against `wrangler dev`).
 * Extra arguments go to vitest, e.g. `npm test -- --project unit`.
 */
import { execSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "./json.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const skipChecks = process.argv.includes("--no-checks");
const args = process.argv.slice(2).filter((a) => a !== "--no-checks");

/**
 * The static checks, in order: name, script (from the root), its arguments, what to run to fix.
 * @type {[name: string, script: string, args: string[], fix: string][]}
 */
const CHECKS = [
  ["types", "scripts/types.mjs", ["--check"], "npm run types"],
  ["typecheck", "node_modules/typescript/bin/tsc", ["--noEmit"], "npm run typecheck"],
  ["typecheck (pure layer)", "node_modules/typescript/bin/tsc", ["--noEmit", "-p", "tsconfig.pure.json"], "npm run typecheck"],
  ["lint", "node_modules/eslint/bin/eslint.js", [".", "--max-warnings", "0"], "npm run lint"],
  ["format", "node_modules/prettier/bin/prettier.cjs", ["--check", ".", "--log-level", "warn"], "npm run format"],
  ["paths", "scripts/check-paths.mjs", [], "npm run check:paths"],
];

function runChecks() {
  for (const [name, script, checkArgs, fix] of CHECKS) {
    console.log(`test: ${name}`);
    const result = spawnSync(process.execPath, [path.join(root, script), ...checkArgs], { cwd: root, stdio: "inherit", env });
    if (result.status !== 0) {
      console.error(`
test: the ${name} check failed (see above; \`${fix}\` runs it alone). No test ran.`);
      process.exit(result.status || 1);
    }
  }
}

const wantsE2E = args.length === 0 || args.some((a) => a.includes("e2e"));

/**
 * The e2e site's media pack alongside the checks and the other tests (tests/e2e/pack-media.ts;
 * seconds: two clips, copied to the other titles): the e2e global setup waits for this status file before seeding.
 */
const mediaStatus = path.join(os.tmpdir(), `yingshi-e2e-media-${process.pid}.json`);
/** @type {Record<string, string>} what vitest's e2e global setup needs to wait for the packer */
const mediaEnv = {};
if (wantsE2E) {
  fs.writeFileSync(mediaStatus, JSON.stringify({ state: "packing" }));
  const packer = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/e2e/pack-media.ts")], {
    cwd: root,
    env: { ...env, E2E_MEDIA_STATUS: mediaStatus },
    stdio: ["ignore", "ignore", "inherit"],
  });
  Object.assign(mediaEnv, { E2E_MEDIA_STATUS: mediaStatus, E2E_MEDIA_PACKER_PID: String(packer.pid ?? "") });
  process.on("exit", () => {
    if (packer.exitCode === null) packer.kill();
    fs.rmSync(mediaStatus, { force: true });
  });
}

if (!skipChecks) runChecks();

function hasCjkFont() {
  try {
    return execSync("fc-list :lang=zh family", { encoding: "utf8" }).trim().length > 0;
  } catch {
    return false;
  }
}

function ensureBrowser() {
  const packages = [];
  if (!fs.existsSync("/usr/bin/chromium")) packages.push("chromium");
  if (!hasCjkFont()) packages.push("fonts-noto-cjk");
  if (packages.length === 0) return;
  console.log(`test: installing ${packages.join(", ")} with apt-get`);
  const sudo = process.getuid && process.getuid() === 0 ? "" : "sudo ";
  execSync(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${packages.join(" ")}`, { stdio: "inherit" });
}

if (wantsE2E) ensureBrowser();

const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
  cwd: root,
  stdio: "inherit",
  env,
});
if (build.status !== 0) process.exit(build.status ?? 1);

fs.mkdirSync(path.join(root, "test-output"), { recursive: true });
const resultsFile = path.join(root, "test-output/results.json");
fs.rmSync(resultsFile, { force: true });
const run = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${resultsFile}`, ...args],
  { cwd: root, stdio: "inherit", env: { ...env, ...mediaEnv } },
);

// One plain closing line that any CI reads: "N passed, N failed".
try {
  const results = /** @type {{ numPassedTests: number, numFailedTests: number, numPendingTests: number, numTodoTests: number, numTotalTests: number }} */ (
    parseJson(fs.readFileSync(resultsFile, "utf8"))
  );
  const skipped = results.numPendingTests + results.numTodoTests;
  console.log(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
  if (results.numTotalTests === 0) {
    console.error("test: no test ran");
    process.exit(1);
  }
} catch {
  console.error("test: vitest wrote no results");
  process.exit(run.status || 1);
}
process.exit(run.status ?? 1);
