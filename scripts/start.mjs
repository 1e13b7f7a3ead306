#!/usr/bin/env node
// @ts-check
/**
 * `npm start`: builds the client and worker, prepares the local bindings
 * (media in R2, D1 migrations) and serves the whole site with `wrangler dev`
 * at http://localhost:8787 (or $PORT). No account or key is needed.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepareLocal } from "./prepare-local.mjs";
import { siteDefaults } from "./site-defaults.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.PORT ?? "8787";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
  cwd: root,
  stdio: "inherit",
  env,
});
if (build.status !== 0) process.exit(build.status ?? 1);

await prepareLocal();

console.log(`\n${siteDefaults().siteName} is starting at http://localhost:${port}\n`);
const server = spawn(
  process.execPath,
  [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "dev", "--port", port, "--show-interactive-dev-session=false"],
  {
    cwd: root,
    stdio: "inherit",
    env,
  },
);
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
