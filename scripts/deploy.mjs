#!/usr/bin/env node
// @ts-check
/**
 * `npm run deploy`: builds the client and deploys the worker with its static
 * assets to Cloudflare Workers (needs `npx wrangler login` first, an R2 bucket
 * and a D1 database as named in wrangler.toml; see README "Deploy").
 *
 * `npm run deploy -- --dry-run`: builds and bundles the worker exactly as a deploy would, offline
 * and without uploading anything, into dist/worker, and prints its size (gzip) next to the Workers
 * free plan's limit.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleSize, bundleWorker, FREE_PLAN_GZIP_LIMIT_BYTES } from "./worker-bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const dryRun = process.argv.includes("--dry-run");

/** @param {string[]} args */
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

run([path.join(root, "node_modules/vite/bin/vite.js"), "build", ...(dryRun ? ["--logLevel", "warn"] : [])]);
if (dryRun) {
  const outdir = path.join(root, "dist/worker");
  const bundle = bundleWorker(outdir);
  if (!bundle.ok) {
    console.error(`deploy --dry-run: bundling the worker failed\n${bundle.output}`);
    process.exit(1);
  }
  const size = bundleSize(outdir);
  const share = ((size.gzipBytes / FREE_PLAN_GZIP_LIMIT_BYTES) * 100).toFixed(1);
  console.log(`deploy --dry-run: worker bundled into ${path.relative(root, outdir)}/ (${size.files.join(", ")}), nothing uploaded`);
  console.log(`worker size: ${kib(size.bytes)}, gzip ${kib(size.gzipBytes)} — ${share} % of the free plan's ${kib(FREE_PLAN_GZIP_LIMIT_BYTES)}`);
  if (size.gzipBytes > FREE_PLAN_GZIP_LIMIT_BYTES) {
    console.error("deploy --dry-run: the worker is over the Workers free plan's size limit");
    process.exit(1);
  }
} else {
  run([path.join(root, "node_modules/wrangler/bin/wrangler.js"), "d1", "migrations", "apply", "DB", "--remote"]);
  run([path.join(root, "node_modules/wrangler/bin/wrangler.js"), "deploy"]);
}
