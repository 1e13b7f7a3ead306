#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench -- --catalogue 10000`: the catalogue-size benchmark (docs/decisions/0050-catalogue-in-d1.md).
 * Builds once, then for the built-in catalogue and for a generated one of N titles (unrepeated
 * Chinese titles, 50–80-character descriptions; scripts/catalogue/generate.ts) imports it into the
 * local D1, serves the site with the page cache off and reports side by side:
 *   - JS gzip before interaction per route (the entry and the chunks the page preloads),
 *   - the worker's gzip size (wrangler deploy --dry-run),
 *   - SSR CPU per uncached render (V8 profile of the worker isolate) of /, /category/all,
 *     /category/all?page=300, /search?q=爱 (ranked in SQL), /search?q=ai (pinyin: candidates
 *     ranked in the worker), /video/video_001,
 *   - the time to import the catalogue,
 *   - the machine's 1-minute load average before and after each catalogue's measurements.
 * The local D1 gets the built-in catalogue back at the end. Results: test-output/bench-catalogue.json.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { register } from "tsx/esm/api";
import { busyMs, connectDevtools, UNCOMPRESSED } from "./devtools.mjs";
import { startLocalSite } from "./local-site.mjs";
import { scriptsBeforeHydration } from "./page-scripts.mjs";
import { importLocalCatalogue, prepareLocal } from "./prepare-local.mjs";
import { bundleSize, bundleWorker } from "./worker-bundle.mjs";

register();
const { generateCatalogue } = await import("./catalogue/generate.ts");

process.env.WRANGLER_SEND_METRICS = "false";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.BENCH_PORT ?? 8795);
const INSPECTOR_PORT = PORT + 1000;
const ROUTES = ["/", "/category/all", "/category/all?page=300", "/search?q=爱", "/search?q=ai", "/video/video_001"];
const load = () => Number(os.loadavg()[0].toFixed(2));
const RENDERS = Number(process.env.BENCH_RENDERS ?? 40);
const gzipSize = (/** @type {Buffer | string} */ buf) => zlib.gzipSync(buf, { level: 9 }).length;

/** @param {string} base @param {string} route */
async function jsBeforeInteraction(base, route) {
  const html = await (await fetch(base + encodeURI(route))).text();
  const urls = new Set(scriptsBeforeHydration(html));
  let bytes = 0;
  for (const url of urls) bytes += gzipSize(Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer()));
  return bytes;
}

/** @param {NonNullable<Awaited<ReturnType<typeof connectDevtools>>>} devtools @param {string} base @param {string} route */
async function cpuPerRender(devtools, base, route) {
  const url = (/** @type {number} */ i) => `${base}${encodeURI(route)}${route.includes("?") ? "&" : "?"}cpu=${i}-${Math.random()}`;
  for (let i = 0; i < 5; i++) await (await fetch(url(i), UNCOMPRESSED)).arrayBuffer(); // warm the isolate
  await devtools.call("Profiler.enable");
  await devtools.call("Profiler.setSamplingInterval", { interval: 100 });
  await devtools.call("Profiler.start");
  for (let i = 0; i < RENDERS; i++) await (await fetch(url(i), UNCOMPRESSED)).arrayBuffer();
  const stopped = /** @type {{ profile?: Parameters<typeof busyMs>[0] } | null} */ (await devtools.call("Profiler.stop", {}, 30_000));
  await devtools.call("Profiler.disable");
  return stopped?.profile ? Number((busyMs(stopped.profile) / RENDERS).toFixed(2)) : null;
}

/** @param {string} label @param {string | undefined} file */
async function measure(label, file) {
  const loadBefore = load();
  const outcome = await importLocalCatalogue({ file, log: () => {} });
  const site = await startLocalSite({ port: PORT, inspectorPort: INSPECTOR_PORT, vars: { PAGE_CACHE: "off" }, persistTo: path.join(root, ".wrangler/state") });
  const devtools = await connectDevtools(INSPECTOR_PORT);
  try {
    /** @type {Record<string, { jsGzip: number, cpuMs: number | null, status: number }>} */
    const routes = {};
    for (const route of ROUTES) {
      const status = (await fetch(site.baseURL + encodeURI(route))).status;
      routes[route] = {
        status,
        jsGzip: await jsBeforeInteraction(site.baseURL, route),
        cpuMs: devtools ? await cpuPerRender(devtools, site.baseURL, route) : null,
      };
    }
    return { label, titles: outcome.titles, importMs: outcome.ms, import: outcome, routes, loadAverage: [loadBefore, load()] };
  } finally {
    devtools?.close();
    await site.stop();
  }
}

async function main() {
  const at = process.argv.indexOf("--catalogue");
  const count = Number(process.argv[at + 1] ?? 10000);
  if (!Number.isInteger(count) || count < 1 || count > 99999) throw new Error("--catalogue needs a number of titles (1–99999)");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-worker-"));
  const bundled = bundleWorker(outdir);
  if (!bundled.ok) throw new Error(bundled.output);
  const worker = bundleSize(outdir);
  fs.rmSync(outdir, { recursive: true, force: true });

  await prepareLocal({ log: () => {} }); // media, migrations
  const file = path.join(os.tmpdir(), `catalogue-${count}.json`);
  fs.writeFileSync(file, JSON.stringify(generateCatalogue(count), null, 1));
  const builtIn = await measure("built-in", undefined);
  let generated;
  try {
    generated = await measure(`generated ${count}`, file);
  } finally {
    await importLocalCatalogue({ log: () => {} }); // the built-in catalogue back
    fs.rmSync(file, { force: true });
  }
  const result = { date: new Date().toISOString(), workerGzipBytes: worker.gzipBytes, builtIn, generated };
  fs.mkdirSync(path.join(root, "test-output"), { recursive: true });
  fs.writeFileSync(path.join(root, "test-output/bench-catalogue.json"), JSON.stringify(result, null, 2));
  const kb = (/** @type {number} */ n) => (n / 1024).toFixed(1);
  console.log(`\ncatalogue bench (worker ${kb(worker.gzipBytes)} KiB gzip, the same build for both: no catalogue in it)`);
  console.log(`${"route".padEnd(26)}${"JS gzip KB".padStart(22)}${"SSR CPU ms".padStart(22)}`);
  console.log(`${"".padEnd(26)}${`${builtIn.titles} / ${generated.titles}`.padStart(22)}${`${builtIn.titles} / ${generated.titles}`.padStart(22)}`);
  for (const route of ROUTES) {
    const a = builtIn.routes[route];
    const b = generated.routes[route];
    console.log(`${route.padEnd(26)}${`${kb(a.jsGzip)} / ${kb(b.jsGzip)}`.padStart(22)}${`${a.cpuMs ?? "?"} / ${b.cpuMs ?? "?"}`.padStart(22)}`);
  }
  console.log(
    `import: ${builtIn.titles} titles ${builtIn.importMs} ms · ${generated.titles} titles ${generated.importMs} ms (${JSON.stringify(generated.import)})`,
  );
  console.log(`load average (1 min, before → after): ${builtIn.loadAverage.join(" → ")} · ${generated.loadAverage.join(" → ")} on ${os.cpus().length} CPUs`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
