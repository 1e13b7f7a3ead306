#!/usr/bin/env node
/**
 * Placeholder media for the catalogue (DESIGN.md §6): for every number N,
 *   N.mp4  — H.264 (main, yuv420p) + AAC, +faststart, 640×360, 24 fps, 20–30 s, a per-number
 *            colour and stripe pattern, the number drawn as seven-segment digits (drawbox only:
 *            no fonts needed), a moving marker, a progress bar and a per-number sine tone;
 *   N.webp — the matching 640×360 cover: the first frame of the same filter graph (libwebp).
 * Uses the ffmpeg binary of @ffmpeg-installer/ffmpeg. Output: <repo>/.media-cache/ (git-ignored).
 * Existing files are kept; each file is written under a temporary name and renamed, so an
 * interrupted run never leaves a truncated file behind.
 *
 *   node scripts/generate-media.mjs            # numbers 1–50
 *   node scripts/generate-media.mjs 3 7 12     # only these
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ffmpeg from "@ffmpeg-installer/ffmpeg";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUT_DIR = path.join(REPO_ROOT, ".media-cache");
export const DEFAULT_NUMBERS = Array.from({ length: 50 }, (_, i) => i + 1);

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 24;
const CONCURRENCY = 2;
const TMP_FILE = /^\.\d+\.(mp4|webp)\.\d+\.tmp$/;

/** Per-number parameters: everything derives from N, so reruns are reproducible. */
export function mediaParams(n) {
  const hue = (n * 137.508) % 360; // golden angle: neighbours get distant hues
  return {
    n,
    duration: 20 + ((n * 7) % 11), // 20–30 s
    frequency: 200 + n * 12, // Hz
    background: hslHex(hue, 0.55, 0.42),
    accent: hslHex((hue + 180) % 360, 0.7, 0.6),
    pattern: n % 4, // 0 vertical, 1 horizontal, 2 grid, 3 frames
    stripes: 3 + (n % 5),
  };
}

function hslHex(h, s, l) {
  const k = (m) => (m + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (m) => l - a * Math.max(-1, Math.min(k(m) - 3, 9 - k(m), 1));
  const hex = (x) =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, "0");
  return `0x${hex(f(0))}${hex(f(8))}${hex(f(4))}`;
}

// Seven-segment digits: segment rectangles in a DW×DH cell (a top, b/c right, d bottom, e/f left, g middle).
const DW = 84;
const DH = 150;
const DT = 20;
const GAP = 28;
const SEGMENTS = {
  a: [0, 0, DW, DT],
  b: [DW - DT, 0, DT, DH / 2 + DT / 2],
  c: [DW - DT, DH / 2 - DT / 2, DT, DH / 2 + DT / 2],
  d: [0, DH - DT, DW, DT],
  e: [0, DH / 2 - DT / 2, DT, DH / 2 + DT / 2],
  f: [0, 0, DT, DH / 2 + DT / 2],
  g: [0, DH / 2 - DT / 2, DW, DT],
};
const DIGITS = ["abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg"];

function box(x, y, w, h, color) {
  return `drawbox=x=${Math.round(x)}:y=${Math.round(y)}:w=${Math.round(w)}:h=${Math.round(h)}:c=${color}:t=fill`;
}

/** drawbox filters for the number N centred on the frame, on a dark panel, outlined. */
function numberFilters(n) {
  const text = String(n);
  const scale = Math.min(1, (WIDTH - 80) / (text.length * DW + (text.length - 1) * GAP));
  const dw = DW * scale;
  const gap = GAP * scale;
  const total = text.length * dw + (text.length - 1) * gap;
  const x0 = (WIDTH - total) / 2;
  const y0 = (HEIGHT - DH * scale) / 2 - 10;
  const pad = 26;
  const out = [box(x0 - pad, y0 - pad, total + 2 * pad, DH * scale + 2 * pad, "black@0.55")];
  const rects = [];
  [...text].forEach((ch, i) => {
    // A lone "1" (segments b, c) is centred in its cell rather than pushed to the right.
    const shift = ch === "1" ? -(DW - DT) / 2 : 0;
    for (const seg of DIGITS[Number(ch)]) {
      const [sx, sy, sw, sh] = SEGMENTS[seg];
      rects.push([x0 + i * (dw + gap) + (sx + shift) * scale, y0 + sy * scale, sw * scale, sh * scale]);
    }
  });
  const o = 4; // black outline
  for (const [x, y, w, h] of rects) out.push(box(x - o, y - o, w + 2 * o, h + 2 * o, "black"));
  for (const [x, y, w, h] of rects) out.push(box(x, y, w, h, "white"));
  return out;
}

function patternFilters({ pattern, stripes }) {
  const out = [];
  const shade = "black@0.22";
  if (pattern === 0 || pattern === 2) {
    const w = WIDTH / (2 * stripes);
    for (let i = 0; i < stripes; i++) out.push(box(2 * i * w, 0, w, HEIGHT, shade));
  }
  if (pattern === 1 || pattern === 2) {
    const h = HEIGHT / (2 * stripes);
    for (let i = 0; i < stripes; i++) out.push(box(0, 2 * i * h + h, WIDTH, h, "white@0.15"));
  }
  if (pattern === 3) {
    for (let i = 0; i < stripes; i++) {
      const m = 12 + i * 16;
      out.push(`drawbox=x=${m}:y=${m}:w=${WIDTH - 2 * m}:h=${HEIGHT - 2 * m}:c=${shade}:t=6`);
    }
  }
  return out;
}

/** The filter graph: [v] video (and [a] audio when withAudio). */
export function filterGraph(p, withAudio) {
  const d = p.duration;
  const video = [
    `color=c=${p.background}:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${d}`,
    ...patternFilters(p),
    ...numberFilters(p.n),
  ].join(",");
  const graph = [
    `${video}[base]`,
    `color=c=${p.accent}:s=40x40:r=${FPS}:d=${d}[marker]`,
    `color=c=white:s=${WIDTH}x8:r=${FPS}:d=${d}[bar]`,
    // Marker bounces along the bottom (2 s per pass); the bar fills up over the clip.
    `[base][marker]overlay=x='(W-w)*abs(mod(t,4)-2)/2':y=H-64:shortest=1[m]`,
    `[m][bar]overlay=x='-w+w*t/${d}':y=H-8:shortest=1,format=yuv420p[v]`,
  ];
  if (withAudio) {
    graph.push(`sine=frequency=${p.frequency}:sample_rate=44100:duration=${d},volume=0.3[a]`);
  }
  return graph.join(";");
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg.path, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr = (stderr + d).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}:\n${stderr}`)),
    );
  });
}

const COMMON = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"];

async function produce(target, args) {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    await run([...COMMON, ...args, tmp]);
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

function videoArgs(p) {
  return [
    "-filter_complex", filterGraph(p, true),
    "-map", "[v]", "-map", "[a]",
    "-t", String(p.duration),
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "34",
    "-profile:v", "main", "-pix_fmt", "yuv420p", "-g", String(2 * FPS), "-threads", "1",
    "-c:a", "aac", "-b:a", "48k", "-ac", "1",
    "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
    "-movflags", "+faststart",
    "-f", "mp4",
  ];
}

function coverArgs(p) {
  return [
    "-filter_complex", filterGraph(p, false),
    "-map", "[v]", "-frames:v", "1",
    "-c:v", "libwebp", "-quality", "80",
    "-f", "webp",
  ];
}

/** Removes temporary files left by interrupted runs (older than ten minutes). */
async function removeStaleTemps(outDir) {
  const cutoff = Date.now() - 10 * 60 * 1000;
  for (const name of await readdir(outDir)) {
    if (!TMP_FILE.test(name)) continue;
    const file = path.join(outDir, name);
    const s = await stat(file).catch(() => null);
    if (s && s.mtimeMs < cutoff) await unlink(file).catch(() => {});
  }
}

/**
 * Generates the missing N.mp4 / N.webp files. Returns the output directory.
 * @param {{ numbers?: number[], outDir?: string, log?: (line: string) => void }} [options]
 */
export async function generateMedia({ numbers = DEFAULT_NUMBERS, outDir = DEFAULT_OUT_DIR, log = console.log } = {}) {
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 1 || n > 999999) throw new RangeError(`bad media number: ${n}`);
  }
  const started = performance.now();
  await mkdir(outDir, { recursive: true });
  await removeStaleTemps(outDir);

  let made = 0;
  let kept = 0;
  const jobs = [];
  for (const n of numbers) {
    const p = mediaParams(n);
    for (const [name, args] of [
      [`${n}.mp4`, videoArgs(p)],
      [`${n}.webp`, coverArgs(p)],
    ]) {
      const target = path.join(outDir, name);
      if (existsSync(target)) kept++;
      else jobs.push({ target, args });
    }
  }

  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      await produce(job.target, job.args);
      made++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));

  let bytes = 0;
  for (const n of numbers) {
    for (const ext of ["mp4", "webp"]) bytes += (await stat(path.join(outDir, `${n}.${ext}`))).size;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `media: ${numbers.length} numbers → ${path.relative(process.cwd(), outDir) || "."} ` +
      `(${made} made, ${kept} kept, ${(bytes / 1e6).toFixed(1)} MB) in ${seconds} s`,
  );
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).map(Number);
  generateMedia(args.length > 0 ? { numbers: args } : {}).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
