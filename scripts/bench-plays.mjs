#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench:plays`: a spike of play beacons on one title, against the built site served
 * locally (wrangler dev, loopback only) with its own fresh local state in a temporary directory.
 * BENCH_PLAYS viewers (each its own network address) send one beacon each, plus BENCH_REPEATS
 * beacons of viewers already counted, BENCH_CONCURRENCY at a time. Then it waits until the
 * shards' flushes (worker/plays/shard.ts) have brought the plays to D1 and checks, exactly:
 * every new viewer counted once, no repeat counted, the day's and the total count equal to the
 * counted beacons. Prints beacons a second, beacon latency p50/p99, the time from the last beacon
 * until the 排行榜 shows the total, and what D1 was written: flushes (one batch each, from the
 * ledger play_flushes) next to the one batch per play of before (decision 0051). Writes
 * bench-results/plays.json; exits 1 when a total is not exact.
 *
 *   npm run build && npm run bench:plays            10,000 viewers, 2,000 repeats
 *   BENCH_PLAYS=2000 npm run bench:plays
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "./json.mjs";
import { freePort, startLocalSite } from "./local-site.mjs";
import { applyLocalMigrations, importLocalCatalogue } from "./prepare-local.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PLAYS = Number(process.env.BENCH_PLAYS ?? 10_000);
const REPEATS = Math.min(PLAYS, Number(process.env.BENCH_REPEATS ?? 2_000));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const TITLE = "video_003";
/** How long the bench waits for the flushes to reach D1 (the shards flush every 10 s). */
const FLUSH_WAIT_MS = 120_000;

/** A distinct IPv6 /64 per viewer (the counter keys a network by its /64). @param {number} i */
const addressOf = (i) => `2001:db8:${(i >> 16) & 0xffff}:${i & 0xffff}::1`;

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * Sends the beacons, `CONCURRENCY` in flight at any time.
 * @param {string} base
 * @param {number[]} viewers
 * @returns {Promise<{ counted: boolean[], latencies: number[], failures: string[] }>}
 */
async function send(base, viewers) {
  /** @type {boolean[]} */
  const counted = new Array(viewers.length);
  /** @type {number[]} */
  const latencies = [];
  /** @type {string[]} */
  const failures = [];
  let next = 0;
  const worker = async () => {
    while (next < viewers.length) {
      const i = next++;
      const started = performance.now();
      const res = await fetch(`${base}/api/plays/${TITLE}`, { method: "POST", headers: { "CF-Connecting-IP": addressOf(viewers[i]) } });
      const text = await res.text();
      /** @type {{ counted?: boolean }} */
      let body = {};
      try {
        body = /** @type {{ counted?: boolean }} */ (parseJson(text));
      } catch {
        failures.push(`not JSON: ${text.slice(0, 80)}`);
      }
      latencies.push(performance.now() - started);
      if (res.status !== 200) failures.push(`${res.status} ${JSON.stringify(body)}`);
      counted[i] = body.counted === true;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { counted, latencies, failures };
}

/**
 * The title's plays of today in the 排行榜 (PAGE_CACHE off: read from D1 each time).
 * @param {string} base
 */
async function rankedPlays(base) {
  const data = /** @type {{ items: Array<{ id: string, views: number }> }} */ (parseJson(await (await fetch(`${base}/api/ranking?period=day`)).text()));
  return data.items.find((item) => item.id === TITLE)?.views ?? 0;
}

async function main() {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plays-"));
  const persistPath = path.join(state, "v3");
  const log = (/** @type {string} */ line) => console.log(`  ${line}`);
  await applyLocalMigrations({ log, persistPath });
  await importLocalCatalogue({ log, persistPath });
  /** @type {string[]} */
  let siteErrors = [];
  const site = await startLocalSite({ port: await freePort(), persistTo: state, prepare: false, vars: { PAGE_CACHE: "off" } });
  /** @type {{ beacons: number, failures: number, firstFailures: string[], countedNew: number, countedRepeat: number, rankedAfterSpike: number, beaconsPerSecond: number, latencyMs: { p50: number, p99: number }, inD1AfterMs: number, expected: number } & Record<string, unknown>} */
  let result;
  try {
    // Warm-up: the isolate, the shards' first instances, the day's salt.
    const warmUp = await send(
      site.baseURL,
      Array.from({ length: 64 }, (_, i) => PLAYS + REPEATS + i),
    );
    const viewers = Array.from({ length: PLAYS }, (_, i) => i);
    // The repeats come after their viewers' first beacon, interleaved with the rest of the spike.
    const order = [...viewers.slice(0, PLAYS / 2), ...viewers.slice(0, REPEATS), ...viewers.slice(PLAYS / 2)];
    const started = performance.now();
    const spike = await send(site.baseURL, order);
    const spikeMs = performance.now() - started;
    const firstSeen = new Set();
    let countedNew = 0;
    let countedRepeat = 0;
    order.forEach((viewer, i) => {
      if (!spike.counted[i]) return;
      if (firstSeen.has(viewer)) countedRepeat++;
      else countedNew++;
      firstSeen.add(viewer);
    });
    // What D1 must hold: every beacon answered {"counted": true}, no more, no less.
    const expected = warmUp.counted.filter(Boolean).length + countedNew + countedRepeat;
    const sent = performance.now();
    let shown = await rankedPlays(site.baseURL);
    while (shown < expected && performance.now() - sent < FLUSH_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      shown = await rankedPlays(site.baseURL);
    }
    const visibleAfterMs = performance.now() - sent;
    const latencies = [...spike.latencies].sort((a, b) => a - b);
    result = {
      beacons: order.length,
      viewers: PLAYS,
      repeats: REPEATS,
      concurrency: CONCURRENCY,
      failures: spike.failures.length,
      firstFailures: spike.failures.slice(0, 5),
      beaconsPerSecond: Math.round(order.length / (spikeMs / 1000)),
      latencyMs: { p50: Math.round(quantile(latencies, 0.5)), p99: Math.round(quantile(latencies, 0.99)) },
      countedNew,
      countedRepeat,
      rankedAfterSpike: shown,
      inD1AfterMs: Math.round(visibleAfterMs),
      expected,
    };
  } finally {
    // The worker's own error lines (a failed beacon or flush logs one), for a run that was not exact.
    siteErrors = site
      .output()
      .split("\n")
      .filter((line) => /plays:|error/i.test(line) && !/DurableObjectNamespace/.test(line))
      .slice(-10);
    await site.stop();
  }
  // What D1 holds, read from the state the site wrote (TypeScript through the tsx loader prepare-local.mjs registered).
  const { openLocalBindings } = await import("./media/seed.ts");
  const proxy = await openLocalBindings(persistPath);
  let d1 = { flushBatches: 0, batchesBefore: 0, titlePlays: 0, titleHits: 0 };
  try {
    const db = proxy.env.DB;
    const flushes = (await db.prepare("SELECT COUNT(*) AS n FROM play_flushes").first("n")) ?? 0;
    const day = (await db.prepare("SELECT SUM(plays) AS n FROM title_plays WHERE title_id = ?").bind(TITLE).first("n")) ?? 0;
    const total = (await db.prepare("SELECT total FROM title_hits WHERE title_id = ?").bind(TITLE).first("total")) ?? 0;
    d1 = { flushBatches: Number(flushes), batchesBefore: result.expected, titlePlays: Number(day), titleHits: Number(total) };
  } finally {
    await proxy.dispose();
    fs.rmSync(state, { recursive: true, force: true });
  }
  // Exact: D1 and the 排行榜 hold every counted answer once, no repeat counted. A beacon that
  // failed (the local runtime restarting mid-request, an overloaded object) counted nothing it
  // answered; all of them are reported.
  const expected = result.expected;
  const exact = result.countedRepeat === 0 && result.rankedAfterSpike === expected && d1.titlePlays === expected && d1.titleHits === expected;
  console.log(
    `plays: ${result.beacons} beacons (${PLAYS} viewers, ${REPEATS} repeats, ${CONCURRENCY} at a time): ${result.beaconsPerSecond}/s, ` +
      `p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ${result.failures} failed`,
  );
  console.log(`  counted ${result.countedNew} new viewers, ${result.countedRepeat} repeats; in the 排行榜 ${result.inD1AfterMs} ms after the last beacon`);
  console.log(
    `  D1: ${d1.flushBatches} flush batches (before: ${d1.batchesBefore}, one per play); title_plays ${d1.titlePlays}, title_hits ${d1.titleHits} (counted answers: ${expected})`,
  );
  if (result.failures > 0) console.log(`  ${result.failures} beacons failed, e.g. ${String(result.firstFailures[0])}`);
  console.log(exact ? "  totals exact" : "  TOTALS NOT EXACT");
  fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench-results/plays.json"), JSON.stringify({ date: new Date().toISOString(), ...result, d1, exact }, null, 2) + "\n");
  if (!exact) {
    for (const line of siteErrors) console.log(`  site: ${line}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
