/**
 * The built-in titles' media: placeholder source per media number (scripts/media/placeholder.ts),
 * packed (scripts/media/pack.ts) into <repo>/.media-cache/titles/{n}/, two at a time. Every media
 * number the catalogue references is packed: each title's own (episode 1 of a series) and its
 * other episodes' (10000 + title × 100 + N). Packs whose key (source, settings, tools, subtitles)
 * is unchanged are kept. Sizes come from the environment:
 *
 *   MEDIA_SECONDS          title clip length (default 12)   MEDIA_HEIGHT          title source height (720)
 *   MEDIA_EPISODE_SECONDS  episode clip length (6)          MEDIA_EPISODE_HEIGHT  episode source height (360)
 *   MEDIA_TITLES   how many titles, from 1, with their episodes (all)
 *   MEDIA_FPS      frame rate (24)     MEDIA_JOBS  packed at once (2)     MEDIA_PRESET  x264 preset (superfast)
 *   MEDIA_DIR      where the packs go (.media-cache/titles)
 *   MEDIA_SHARED=1 pack one title and one episode and copy those packs to every other media number
 *                  (the e2e site's media, tests/e2e/site-env.ts: the same clip everywhere, seconds to make)
 */
import { existsSync } from "node:fs";
import { readdir, rm, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { videos, type Video } from "../catalogue/titles";
import { episodeCount, episodeMedia } from "../../shared/episodes";
import { mediaNumberOf, SUBTITLE_NAMES, type SubtitleLanguage } from "../../shared/stream/contract";
import { subtitleCues, subtitleLines } from "../../shared/stream/subtitles";
import { subtitleLanguagesOf } from "../../shared/stream/subtitle-tracks";
import { writeSubtitleTracks } from "./subtitle-tracks";
import { DEFAULT_ENCODE, type EncodeSettings } from "./ladder";
import { copyPack, packIfNeeded, readPackResult, type PackResult } from "./pack";
import { placeholderSource, type PlaceholderOptions } from "./placeholder";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CACHE_DIR = path.join(REPO_ROOT, ".media-cache");
/** Where the packs go: $MEDIA_DIR (relative to the repo) when set, e.g. the e2e site's own smaller media. */
export const TITLES_DIR = process.env.MEDIA_DIR ? path.resolve(REPO_ROOT, process.env.MEDIA_DIR) : path.join(CACHE_DIR, "titles");

/**
 * Title clips of 12 s and episode clips of 6 s at 360p by default: with the series' episodes the
 * catalogue references 119 media numbers, and the first `npm start` must stay within 5 minutes on
 * an idle 2-core machine (figures in docs/media-pipeline.md).
 */
export const DEFAULT_SECONDS = 12;
export const DEFAULT_EPISODE_SECONDS = 6;
export const DEFAULT_EPISODE_HEIGHT = 360;

export interface TitleMediaOptions extends PlaceholderOptions {
  titles: number;
  jobs: number;
  settings: EncodeSettings;
  /** Source of episodes 2…N: shorter and smaller (the ladder never upscales: 270p and 360p). */
  episode: { seconds: number; height: number };
  /** Every title gets a copy of the first title's pack, every other episode of the first one's. */
  shared: boolean;
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
    titles: envNumber(env, "MEDIA_TITLES", videos.length, (v) => Number.isInteger(v) && v >= 1 && v <= videos.length),
    jobs: envNumber(env, "MEDIA_JOBS", 2, (v) => Number.isInteger(v) && v >= 1 && v <= 16),
    settings: { ...DEFAULT_ENCODE, preset: env.MEDIA_PRESET || DEFAULT_ENCODE.preset },
    episode: {
      seconds: envNumber(env, "MEDIA_EPISODE_SECONDS", DEFAULT_EPISODE_SECONDS, (v) => v >= 2 && v <= 7200),
      height: envNumber(env, "MEDIA_EPISODE_HEIGHT", DEFAULT_EPISODE_HEIGHT, (v) => Number.isInteger(v) && v >= 90 && v <= 2160 && v % 2 === 0),
    },
    shared: envNumber(env, "MEDIA_SHARED", 0, (v) => v === 0 || v === 1) === 1,
  };
}

export interface TitleMedia {
  n: number;
  dir: string;
  result: PackResult;
}

/** One media number to pack: a title's own media (episode 1) or another episode's. */
export interface MediaItem {
  n: number;
  /** The title's id, and the episode (1 for a title's own media). */
  id: string;
  episode: number;
  /** What the seven-segment display shows: the title number, or "{title}-{episode}". */
  label: string;
  lines: string[];
  /** The subtitle languages the catalogue gives this media (zh-CN: `lines`; others get placeholder lines). */
  languages: SubtitleLanguage[];
  /** A Latin name for the other languages' placeholder lines (the first alias in Latin letters, else the id). */
  latinName: string;
}

function mediaItem(video: Video, titleNumber: number, episode: number): MediaItem {
  const media = episodeMedia(video, episode);
  const n = Number(media && mediaNumberOf(media.videoFile));
  if (!media || !n) throw new Error(`${video.id} episode ${episode}: no media number`);
  const name = video.episodes ? `${video.title} ${media.name}` : video.title;
  return {
    n,
    id: video.id,
    episode,
    label: episode === 1 ? String(n) : `${titleNumber}-${episode}`,
    lines: subtitleLines(name, video.description),
    languages: subtitleLanguagesOf(video, episode),
    latinName: (video.aliases?.find((a) => /^[\x20-\x7e]+$/.test(a)) ?? video.id) + (episode > 1 ? ` — episode ${episode}` : ""),
  };
}

/** Placeholder lines of a language other than zh-CN: the Latin name, then what the track is. */
function placeholderLines(item: MediaItem, language: SubtitleLanguage): string[] {
  if (language === "zh-CN") return item.lines;
  return [item.latinName, `${SUBTITLE_NAMES[language]} subtitles (placeholder)`, `Media ${item.n}, a built-in title of the catalogue`];
}

/** The item's languages in its pack: the other languages' files written, the master listing every one. */
async function addSubtitleLanguages(item: MediaItem, media: TitleMedia): Promise<void> {
  const tracks = item.languages
    .filter((l) => l !== "zh-CN")
    .map((language) => ({ language, cues: subtitleCues(placeholderLines(item, language), media.result.duration) }));
  await writeSubtitleTracks(media.dir, media.result.duration, tracks, item.languages);
}

/**
 * Every media number of the first `count` catalogue titles: each title's own, then its other
 * episodes', with their subtitle lines (the title, 第N集 for episodes, the description).
 */
export function catalogueMedia(count: number): MediaItem[] {
  return videos.slice(0, count).flatMap((video) => {
    const own = Number(mediaNumberOf(video.videoFile));
    if (!own) throw new Error(`${video.id}: no media number in ${video.videoFile}`);
    const episodes = Array.from({ length: episodeCount(video) }, (_, i) => i + 1);
    return episodes.map((episode) => mediaItem(video, own, episode));
  });
}

/** Removes what an interrupted run left (temporary and moved-aside pack directories). */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (/\.(tmp|old)-[0-9]+$/.test(name)) await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * The media of number `n`: real media added by `npm run catalogue -- add` (its source.json) as
 * they are, never replaced by a placeholder; otherwise what `make` packs or copies there.
 */
async function titleMedia(n: number, make: (dir: string) => Promise<PackResult>): Promise<TitleMedia> {
  const dir = path.join(TITLES_DIR, String(n));
  const operator = existsSync(path.join(dir, "source.json")) ? await readPackResult(dir) : null;
  return { n, dir, result: operator ?? (await make(dir)) };
}

/** Packs every title that is missing or stale. */
export async function packTitles(options: TitleMediaOptions = titleMediaOptions(), log: (line: string) => void = console.log): Promise<TitleMedia[]> {
  const started = performance.now();
  await mkdir(TITLES_DIR, { recursive: true });
  await removeLeftovers(TITLES_DIR);
  const all = catalogueMedia(options.titles);
  // Shared media: only the first title and the first other episode are packed, the rest copied after.
  const templates = options.shared ? [all.find((t) => t.episode === 1), all.find((t) => t.episode > 1)].filter((t) => t !== undefined) : all;
  const done: TitleMedia[] = [];
  let packed = 0;
  let next = 0;
  const worker = async () => {
    while (next < templates.length) {
      const { n, lines, label, episode } = templates[next++];
      const size = episode === 1 ? options : { ...options, ...options.episode };
      const source = placeholderSource(n, { seconds: size.seconds, height: size.height, fps: options.fps, label });
      const media = await titleMedia(n, async (dir) => {
        const r = await packIfNeeded(source, { outDir: dir, subtitleLines: lines, settings: options.settings });
        if (r.packed) {
          packed++;
          log(`media: packed ${n} (${r.result.renditions.map((x) => `${x.height}p`).join("/")}) in ${r.result.seconds} s`);
        }
        return r.result;
      });
      done.push(media);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, templates.length) }, worker));
  if (options.shared) {
    for (const item of all) {
      if (templates.includes(item)) continue;
      const template = templates.find((t) => t.episode > 1 === item.episode > 1) ?? templates[0];
      done.push(await titleMedia(item.n, (dir) => copyPack(path.join(TITLES_DIR, String(template.n)), dir)));
    }
  }
  done.sort((a, b) => a.n - b.n);
  // Operator media (catalogue add, a source.json) keep the subtitles their own command wrote.
  const items = new Map(all.map((item) => [item.n, item]));
  for (const media of done) {
    const item = items.get(media.n);
    if (item && !existsSync(path.join(media.dir, "source.json"))) await addSubtitleLanguages(item, media);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const episodes = all.filter((t) => t.episode > 1).length;
  log(
    `media: ${done.length - episodes} titles (${options.seconds} s, ${options.height}p source) and ${episodes} episodes ` +
      `(${options.episode.seconds} s, ${options.episode.height}p), ${options.fps} fps, in ` +
      `${path.relative(process.cwd(), TITLES_DIR) || "."}: ${packed} packed, ${done.length - packed} ${options.shared ? "copied or kept" : "kept"}, ${seconds} s`,
  );
  return done;
}
