#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench:admin-titles [-- N]`: 视频管理 at N titles (default 10,000; docs/admin.md,
 * docs/performance.md). In its own local state (.wrangler/bench-admin-titles, no media): the D1
 * migrations, a generated catalogue of N titles (scripts/catalogue/generate.ts) imported, then
 * `wrangler dev` with the page cache off; an admin is made (`npm run admin`'s function) and passes
 * the second step through the API. Each list, search and filter route of 视频管理 is fetched
 * WARM times, then RUNS times: the median and p95 of the answer's time on this machine (the
 * worker and local D1 — server time, no network) and the total it reports. Not a test: figures.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
import { freePort, startLocalSite } from "./local-site.mjs";
import { applyLocalMigrations, importLocalCatalogue } from "./prepare-local.mjs";

register();
const { generateCatalogue } = await import("./catalogue/generate.ts");
const { changeRole } = await import("./admin/roles.ts");
const { totpCode } = await import("../worker/admin/totp.ts");

process.env.WRANGLER_SEND_METRICS = "false";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const COUNT = Number(process.argv[2] ?? 10_000);
const WARM = 3;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const STATE = path.join(root, ".wrangler/bench-admin-titles");
const PERSIST = path.join(STATE, "v3");
const ROUTES = [
  "/api/admin/titles",
  "/api/admin/titles?sort=title",
  "/api/admin/titles?sort=year&page=100",
  "/api/admin/titles?state=draft",
  "/api/admin/titles?category=%E7%94%B5%E5%BD%B1",
  "/api/admin/titles?q=%E7%88%B1",
  "/api/admin/titles?q=ai",
  "/api/admin/titles?q=wgly",
  "/api/admin/titles?q=%E7%88%B1&category=%E7%94%B5%E5%BD%B1&state=published&sort=relevance",
  "/admin/titles",
  "/admin/titles?q=%E7%88%B1&category=%E7%94%B5%E5%BD%B1",
];

/** @param {number[]} values @param {number} q */
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

fs.rmSync(STATE, { recursive: true, force: true });
await applyLocalMigrations({ log: () => {}, persistPath: PERSIST });
const file = path.join(os.tmpdir(), `bench-admin-titles-${COUNT}.json`);
fs.writeFileSync(file, JSON.stringify(generateCatalogue(COUNT)));
const importStarted = performance.now();
await importLocalCatalogue({ file, log: () => {}, persistPath: PERSIST });
console.log(`imported ${COUNT} titles in ${((performance.now() - importStarted) / 1000).toFixed(1)} s`);

const port = await freePort();
const site = await startLocalSite({ port, persistTo: STATE, prepare: false, vars: { PAGE_CACHE: "off" } });
const base = site.baseURL;
try {
  const email = `bench-admin-${Date.now()}@example.com`;
  const password = "Bench-admin-1234";
  /** @type {Map<string, string>} */
  const jar = new Map();
  /** @param {Response} res */
  const absorb = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  /** @param {string} route @param {unknown} body */
  const post = async (route, body) => {
    const res = await fetch(base + route, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie() },
      body: JSON.stringify(body),
    });
    absorb(res);
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return /** @type {Record<string, unknown>} */ (await res.json());
  };
  await post("/api/auth/sign-up", { email, password, confirmPassword: password });
  await changeRole({ command: "grant", email, role: "admin", remote: false }, { persistPath: PERSIST, log: () => {} });
  const { secret } = /** @type {{ secret: string }} */ (await post("/api/admin/two-step/enrol", {}));
  await post("/api/admin/two-step/confirm", { code: totpCode(secret.replace(/\s/g, ""), Date.now()) });

  const rows = [];
  for (const route of ROUTES) {
    /** @type {number[]} */
    const times = [];
    let total = "";
    for (let i = 0; i < WARM + RUNS; i++) {
      const started = performance.now();
      const res = await fetch(base + route, { headers: { Cookie: cookie() } });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${route}: ${res.status} ${text.slice(0, 200)}`);
      if (i >= WARM) times.push(ms);
      if (route.startsWith("/api/")) {
        const answer = /** @type {unknown} */ (JSON.parse(text));
        total = String(answer && typeof answer === "object" && "total" in answer ? answer.total : "");
      }
    }
    rows.push({ route: decodeURIComponent(route), median: quantile(times, 0.5), p95: quantile(times, 0.95), total });
  }
  console.log(`\n视频管理 at ${COUNT} titles, ${RUNS} runs each (load ${os.loadavg()[0].toFixed(2)}, ${os.cpus().length} cores):`);
  console.log("| route | median ms | p95 ms | total |\n|---|---|---|---|");
  for (const r of rows) console.log(`| \`${r.route}\` | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.total} |`);
} finally {
  await site.stop();
  fs.rmSync(file, { force: true });
}
