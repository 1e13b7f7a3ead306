#!/usr/bin/env node
// @ts-check
/**
 * `npm run deploy`: builds the client and deploys the worker with its static
 * assets to Cloudflare Workers (needs `npx wrangler login` first, an R2 bucket
 * and a D1 database as named in wrangler.toml; see README "Deploy").
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
/** @param {string[]} args */
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run([path.join(root, "node_modules/vite/bin/vite.js"), "build"]);
run([path.join(root, "node_modules/wrangler/bin/wrangler.js"), "d1", "migrations", "apply", "DB", "--remote"]);
run([path.join(root, "node_modules/wrangler/bin/wrangler.js"), "deploy"]);
