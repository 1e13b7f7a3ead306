/**
 * `npm run bench:video`: playback on a realistic clip under throttled links, HLS (both engines)
 * and the progressive MP4 side by side (docs/performance.md has the latest figures).
 *
 *  1. builds the bench clip (60 s, 1080p, ~5 Mbit/s, moving detail) and packs it like a title
 *     (scripts/media/bench-clip.ts, cached in .media-cache/bench/);
 *  2. seeds it as title 1 into a separate local state (.wrangler/bench-video/) with the D1
 *     migrations and the catalogue, so the real detail page /video/video_001 plays it through
 *     the real worker, edge cache and R2;
 *  3. serves the built site as production does (scripts/production-site.mjs: the worker bundled
 *     for deploy in one workerd process, behind an HTTPS/HTTP2 front that compresses like
 *     Cloudflare's edge) on https://127.0.0.1:$BENCH_VIDEO_PORT (8798);
 *  4. clears the edge cache, then checks through the front that a repeated segment request is
 *     a miss and then a hit;
 *  5. for each link (fast 4G, slow 4G, 3G) and each run, opens the page in Debian's Chromium
 *     behind that link once per engine (progressive, native, hlsjs forced with ?engine=, and
 *     auto: the page's own choice, with the browser's link estimate set to the link's — the
 *     default path every visitor takes) and measures time to first
 *     frame, stalls in the first 45 s, bytes in the first 30 s, seek to 80 % → playing again,
 *     and the height reached; prints medians and checks them against targets. The link is the
 *     front's: one bottleneck of the link's bandwidth and round trip shared by every connection
 *     of the page (scripts/throttle.mjs), new for each page;
 *  6. once per link and run, on a 390 px touch page with the page's own engine choice
 *     (scripts/bench-video/input.ts): the first effective tap — play/pause tapped again and again
 *     from the first frame, the first tap that changed the video's paused state — and on slow 4G
 *     interaction to next paint in the first 10 s with a 4× CPU slowdown (Event Timing API);
 *  7. records the machine's load average through the run (the machine may be shared).
 *
 *   npm run bench:video                         3 runs per link and engine
 *   npm run bench:video -- --runs 1 --profiles 3G --engines native,hlsjs
 *   npm run bench:video -- --waterfall           also print every request's start and end (first run of each link and engine)
 *   npm run bench:video -- --throttle cdp        Chromium's CDP network emulation instead of the front's link
 *   npm run bench:video -- --http1               the browser talks HTTP/1.1 to the front
 *   npm run bench:video -- --input-only          only the first tap and INP pages (no playback pages, so no JS count)
 *   npm run bench:video -- --no-input            only the playback pages
 *   npm run bench:video -- --input-only --trace  also a performance trace of each INP page: its long tasks in the first 3 s (scripts/bench-video/trace.ts)
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { register } from "tsx/esm/api";
import { INP_CPU_SLOWDOWN, measureFirstTap, measureInp, percentile, type FirstTapFigures, type InpFigures } from "./input";
import { measurePlayback, median, PROFILES, type Engine, type PlaybackFigures, type WaterfallEntry } from "./measure";
import { CHROMIUM, CHROMIUM_FLAGS } from "../chromium";
import { printTrace, summarizeTrace } from "./trace";

register();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PORT = Number(process.env.BENCH_VIDEO_PORT ?? 8798);
const STATE = path.join(root, ".wrangler", "bench-video");
const BENCH_N = 1;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const runs = Number(option("runs") ?? 3);
const profiles = PROFILES.filter((p) => (option("profiles") ?? PROFILES.map((x) => x.name).join(",")).split(",").includes(p.name));
const engines = (option("engines") ?? "progressive,native,hlsjs,auto").split(",") as Engine[];
const throttle = option("throttle") === "cdp" ? "cdp" : "front";
const waterfall = process.argv.includes("--waterfall");
const inputOnly = process.argv.includes("--input-only");
const withInput = !process.argv.includes("--no-input");
const trace = process.argv.includes("--trace");
/** The part of the INP page whose long tasks `--trace` lists (from navigation start), and the shortest it lists. */
const TRACE_WINDOW_MS = { fromMs: 0, toMs: 3000, minMs: 50 };
/** The link INP is measured on (issue 31: slow 4G with a 4× CPU slowdown). */
const INP_PROFILE = "slow 4G";

interface Site {
  baseURL: string;
  originURL: string;
  spki: string;
  setLink: (profile: { downBps: number; upBps: number; rttMs: number } | null) => unknown;
  stop: () => Promise<void>;
}

/** GET through the front (its certificate is self-signed): status, the cache headers, the body's length. */
function getThroughFront(url: string): Promise<{ status: number; cache: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, cache: String(res.headers["cf-cache-status"] ?? res.headers["x-cache"] ?? "none"), bytes }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

function printWaterfall(title: string, entries: readonly WaterfallEntry[], figures: PlaybackFigures): void {
  console.log(`\nwaterfall: ${title} (ms from the document's request; first frame ${figures.firstFrameMs ?? "—"}, hydrated ${figures.hydratedMs ?? "—"})`);
  console.log("  start  headers      end      KB  priority   type        url");
  for (const e of entries) {
    const u = new URL(e.url);
    console.log(
      `  ${String(e.start).padStart(5)}  ${String(e.response ?? "—").padStart(7)}  ${String(e.end ?? "—").padStart(7)}  ${(e.bytes / 1024).toFixed(1).padStart(6)}  ${e.priority.padEnd(9)}  ${e.type.padEnd(10)}  ${u.pathname}${u.search}${e.failed ? "  (failed)" : ""}`,
    );
  }
  console.log("");
}

/**
 * Targets of the player page (issue 31: first frame per link, hydration on the slow links, the
 * JavaScript a page loads without interaction; no stall on slow links; seek-resume and 线路
 * failover on slow 4G).
 */
const FIRST_FRAME_TARGET_MS: Record<string, number> = { "fast 4G": 800, "slow 4G": 1700, "3G": 3500 };
const HYDRATED_TARGET_MS: Record<string, number> = { "slow 4G": 2500, "3G": 4500 };
/** The route's JavaScript budget without interaction (tests/e2e/js-budget-idle.test.ts counts the same). */
const JS_BUDGET_BYTES = 125 * 1024;

const fmtMs = (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(2)} s`);
const fmtKb = (b: number | null) => (b === null ? "—" : `${Math.round(b / 1024)} KB`);
const fmtGzip = (b: number | null) => (b === null ? "—" : `${(b / 1024).toFixed(1)} KB`);

async function main(): Promise<void> {
  const { buildBenchClip } = await import("../media/bench-clip");
  const { seedTitles } = await import("../media/seed");
  const clip = await buildBenchClip({ seconds: 60 });
  console.log(`bench clip: ${clip.result.renditions.map((r) => `${r.height}p ${(r.averageBandwidth / 1e6).toFixed(2)} Mbit/s`).join(", ")}`);

  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("vite build failed");
  await seedTitles([{ n: BENCH_N, dir: clip.dir }], console.log, path.join(STATE, "v3"));
  // The catalogue in the bench state's D1 (the detail page reads it): a fresh clone has none there.
  const prepareLocalModule: string = "../prepare-local.mjs";
  const { applyLocalMigrations, importLocalCatalogue } = (await import(prepareLocalModule)) as {
    applyLocalMigrations: (o: { log: (line: string) => void; persistPath: string }) => Promise<void>;
    importLocalCatalogue: (o: { log: (line: string) => void; persistPath: string }) => Promise<unknown>;
  };
  await applyLocalMigrations({ log: console.log, persistPath: path.join(STATE, "v3") });
  await importLocalCatalogue({ log: console.log, persistPath: path.join(STATE, "v3") });
  // An empty edge cache: the first page of the run reads R2, as the first viewer at an edge does.
  fs.rmSync(path.join(STATE, "v3", "cache"), { recursive: true, force: true });

  const productionSite: string = "../production-site.mjs";
  const { startProductionSite } = (await import(productionSite)) as {
    startProductionSite: (o: { port: number; state: string }) => Promise<Site>;
  };
  const site = await startProductionSite({ port: PORT, state: STATE });
  console.log(`serving ${site.baseURL} (HTTP/2, compressed) in front of the deploy bundle on ${site.originURL}`);
  // The 1-minute load average every 10 s: the machine is shared, and its load shows in page loads and decoding.
  const load: number[] = [os.loadavg()[0]];
  const loadTimer = setInterval(() => load.push(os.loadavg()[0]), 10_000);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...CHROMIUM_FLAGS,
      // The front's certificate is a throwaway self-signed one, trusted by its key: with
      // `--ignore-certificate-errors` instead, Chromium caches nothing (no preload or repeat is
      // ever read from the browser's HTTP cache, as it is on a real site).
      `--ignore-certificate-errors-spki-list=${site.spki}`,
      // `--http1`: HTTP/1.1 to the front (CDP's throttling let media through faster than the link over HTTP/2, docs/performance.md).
      ...(process.argv.includes("--http1") ? ["--disable-http2"] : []),
    ],
  });
  const all: PlaybackFigures[] = [];
  const firstTaps: FirstTapFigures[] = [];
  const inps: InpFigures[] = [];
  try {
    // The edge cache (emptied above): a segment's first request reads R2, the repeat is a hit. Through the front, as a browser asks.
    const master = await (await fetch(`${site.originURL}/stream/${BENCH_N}/master.m3u8`)).text();
    const lastPlaylist = master
      .split("\n")
      .filter((l) => l.endsWith(".m3u8") && !l.startsWith("#"))
      .at(-1);
    const playlist = await (await fetch(`${site.originURL}/stream/${BENCH_N}/${lastPlaylist ?? ""}`)).text();
    // The last segment of the top rendition: no page of the run has asked for it yet.
    const segment = playlist
      .split("\n")
      .filter((l) => l.endsWith(".m4s"))
      .at(-1);
    const segUrl = `${site.baseURL}/stream/${BENCH_N}/${segment ?? ""}`;
    const first = await getThroughFront(segUrl);
    const second = await getThroughFront(segUrl);
    const cacheOk = first.status === 200 && second.status === 200 && first.cache === "MISS" && second.cache === "HIT" && first.bytes === second.bytes;
    console.log(
      `edge cache: ${segment ?? "no segment"} first ${first.cache}, repeat ${second.cache} (${second.bytes} bytes)${cacheOk ? "" : " — NOT served from the edge cache"}`,
    );
    if (!cacheOk) process.exitCode = 1;

    // A warm worker, as at an edge serving a popular title: the first page measured must not pay for the isolate's start.
    for (let i = 0; i < 2; i++) await (await fetch(`${site.originURL}/video/video_001`)).text();

    for (const profile of profiles) {
      for (let run = 1; run <= runs; run++) {
        if (withInput) {
          if (throttle === "front") site.setLink(profile);
          const tap = await measureFirstTap(browser, `${site.baseURL}/video/video_001`, profile, throttle);
          site.setLink(null);
          firstTaps.push(tap);
          console.log(
            `${profile.name.padEnd(8)} run ${run} first tap   first frame ${fmtMs(tap.firstFrameMs)}, first tap sent ${fmtMs(tap.firstTapMs)}, first effective tap ${fmtMs(tap.firstEffectiveTapMs)} (tap ${tap.taps}), ` +
              `dead ${fmtMs(tap.deadMs)}, hydrated ${fmtMs(tap.hydratedMs)}, engine ${tap.engineUsed}`,
          );
          if (profile.name === INP_PROFILE) {
            if (throttle === "front") site.setLink(profile);
            const pageUrl = `${site.baseURL}/video/video_001`;
            const traced: { json?: string } = {};
            const inp = await measureInp(browser, pageUrl, profile, throttle, trace ? { onTrace: (json) => (traced.json = json) } : {});
            site.setLink(null);
            inps.push(inp);
            console.log(
              `${profile.name.padEnd(8)} run ${run} INP         ${inp.inpMs ?? "—"} ms (${inp.taps} taps in 10 s at ${inp.sentAtMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s, controls at ${fmtMs(inp.controlsAtMs)}, ${inp.cpuSlowdown}× CPU; p75 ${inp.p75Ms ?? "—"} ms; ` +
                `latencies ${inp.interactionsMs.join(", ")} ms), hydrated ${fmtMs(inp.hydratedMs)}`,
            );
            for (const slow of inp.slowInteractions)
              console.log(
                `    slow interaction at ${slow.atMs} ms: ${slow.durationMs} ms = input delay ${slow.inputDelayMs} + processing ${slow.processingMs} + presentation ${slow.presentationMs} (${slow.event} on ${slow.target})`,
              );
            for (const frame of inp.longFrames.filter((f) => f.start < TRACE_WINDOW_MS.toMs))
              console.log(
                `    long frame at ${frame.start} ms: ${frame.duration} ms (blocking ${frame.blocking}, render at ${frame.renderStart || "—"}, style/layout at ${frame.styleAndLayoutStart || "—"}): ` +
                  (frame.scripts
                    .map(
                      (x) => `${x.invoker} [${x.source}] ${x.duration} ms${x.forcedStyleAndLayout ? ` (forced style/layout ${x.forcedStyleAndLayout})` : ""}`,
                    )
                    .join("; ") || "no script"),
              );
            if (traced.json !== undefined) {
              fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
              const file = path.join(root, "bench-results", `trace-inp-${new Date().toISOString().replace(/[:.]/g, "-")}-run${run}.json`);
              fs.writeFileSync(file, traced.json);
              console.log(printTrace(summarizeTrace(traced.json, pageUrl, TRACE_WINDOW_MS), `    trace (${path.relative(root, file)})`));
            }
          }
        }
        for (const engine of inputOnly ? [] : engines) {
          if (throttle === "front") site.setLink(profile);
          const figures = await measurePlayback(browser, `${site.baseURL}/video/video_001`, engine, profile, { throttle, waterfall: waterfall && run === 1 });
          site.setLink(null);
          all.push(figures);
          if (figures.waterfall) printWaterfall(`${profile.name} ${engine}`, figures.waterfall, figures);
          delete figures.waterfall;
          console.log(
            `${profile.name.padEnd(8)} run ${run} ${engine.padEnd(11)} first frame ${fmtMs(figures.firstFrameMs)} (${figures.frameSource}; hydrated ${fmtMs(figures.hydratedMs)}, frame − hydration ${fmtMs(figures.firstFrameVsHydrationMs)}), ` +
              `stalls ${figures.stalls} / ${fmtMs(figures.stallMs)}, media 30 s ${fmtKb(figures.mediaBytes30s)}, seek ${fmtMs(figures.seekResumeMs)}, failover ${fmtMs(figures.failoverMs)}, height ${figures.maxHeight}/${figures.endHeight}, ` +
              `2nd segment ${figures.secondSegmentHeight === null ? "—" : `${figures.secondSegmentHeight}p`}, hls.js ${fmtKb(figures.hlsJsBytes)}, engine ${figures.engineUsed}, ` +
              `JS without interaction ${fmtGzip(figures.jsGzipBytes)} gzip (${figures.jsFiles} files)`,
          );
        }
      }
    }
  } finally {
    clearInterval(loadTimer);
    await browser.close();
    await site.stop();
  }
  load.push(os.loadavg()[0]);
  const loadFigures = { min: Math.min(...load), mean: load.reduce((a, b) => a + b, 0) / load.length, max: Math.max(...load), cpus: os.cpus().length };

  const rows: string[] = [
    "| link | engine | first frame | hydrated | frame − hydration | stalls (45 s) | stall time | media bytes (30 s) | all bytes (30 s) | seek 80 % → playing | 线路 failover → playing | height max / end | JS without interaction (gzip) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const summary: Array<Record<string, unknown>> = [];
  let failures = 0;
  for (const profile of profiles) {
    // `--input-only` measures no playback page: no row, no target.
    for (const engine of inputOnly ? [] : engines) {
      const set = all.filter((f) => f.profile === profile.name && f.engine === engine);
      const m = {
        firstFrameMs: median(set.map((f) => f.firstFrameMs)),
        hydratedMs: median(set.map((f) => f.hydratedMs)),
        frameVsHydrationMs: median(set.map((f) => f.firstFrameVsHydrationMs)),
        stalls: median(set.map((f) => f.stalls)),
        stallMs: median(set.map((f) => f.stallMs)),
        mediaBytes: median(set.map((f) => f.mediaBytes30s)),
        totalBytes: median(set.map((f) => f.totalBytes30s)),
        seekMs: median(set.map((f) => f.seekResumeMs)),
        failoverMs: median(set.map((f) => f.failoverMs)),
        maxHeight: median(set.map((f) => f.maxHeight)),
        endHeight: median(set.map((f) => f.endHeight)),
        jsGzipBytes: median(set.map((f) => f.jsGzipBytes)),
      };
      const used = [...new Set(set.map((f) => f.engineUsed))].join("/");
      summary.push({ profile: profile.name, engine, used, ...m });
      rows.push(
        `| ${profile.name} | ${engine === "auto" ? `auto (${used})` : engine} | ${fmtMs(m.firstFrameMs)} | ${fmtMs(m.hydratedMs)} | ${fmtMs(m.frameVsHydrationMs)} | ${m.stalls ?? "—"} | ${fmtMs(m.stallMs)} | ${fmtKb(m.mediaBytes)} | ${fmtKb(m.totalBytes)} | ${fmtMs(m.seekMs)} | ${fmtMs(m.failoverMs)} | ${m.maxHeight ?? "—"} / ${m.endHeight ?? "—"} | ${fmtGzip(m.jsGzipBytes)} |`,
      );
      // The targets are the default path's (auto: the engine the page itself chooses) when it is
      // measured; a forced engine's misses are printed for comparison. Without auto, every HLS
      // engine is held to them.
      if (engine !== "progressive") {
        const counts = engine === "auto" || !engines.includes("auto");
        const misses: string[] = [];
        if (m.firstFrameMs === null || m.firstFrameMs > FIRST_FRAME_TARGET_MS[profile.name])
          misses.push(`first frame ${fmtMs(m.firstFrameMs)} > ${fmtMs(FIRST_FRAME_TARGET_MS[profile.name])}`);
        const hydrationTarget = HYDRATED_TARGET_MS[profile.name];
        if (hydrationTarget !== undefined && (m.hydratedMs === null || m.hydratedMs > hydrationTarget))
          misses.push(`hydrated ${fmtMs(m.hydratedMs)} > ${fmtMs(hydrationTarget)}`);
        // Any run's count: what one visit loaded without interaction, another may too.
        const mostJs = Math.max(0, ...set.map((f) => f.jsGzipBytes ?? 0));
        if (mostJs > JS_BUDGET_BYTES) misses.push(`JS without interaction ${fmtGzip(mostJs)} in a run > ${fmtGzip(JS_BUDGET_BYTES)}`);
        if (profile.name !== "fast 4G" && (m.stalls ?? 1) > 0) misses.push(`${m.stalls} stalls`);
        if (profile.name === "slow 4G" && (m.seekMs === null || m.seekMs > 1500)) misses.push(`seek ${fmtMs(m.seekMs)} > 1.50 s`);
        if (profile.name === "slow 4G" && (m.failoverMs === null || m.failoverMs > 3000)) misses.push(`线路 failover ${fmtMs(m.failoverMs)} > 3.00 s`);
        if (misses.length > 0) {
          if (counts) failures++;
          console.log(`${counts ? "target missed" : "(forced engine, for comparison) over a target"}: ${profile.name} ${engine}: ${misses.join(", ")}`);
        }
      }
    }
  }
  console.log(`\nMedian of ${runs} run(s), 60 s 1080p clip, Debian Chromium, ${throttle === "front" ? "the front's shared link" : "CDP network emulation"}:\n`);
  const fmtLoad = (x: number) => x.toFixed(1);
  console.log(
    `load average (1 min) during the run: ${fmtLoad(loadFigures.min)}–${fmtLoad(loadFigures.max)}, mean ${fmtLoad(loadFigures.mean)} on ${loadFigures.cpus} CPUs\n`,
  );
  if (!inputOnly) console.log(rows.join("\n"));

  // The first effective tap per link, and INP on its link (the page's own engine, 390 px with touch).
  const inputRows: string[] = [
    `| link | first frame | first tap sent | first effective tap | dead time after the first frame | taps lost | hydrated | INP, ${INP_CPU_SLOWDOWN}× CPU: p75 of runs (runs) | interactions p75 |`,
    "|---|---|---|---|---|---|---|---|---|",
  ];
  const inputSummary: Array<Record<string, unknown>> = [];
  for (const profile of profiles) {
    const taps = firstTaps.filter((f) => f.profile === profile.name);
    if (taps.length === 0) continue;
    const inp = inps.filter((f) => f.profile === profile.name);
    const pageInps = inp.flatMap((f) => (f.inpMs === null ? [] : [f.inpMs]));
    const m = {
      firstFrameMs: median(taps.map((f) => f.firstFrameMs)),
      firstTapMs: median(taps.map((f) => f.firstTapMs)),
      firstEffectiveTapMs: median(taps.map((f) => f.firstEffectiveTapMs)),
      tapsLost: median(taps.map((f) => (f.firstEffectiveTapMs === null ? null : f.taps - 1))),
      deadMs: median(taps.map((f) => f.deadMs)),
      hydratedMs: median(taps.map((f) => f.hydratedMs)),
      inpP75Ms: inp.length === 0 ? null : percentile(pageInps, 75),
      interactionsP75Ms:
        inp.length === 0
          ? null
          : percentile(
              inp.flatMap((f) => f.interactionsMs),
              75,
            ),
    };
    inputSummary.push({ profile: profile.name, engines: [...new Set(taps.map((f) => f.engineUsed))], ...m, pageInpsMs: pageInps });
    inputRows.push(
      `| ${profile.name} | ${fmtMs(m.firstFrameMs)} | ${fmtMs(m.firstTapMs)} | ${fmtMs(m.firstEffectiveTapMs)} | ${fmtMs(m.deadMs)} | ${m.tapsLost ?? "—"} | ${fmtMs(m.hydratedMs)} | ` +
        `${inp.length === 0 ? "—" : `${m.inpP75Ms ?? "—"} ms (${pageInps.join(" / ")})`} | ${m.interactionsP75Ms === null ? "—" : `${m.interactionsP75Ms} ms`} |`,
    );
  }
  if (firstTaps.length > 0)
    console.log(`\nThe first tap (median of ${runs}, 390 px with touch, the page's own engine) and INP (first 10 s):\n\n${inputRows.join("\n")}`);
  fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
  const out = path.join(root, "bench-results", `video-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        runs,
        throttle,
        clip: clip.result.renditions,
        loadAverage: { ...loadFigures, samples: load },
        summary,
        all,
        input: { summary: inputSummary, firstTaps, inp: inps },
      },
      null,
      2,
    ),
  );
  console.log(`\n${failures === 0 ? "all targets met" : `${failures} engine/link pair(s) missed a target`}; figures in ${path.relative(root, out)}`);
  if (failures > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
