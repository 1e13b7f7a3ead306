// @ts-check
/**
 * The worker as `wrangler deploy` uploads it, bundled offline (`wrangler deploy --dry-run
 * --outdir`), and its compressed size: used by `npm run deploy -- --dry-run` and by
 * tests/unit/worker-bundle.test.ts, which keeps it under the Workers free plan's limit.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The Workers free plan's limit on a worker's size after compression (gzip): 3 MiB. */
export const FREE_PLAN_GZIP_LIMIT_BYTES = 3 * 1024 * 1024;

/**
 * Bundles the worker into `outdir` as a deploy would, without uploading anything or asking the
 * network (no banner, so no update check). Needs the client build (dist/client-assets.js).
 * @param {string} outdir
 * @returns {{ ok: boolean, output: string }}
 */
export function bundleWorker(outdir) {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true", CI: "true", FORCE_COLOR: "0" },
  });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/**
 * Size of the bundled worker's modules (every file but source maps), raw and gzip-compressed
 * one by one, as the upload compresses them.
 * @param {string} outdir
 * @returns {{ files: string[], bytes: number, gzipBytes: number }}
 */
export function bundleSize(outdir) {
  const files = fs
    .readdirSync(outdir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".map") && entry.name !== "README.md")
    .map((entry) => path.join(entry.parentPath, entry.name));
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = fs.readFileSync(file);
    bytes += content.length;
    gzipBytes += zlib.gzipSync(content, { level: 9 }).length;
  }
  return { files: files.map((file) => path.relative(outdir, file)), bytes, gzipBytes };
}
