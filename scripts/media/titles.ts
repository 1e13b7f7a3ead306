/**
 * The built-in titles' media: placeholder source per title (scripts/media/placeholder.ts), packed
 * (scripts/media/pack.ts) into <repo>/.media-cache/titles/{n}/, two titles at a time. Packs whose
 * key (source, settings, tools, subtitles) is unchanged are kept. Sizes come from the environment:
 *
 *   MEDIA_SECONDS  clip length (default 20)        MEDIA_HEIGHT  source height (default 720)
 *   MEDIA_TITLES   how many titles, from 1 (50)    MEDIA_FPS     frame rate (24)
 *   MEDIA_JOBS     titles packed at once (2)       MEDIA_PRESET  x264 preset (superfast)
 */
import { readdir, rm, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { videos } from "../../shared/catalogue";
import { mediaNumberOf } from "../../shared/stream/contract";
import { subtitleLines } from "../../shared/stream/subtitles";
import { DEFAULT_ENCODE, type EncodeSettings } from "./ladder";
import { packIfNeeded, type PackResult } from "./pack";
import { placeholderSource, type PlaceholderOptions } from "./placeholder";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CACHE_DIR = path.join(REPO_ROOT, ".media-cache");
export const TITLES_DIR = path.join(CACHE_DIR, "titles");

/**
 * 20 s by default: packing costs about 0.42 CPU-seconds per second of clip on this 2-core machine
 * (docs/media-pipeline.md), so 50 × 20 s fits the 5-minute first `npm start`; 60 s would not.
 */
export const DEFAULT_SECONDS = 20;

export interface TitleMediaOptions extends PlaceholderOptions {
  titles: number;
  jobs: number;
  settings: EncodeSettings;
}

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, check: (v: number) => boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) throw new RangeError(`${name}=${raw} is not valid`);
  return value;
}

/** Options from MEDIA_* environment variables (see the header), with the defaults. */
export function titleMediaOptions(env: NodeJS.ProcessEnv = process.env): TitleMediaOptions {
  return {
    seconds: envNumber(env, "MEDIA_SECONDS", DEFAULT_SECONDS, (v) => v >= 2 && v <= 7200),
    height: envNumber(env, "MEDIA_HEIGHT", 720, (v) => Number.isInteger(v) && v >= 90 && v <= 2160 && v % 2 === 0),
    fps: envNumber(env, "MEDIA_FPS", 24, (v) => v === 24 || v === 25 || v === 30),
    titles: envNumber(env, "MEDIA_TITLES", 50, (v) => Number.isInteger(v) && v >= 1 && v <= videos.length),
    jobs: envNumber(env, "MEDIA_JOBS", 2, (v) => Number.isInteger(v) && v >= 1 && v <= 16),
    settings: { ...DEFAULT_ENCODE, preset: env.MEDIA_PRESET || DEFAULT_ENCODE.preset },
  };
}

export interface TitleMedia {
  n: number;
  dir: string;
  result: PackResult;
}

/** The media numbers of the first `count` catalogue titles with their subtitle lines. */
export function catalogueTitles(count: number): Array<{ n: number; lines: string[] }> {
  return videos.slice(0, count).map((video) => {
    const n = Number(mediaNumberOf(video.videoFile));
    if (!n) throw new Error(`${video.id}: no media number in ${video.videoFile}`);
    return { n, lines: subtitleLines(video.title, video.description) };
  });
}

/** Removes what an interrupted run left (temporary and moved-aside pack directories). */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (/\.(tmp|old)-[0-9]+$/.test(name)) await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Packs every title that is missing or stale. */
export async function packTitles(options: TitleMediaOptions = titleMediaOptions(), log: (line: string) => void = console.log): Promise<TitleMedia[]> {
  const started = performance.now();
  await mkdir(TITLES_DIR, { recursive: true });
  await removeLeftovers(TITLES_DIR);
  const titles = catalogueTitles(options.titles);
  const done: TitleMedia[] = [];
  let packed = 0;
  let next = 0;
  const worker = async () => {
    while (next < titles.length) {
      const { n, lines } = titles[next++];
      const dir = path.join(TITLES_DIR, String(n));
      const source = placeholderSource(n, options);
      const r = await packIfNeeded(source, { outDir: dir, subtitleLines: lines, settings: options.settings });
      if (r.packed) {
        packed++;
        log(`media: packed ${n} (${r.result.renditions.map((x) => `${x.height}p`).join("/")}) in ${r.result.seconds} s`);
      }
      done.push({ n, dir, result: r.result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, titles.length) }, worker));
  done.sort((a, b) => a.n - b.n);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `media: ${done.length} titles (${options.seconds} s, ${options.height}p source, ${options.fps} fps) in ` +
      `${path.relative(process.cwd(), TITLES_DIR) || "."}: ${packed} packed, ${done.length - packed} kept, ${seconds} s`,
  );
  return done;
}
