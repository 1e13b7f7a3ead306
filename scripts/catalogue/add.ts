/**
 * `npm run catalogue -- add <file|folder> [--title … --category … --series <id> --episode N]
 * [--cover image] [--description …] [--year N] [--remote [--url origin]]`
 *
 * Probes real media (scripts/catalogue/probe.ts), packs it with the streaming packer into
 * .media-cache/titles/{n}/ (the cover is a frame of the video unless --cover is given), publishes
 * it — into the local R2 bucket, or with --remote through the live worker's upload endpoint — and
 * only then writes the entry into catalogue/titles.json (validated, written atomically). A file is
 * known by the SHA-256 of its bytes (catalogue/media-sources.json): adding it again changes nothing.
 * A folder becomes one series, its files (in name order) its episodes.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { validateCatalogue, type TitleEntry } from "../../shared/catalogue/schema";
import { planMedia } from "../deploy/plan";
import { subtitleLines } from "../../shared/stream/subtitles";
import { convertSubtitles } from "../../shared/stream/subtitle-convert";
import { orderedLanguages } from "../../shared/stream/subtitle-tracks";
import { DEFAULT_SUBTITLE_LANGUAGES, isSubtitleLanguage, SUBTITLE_LANGUAGES } from "../../shared/stream/contract";
import { AAC_SAMPLE_RATE } from "../../shared/stream/ladder";
import { writeSubtitleTracks, type SubtitleTrack } from "../media/subtitle-tracks";
import { listObjects } from "../deploy/endpoint";
import { localMedia } from "../deploy/local-media";
import { uploadMedia } from "../deploy/upload";
import { runFfmpeg } from "../media/ffmpeg";
import { packIfNeeded } from "../media/pack";
import { applySeriesMarkers, detectEpisodeMarkers, seriesMarkers } from "../media/intro-detect";
import { seedTitles } from "../media/seed";
import { fileHash, type SourceSpec } from "../media/source";
import { TITLES_DIR, REPO_ROOT } from "../media/titles";
import { CATALOGUE_FILE } from "./check";
import { importCatalogue } from "./import";
import { probe, type MediaInfo } from "./probe";

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|mkv|webm|avi|ts|flv|wmv|mpg|mpeg)$/i;

export class AddError extends Error {}

type Sources = Record<string, { sha256: string; name: string }>;

export interface AddOptions {
  title?: string;
  category?: string[];
  series?: string;
  episode?: number;
  cover?: string;
  description?: string;
  year?: number;
  remote?: boolean;
  url?: string;
  catalogueFile?: string;
  titlesDir?: string;
  /** Do not look for 片头 / 片尾 across the series' episodes (scripts/media/intro-detect.ts). */
  skipMarkers?: boolean;
  /** 字幕 files by language ("en" → "movie.en.srt"): SRT, ASS or WebVTT, converted to WebVTT (one media file only). */
  subtitles?: ReadonlyArray<{ language: string; file: string }>;
  log?: (line: string) => void;
}

/** The --subtitles files read and converted before anything is packed: a bad one stops the command early. */
async function subtitleTracksOf(list: NonNullable<AddOptions["subtitles"]>): Promise<SubtitleTrack[]> {
  const tracks: SubtitleTrack[] = [];
  for (const { language, file } of list) {
    if (!isSubtitleLanguage(language)) throw new AddError(`--subtitles ${language}=…: the language must be one of ${SUBTITLE_LANGUAGES.join(", ")}`);
    const text = await readFile(path.resolve(file), "utf8").catch(() => {
      throw new AddError(`--subtitles ${language}=${file}: cannot read the file`);
    });
    const converted = convertSubtitles(text);
    if (!converted.ok) throw new AddError(`--subtitles ${language}=${file}: ${converted.message}`);
    tracks.push({ language, cues: converted.cues });
  }
  return tracks;
}

const numberOf = (file: string) => Number(file.replace(/^\/+/, "").replace(/\.\w+$/, ""));

function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h > 0 ? `${two(h)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}

function usedNumbers(titles: readonly TitleEntry[]): Set<number> {
  const used = new Set<number>();
  for (const t of titles) {
    used.add(numberOf(t.videoFile));
    for (const e of t.episodes ?? []) used.add(numberOf(e.videoFile));
  }
  return used;
}

async function videoFiles(target: string): Promise<string[]> {
  const s = await stat(target).catch(() => null);
  if (!s) throw new AddError(`${target}: no such file or folder`);
  if (s.isFile()) return [path.resolve(target)];
  const names = (await readdir(target)).filter((n) => VIDEO_EXTENSIONS.test(n)).sort((a, b) => a.localeCompare(b, "zh-CN", { numeric: true }));
  if (names.length === 0) throw new AddError(`${target}: no video files in this folder`);
  return names.map((n) => path.resolve(target, n));
}

/** The packer's source for a probed file; a file without sound gets silence (stereo at the ladder's AAC rate). */
function sourceOf(info: MediaInfo, sha256: string): SourceSpec {
  const fps = Math.round(info.video.fps * 1000) / 1000;
  const even = (n: number) => n - (n % 2);
  const base = { width: even(info.video.width), height: even(info.video.height), fps, duration: info.duration, identity: `file-sha256:${sha256}` };
  if (info.audio) return { ...base, inputs: ["-i", info.file], video: "0:v:0", audio: "0:a:0" };
  return {
    ...base,
    inputs: ["-i", info.file, "-f", "lavfi", "-t", String(info.duration), "-i", `anullsrc=r=${AAC_SAMPLE_RATE}:cl=stereo`],
    video: "0:v:0",
    audio: "1:a:0",
  };
}

/** Writes JSON formatted as the repository formats it (prettier), through a temporary file. */
async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const prettier = await import("prettier");
  const text = await prettier.format(JSON.stringify(value), {
    ...(await prettier.resolveConfig(path.join(REPO_ROOT, "catalogue", "titles.json"))),
    parser: "json",
  });
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

export async function addMedia(target: string, options: AddOptions = {}): Promise<{ id: string; added: number[]; unchanged: number[] }> {
  const log = options.log ?? console.log;
  const catalogueFile = options.catalogueFile ?? CATALOGUE_FILE;
  const sourcesFile = path.join(path.dirname(catalogueFile), "media-sources.json");
  const titlesDir = options.titlesDir ?? TITLES_DIR;

  // 1. Everything is checked before anything is written.
  const files = await videoFiles(target);
  const infos: MediaInfo[] = [];
  for (const file of files) infos.push(await probe(file));
  for (const info of infos)
    log(
      `probe: ${path.basename(info.file)}: ${formatDuration(info.duration)}, ${info.video.codec} ${info.video.width}×${info.video.height} ${info.video.fps} fps, ${info.audio?.codec ?? "no audio"}, ${(info.bytes / 1e6).toFixed(1)} MB`,
    );
  const raw = JSON.parse(await readFile(catalogueFile, "utf8")) as unknown[];
  const parsed = validateCatalogue(raw);
  if (!parsed.ok) throw new AddError(`${catalogueFile} has problems: run npm run catalogue -- check`);
  const titles = parsed.titles;
  const sources: Sources = existsSync(sourcesFile) ? (JSON.parse(await readFile(sourcesFile, "utf8")) as Sources) : {};
  const used = usedNumbers(titles);
  const hashes = await Promise.all(files.map((f) => fileHash(f)));
  const known = (sha: string) => Object.entries(sources).find(([n, s]) => s.sha256 === sha && used.has(Number(n)))?.[0];

  let entry: TitleEntry;
  const isSeries = Boolean(options.series) || files.length > 1;
  const existing = options.series ? titles.find((t) => t.id === options.series) : undefined;
  if (options.series && !existing) throw new AddError(`--series ${options.series}: no such title in the catalogue`);
  if (options.episode !== undefined && !(Number.isInteger(options.episode) && options.episode >= 1))
    throw new AddError("--episode must be a whole number from 1");
  if (existing) entry = structuredClone(existing);
  else {
    const ids = titles.map((t) => Number(t.id.slice(6)));
    const id = `video_${String(Math.max(0, ...ids) + 1).padStart(3, "0")}`;
    let n = 1;
    while (used.has(n) || n >= 10000) n++;
    const name = options.title ?? path.basename(files[0]).replace(/\.[^.]+$/, "");
    entry = {
      id,
      title: name,
      description: options.description ?? `${name}。`,
      category: options.category ?? [isSeries ? "电视剧" : "电影"],
      tags: [],
      year: options.year ?? new Date().getFullYear(),
      rating: 0,
      duration: formatDuration(infos[0].duration),
      coverImage: `${n}.webp`,
      videoFile: `${n}.mp4`,
      ...(isSeries ? { episodes: [] } : {}),
    };
  }
  const titleNumber = numberOf(entry.videoFile);

  // 2. Media numbers: the title's own for a film or a new series' episode 1, else per episode.
  const plan: Array<{ info: MediaInfo; sha256: string; n: number; episode: number | null; known: boolean }> = [];
  const claimed = new Set(used);
  infos.forEach((info, i) => {
    const sha256 = hashes[i];
    const already = known(sha256);
    if (already) {
      plan.push({ info, sha256, n: Number(already), episode: null, known: true });
      return;
    }
    if (!isSeries) {
      plan.push({ info, sha256, n: titleNumber, episode: null, known: false });
      return;
    }
    const episodes = entry.episodes ?? [];
    const episode = options.episode !== undefined && files.length === 1 ? options.episode : episodes.length + 1 + plan.filter((p) => p.episode !== null).length;
    if (episodes[episode - 1]) throw new AddError(`${entry.id} already has episode ${episode}`);
    let n = episode === 1 && episodes.length === 0 ? titleNumber : 10000 + titleNumber * 100 + episode;
    if (n !== titleNumber && (titleNumber > 99 || episode > 99 || claimed.has(n))) {
      n = 100000;
      while (claimed.has(n)) n++;
    }
    claimed.add(n);
    plan.push({ info, sha256, n, episode, known: false });
  });
  const fresh = plan.filter((p) => !p.known);
  for (const p of plan.filter((q) => q.known)) log(`add: ${path.basename(p.info.file)} is already in the catalogue as media ${p.n}: unchanged`);
  if (fresh.length === 0) return { id: entry.id, added: [], unchanged: plan.map((p) => p.n) };

  // 字幕 files: read and converted before packing (a bad file stops here); the packer's zh-CN stays unless replaced.
  if ((options.subtitles?.length ?? 0) > 0 && fresh.length !== 1)
    throw new AddError("--subtitles applies to one media file: add episodes one at a time to give each its subtitles");
  const subtitleTracks = await subtitleTracksOf(options.subtitles ?? []);
  const subtitleLanguages = orderedLanguages([...DEFAULT_SUBTITLE_LANGUAGES, ...subtitleTracks.map((t) => t.language)]);

  // 3. Pack (atomic per media number), cover, source marker.
  for (const p of fresh) {
    const dir = path.join(titlesDir, String(p.n));
    log(
      `pack: ${path.basename(p.info.file)} → media ${p.n} (${formatDuration(p.info.duration)} of video; about ${Math.ceil(p.info.duration * 0.5)} s on this machine)`,
    );
    const r = await packIfNeeded(sourceOf(p.info, p.sha256), { outDir: dir, subtitleLines: subtitleLines(entry.title, entry.description) });
    log(`pack: media ${p.n}: ${r.result.renditions.map((x) => `${x.height}p`).join("/")}${r.packed ? ` in ${r.result.seconds} s` : " (already packed)"}`);
    if (options.cover && p.n === titleNumber) {
      await runFfmpeg([
        "-i",
        path.resolve(options.cover),
        "-frames:v",
        "1",
        "-vf",
        "scale=640:360:force_original_aspect_ratio=increase,crop=640:360",
        path.join(dir, "cover.new.webp"),
      ]).catch((error: unknown) => {
        throw new AddError(`--cover ${options.cover}: not an image ffmpeg can read (${(error as Error).message.split("\n").pop()})`);
      });
      await rename(path.join(dir, "cover.new.webp"), path.join(dir, "cover.webp"));
    }
    if (subtitleTracks.length > 0) {
      await writeSubtitleTracks(dir, r.result.duration, subtitleTracks, subtitleLanguages);
      log(`subtitles: media ${p.n}: ${subtitleLanguages.join(", ")}`);
    }
    await writeFile(path.join(dir, "source.json"), JSON.stringify({ sha256: p.sha256, name: path.basename(p.info.file) }) + "\n");
  }

  // 4. Publish the media before the catalogue names it.
  const numbers = fresh.map((p) => String(p.n));
  if (options.remote) {
    const url = options.url ?? (await readFile(path.join(REPO_ROOT, ".wrangler", "deploy", "site-url"), "utf8").catch(() => "")).trim();
    const token =
      process.env.MEDIA_UPLOAD_TOKEN ?? (await readFile(path.join(REPO_ROOT, ".wrangler", "deploy", "media-upload-token"), "utf8").catch(() => "")).trim();
    if (!url || !token)
      throw new AddError(
        "--remote needs the site (--url, or a previous npm run deploy) and its upload token (MEDIA_UPLOAD_TOKEN or a previous npm run deploy)",
      );
    const endpoint = { baseURL: url, token };
    const refs = new Map(numbers.map((n) => [n, { cover: Number(n) === titleNumber }]));
    const mediaPlan = planMedia(refs, await localMedia(numbers, titlesDir), await listObjects(endpoint));
    const result = await uploadMedia(endpoint, mediaPlan.uploads);
    if (result.failed.length > 0)
      throw new AddError(`upload failed for ${result.failed.map((f) => f.key).join(", ")}; the catalogue is unchanged — run the same command again`);
  } else {
    await seedTitles(
      fresh.map((p) => ({ n: p.n, dir: path.join(titlesDir, String(p.n)) })),
      log,
    );
  }

  // 5. The entry, last.
  for (const p of fresh) {
    const duration = formatDuration(p.info.duration);
    if (p.episode !== null) {
      const episodes = [...(entry.episodes ?? [])];
      episodes[p.episode - 1] = { videoFile: `${p.n}.mp4`, duration, ...(subtitleTracks.length > 0 ? { subtitles: subtitleLanguages } : {}) };
      if (episodes.some((e) => e === undefined))
        throw new AddError(`${entry.id}: episode ${p.episode} would leave a gap (it has ${entry.episodes?.length ?? 0})`);
      entry.episodes = episodes;
    } else if (subtitleTracks.length > 0) entry.subtitles = subtitleLanguages;
    sources[String(p.n)] = { sha256: p.sha256, name: path.basename(p.info.file) };
  }
  // 片头 / 片尾: the opening and ending the episodes share, from their audio (decision 0093).
  if (entry.episodes && entry.episodes.length > 1 && !options.skipMarkers) {
    const files = entry.episodes.map((e) => {
      const file = path.join(titlesDir, String(numberOf(e.videoFile)), "progressive.mp4");
      return existsSync(file) ? file : null;
    });
    log(`markers: matching the audio of ${files.filter(Boolean).length} episodes for 片头 / 片尾 (--skip-markers to leave them out)`);
    const found = await detectEpisodeMarkers(files);
    const fresh = new Set(plan.filter((p) => !p.known && p.episode !== null).map((p) => (p.episode as number) - 1));
    const written = applySeriesMarkers(entry, seriesMarkers(found, { intro: entry.intro, outro: entry.outro }), fresh);
    const shown = (m: { start: number; end: number } | undefined) => (m ? `${m.start}–${m.end} s` : "none");
    log(`markers: ${written} written; title intro ${shown(entry.intro)}, outro ${shown(entry.outro)}`);
  }
  if (entry.episodes) {
    entry.status = `更新至${entry.episodes.length}集`;
    if (entry.totalEpisodes !== undefined && entry.totalEpisodes < entry.episodes.length) entry.totalEpisodes = entry.episodes.length;
  }
  // The file keeps its entries as written (field order, formatting); only the added or changed entry is new.
  const next = existing ? raw.map((t, i) => (titles[i].id === entry.id ? entry : t)) : [...raw, entry];
  const check = validateCatalogue(next);
  if (!check.ok) throw new AddError(`the new entry is not valid: ${check.problems.map((p) => `${p.entry} ${p.field}: ${p.message}`).join("; ")}`);
  await writeJsonAtomic(sourcesFile, sources);
  await writeJsonAtomic(catalogueFile, next);
  log(
    `add: ${entry.id} ${entry.title}: media ${numbers.join(", ")} ${options.remote ? "uploaded" : "in the local bucket"}, written to ${path.relative(process.cwd(), catalogueFile)}`,
  );
  return { id: entry.id, added: fresh.map((p) => p.n), unchanged: plan.filter((p) => p.known).map((p) => p.n) };
}

/** The CLI's `add` command: parses the arguments, runs addMedia, prints a clear error. */
export async function addCommand(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        title: { type: "string" },
        category: { type: "string", multiple: true },
        series: { type: "string" },
        episode: { type: "string" },
        cover: { type: "string" },
        description: { type: "string" },
        year: { type: "string" },
        remote: { type: "boolean", default: false },
        url: { type: "string" },
        catalogue: { type: "string" },
        subtitles: { type: "string", multiple: true },
        "skip-markers": { type: "boolean", default: false },
      },
    });
  } catch (error) {
    console.error(`catalogue add: ${(error as Error).message}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(
      "usage: npm run catalogue -- add <file|folder> [--title … --category … --series <id> --episode N --cover image --subtitles en=file.srt … --skip-markers --remote]",
    );
    return 2;
  }
  try {
    await addMedia(positionals[0], {
      title: values.title,
      category: values.category?.flatMap((c) => c.split(/[,，]/).map((x) => x.trim())).filter(Boolean),
      series: values.series,
      episode: values.episode === undefined ? undefined : Number(values.episode),
      cover: values.cover,
      description: values.description,
      year: values.year === undefined ? undefined : Number(values.year),
      remote: values.remote,
      url: values.url,
      catalogueFile: values.catalogue ? path.resolve(values.catalogue) : undefined,
      skipMarkers: values["skip-markers"],
      subtitles: values.subtitles?.map((pair) => {
        const at = pair.indexOf("=");
        return { language: at < 0 ? "" : pair.slice(0, at), file: at < 0 ? pair : pair.slice(at + 1) };
      }),
    });
    // The site reads the catalogue from D1: load the file into the local database (idempotent).
    if (!values.remote) await importCatalogue({ file: values.catalogue ? path.resolve(values.catalogue) : CATALOGUE_FILE });
    else console.log("catalogue add: `npm run deploy` loads the new entry into the live site's D1 database");
    return 0;
  } catch (error) {
    console.error(`catalogue add: ${(error as Error).message}`);
    return 1;
  }
}
