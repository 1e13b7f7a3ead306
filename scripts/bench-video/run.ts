/**
 * `npm run bench:video`: playback on a realistic clip under throttled links, HLS (both engines)
 * and the progressive MP4 side by side (docs/performance.md has the latest figures).
 *
 *  1. builds the bench clip (60 s, 1080p, ~5 Mbit/s, moving detail) and packs it like a title
 *     (scripts/media/bench-clip.ts, cached in .media-cache/bench/);
 *  2. seeds it as title 1 into a separate local state (.wrangler/bench-video/), so the real
 *     detail page /video/video_001 plays it through the real worker, edge cache and R2;
 *  3. serves the built site as production does (scripts/production-site.mjs: the worker bundled
 *     for deploy in one workerd process, behind an HTTPS/HTTP2 front that compresses like
 *     Cloudflare's edge) on https://127.0.0.1:$BENCH_VIDEO_PORT (8798);
 *  4. for each link (fast 4G, slow 4G, 3G) and each run, opens the page in Debian's Chromium
 *     with CDP network emulation once per engine (progressive, native, hlsjs) and measures
 *     time to first frame, stalls in the first 45 s, bytes in the first 30 s, seek to 80 % →
 *     playing again, and the height reached; prints medians and checks them against targets;
 *  5. checks that a repeated segment request is answered by the edge cache;
 *  6. records the machine's load average through the run (the machine may be shared).
 *
 *   npm run bench:video                         3 runs per link and engine
 *   npm run bench:video -- --runs 1 --profiles 3G --engines native,hlsjs
 *   npm run bench:video -- --http1               the browser talks HTTP/1.1 to the front
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { register } from "tsx/esm/api";
import { measurePlayback, median, PROFILES, type Engine, type PlaybackFigures } from "./measure";

register();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PORT = Number(process.env.BENCH_VIDEO_PORT ?? 8798);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const STATE = path.join(root, ".wrangler", "bench-video");
const BENCH_N = 1;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const runs = Number(option("runs") ?? 3);
const profiles = PROFILES.filter((p) => (option("profiles") ?? PROFILES.map((x) => x.name).join(",")).split(",").includes(p.name));
const engines = (option("engines") ?? "progressive,native,hlsjs").split(",") as Engine[];

/** Targets of the streaming work (first frame per link; no stall on slow links; seek-resume on slow 4G). */
const FIRST_FRAME_TARGET_MS: Record<string, number> = { "fast 4G": 1000, "slow 4G": 2500, "3G": 4000 };

const fmtMs = (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(2)} s`);
const fmtKb = (b: number | null) => (b === null ? "—" : `${Math.round(b / 1024)} KB`);

async function main(): Promise<void> {
  const { buildBenchClip } = await import("../media/bench-clip");
  const { seedTitles } = await import("../media/seed");
  const clip = await buildBenchClip({ seconds: 60 });
  console.log(`bench clip: ${clip.result.renditions.map((r) => `${r.height}p ${(r.averageBandwidth / 1e6).toFixed(2)} Mbit/s`).join(", ")}`);

  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("vite build failed");
  await seedTitles([{ n: BENCH_N, dir: clip.dir }], console.log, path.join(STATE, "v3"));

  const productionSite: string = "../production-site.mjs";
  const { startProductionSite } = (await import(productionSite)) as {
    startProductionSite: (o: { port: number; state: string }) => Promise<{ baseURL: string; originURL: string; stop: () => Promise<void> }>;
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
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--autoplay-policy=no-user-gesture-required",
      // The front's certificate is a throwaway self-signed one.
      "--ignore-certificate-errors",
      // `--http1`: HTTP/1.1 to the front (CDP's throttling let media through faster than the link over HTTP/2, docs/performance.md).
      ...(process.argv.includes("--http1") ? ["--disable-http2"] : []),
    ],
  });
  const all: PlaybackFigures[] = [];
  try {
    // The edge cache: the second request for a segment is a hit.
    const master = await (await fetch(`${site.originURL}/stream/${BENCH_N}/master.m3u8`)).text();
    const firstPlaylist = master.split("\n").find((l) => l.endsWith(".m3u8") && !l.startsWith("#")) ?? "";
    const playlist = await (await fetch(`${site.originURL}/stream/${BENCH_N}/${firstPlaylist}`)).text();
    const segment = playlist.split("\n").find((l) => l.endsWith(".m4s")) ?? "";
    const segUrl = `${site.originURL}/stream/${BENCH_N}/${segment}`;
    const first = await fetch(segUrl);
    await first.arrayBuffer();
    const second = await fetch(segUrl);
    await second.arrayBuffer();
    console.log(`edge cache: ${segment} first ${first.headers.get("x-cache")}, repeat ${second.headers.get("x-cache")}`);

    for (const profile of profiles) {
      for (let run = 1; run <= runs; run++) {
        for (const engine of engines) {
          const figures = await measurePlayback(browser, `${site.baseURL}/video/video_001`, engine, profile);
          all.push(figures);
          console.log(
            `${profile.name.padEnd(8)} run ${run} ${engine.padEnd(11)} first frame ${fmtMs(figures.firstFrameMs)} (${figures.frameSource}; hydrated ${fmtMs(figures.hydratedMs)}, frame − hydration ${fmtMs(figures.firstFrameVsHydrationMs)}), ` +
              `stalls ${figures.stalls} / ${fmtMs(figures.stallMs)}, media 30 s ${fmtKb(figures.mediaBytes30s)}, seek ${fmtMs(figures.seekResumeMs)}, height ${figures.maxHeight}/${figures.endHeight}, hls.js ${fmtKb(figures.hlsJsBytes)}`,
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
    "| link | engine | first frame | hydrated | frame − hydration | stalls (45 s) | stall time | media bytes (30 s) | all bytes (30 s) | seek 80 % → playing | height max / end |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const summary: Array<Record<string, unknown>> = [];
  let failures = 0;
  for (const profile of profiles) {
    for (const engine of engines) {
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
        maxHeight: median(set.map((f) => f.maxHeight)),
        endHeight: median(set.map((f) => f.endHeight)),
      };
      summary.push({ profile: profile.name, engine, ...m });
      rows.push(
        `| ${profile.name} | ${engine} | ${fmtMs(m.firstFrameMs)} | ${fmtMs(m.hydratedMs)} | ${fmtMs(m.frameVsHydrationMs)} | ${m.stalls ?? "—"} | ${fmtMs(m.stallMs)} | ${fmtKb(m.mediaBytes)} | ${fmtKb(m.totalBytes)} | ${fmtMs(m.seekMs)} | ${m.maxHeight ?? "—"} / ${m.endHeight ?? "—"} |`,
      );
      if (engine !== "progressive") {
        const misses: string[] = [];
        if (m.firstFrameMs === null || m.firstFrameMs > FIRST_FRAME_TARGET_MS[profile.name])
          misses.push(`first frame ${fmtMs(m.firstFrameMs)} > ${fmtMs(FIRST_FRAME_TARGET_MS[profile.name])}`);
        if (profile.name !== "fast 4G" && (m.stalls ?? 1) > 0) misses.push(`${m.stalls} stalls`);
        if (profile.name === "slow 4G" && (m.seekMs === null || m.seekMs > 1500)) misses.push(`seek ${fmtMs(m.seekMs)} > 1.50 s`);
        if (misses.length > 0) {
          failures++;
          console.log(`target missed: ${profile.name} ${engine}: ${misses.join(", ")}`);
        }
      }
    }
  }
  console.log(`\nMedian of ${runs} run(s), 60 s 1080p clip, Debian Chromium with CDP throttling:\n`);
  const fmtLoad = (x: number) => x.toFixed(1);
  console.log(
    `load average (1 min) during the run: ${fmtLoad(loadFigures.min)}–${fmtLoad(loadFigures.max)}, mean ${fmtLoad(loadFigures.mean)} on ${loadFigures.cpus} CPUs\n`,
  );
  console.log(rows.join("\n"));
  fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
  const out = path.join(root, "bench-results", `video-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(out, JSON.stringify({ runs, clip: clip.result.renditions, loadAverage: { ...loadFigures, samples: load }, summary, all }, null, 2));
  console.log(`\n${failures === 0 ? "all targets met" : `${failures} engine/link pair(s) missed a target`}; figures in ${path.relative(root, out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
