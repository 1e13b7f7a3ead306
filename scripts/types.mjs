#!/usr/bin/env node
// @ts-check
/**
 * `npm run types`: writes env.d.ts, the worker's bindings as `wrangler types` reads them from
 * wrangler.toml (offline: it reads the file and nothing else). `--check` (a static check of
 * `npm test`) regenerates into a temporary file and fails when env.d.ts differs.
 *
 * Only the bindings come from wrangler: the configuration variables and secrets are declared by
 * env.variables.d.ts from worker/config.ts's schema, so no local .dev.vars (whose secrets
 * `wrangler types` would otherwise add) changes the output. The runtime types stay
 * @cloudflare/workers-types (tsconfig.json), hence --include-runtime=false.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = "env.d.ts";
/** Where --check generates: beside env.d.ts, so that the generated import paths are the same. */
const CHECK_OUTPUT = ".env-check.d.ts";

/**
 * Writes the generated types to `file` (relative to the root); false (with wrangler's output shown) on failure.
 * @param {string} file
 */
function generate(file) {
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "types", file, "--include-runtime=false", "--env-file=/dev/null"],
    {
      cwd: root,
      encoding: "utf8",
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        // Neither .dev.vars nor .env nor the process's environment: the variables are env.variables.d.ts's.
        CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "false",
        CLOUDFLARE_INCLUDE_PROCESS_ENV: "false",
      },
    },
  );
  if (result.status === 0) return true;
  process.stderr.write(result.stdout + result.stderr);
  console.error(`types: \`wrangler types\` failed (exit ${result.status})`);
  return false;
}

if (process.argv.includes("--check")) {
  const checkPath = path.join(root, CHECK_OUTPUT);
  try {
    if (!generate(CHECK_OUTPUT)) process.exitCode = 1;
    else {
      // The header names the command, hence the output file: compare as if written to env.d.ts.
      const fresh = fs.readFileSync(checkPath, "utf8").replaceAll(CHECK_OUTPUT, OUTPUT);
      const current = fs.existsSync(path.join(root, OUTPUT)) ? fs.readFileSync(path.join(root, OUTPUT), "utf8") : "";
      if (fresh !== current) {
        console.error(`types: ${OUTPUT} is not what \`wrangler types\` makes of wrangler.toml — run npm run types`);
        process.exitCode = 1;
      }
    }
  } finally {
    fs.rmSync(checkPath, { force: true });
  }
} else if (generate(OUTPUT)) {
  console.log(`types: wrote ${OUTPUT}`);
} else {
  process.exitCode = 1;
}
