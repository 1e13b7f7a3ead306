/**
 * Packs one source into everything /stream/{n}/ serves (shared/stream/contract.ts), plus the
 * progressive MP4 and the cover, in ONE ffmpeg run: the source is decoded (or generated) once and
 * split into every rendition, the storyboard sheets and the cover frame. ffmpeg's HLS muxer cuts
 * the CMAF (fMP4) segments; the packer then renames them to the contract's versioned names and
 * writes every playlist itself (shared/stream/hls.ts) from the measured segment sizes.
 *
 * Output directory (written under a temporary name and renamed when complete):
 *   stream/…          the files of /stream/{n}/, named as in the contract
 *   progressive.mp4   H.264 + AAC, +faststart (the rendition `progressiveHeight`, default 720p, remuxed)
 *   cover.webp        one frame, 640×360
 *   pack.json         the cache key and what was measured (PackResult)
 */
import { createHash } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { streamFileKind, streamNames } from "../../shared/stream/contract";
import { AAC_LC_CODEC, avcCodec, writeMasterPlaylist, writeMediaPlaylist, type HlsVariant } from "../../shared/stream/hls";
import { parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { storyboardLayout, writeStoryboardVtt, spriteName } from "../../shared/stream/storyboard";
import { subtitleCues, writeSubtitlePlaylist, writeSubtitlesVtt } from "../../shared/stream/subtitles";
import { FFMPEG_VERSION, runFfmpeg } from "./ffmpeg";
import { audioArgs, DEFAULT_ENCODE, laddersFor, lightStartRung, lightStartSeconds, videoArgs, type EncodeSettings, type Rung } from "./ladder";
import { findBoxes, firstVideoTime, readAvcConfig } from "./mp4-boxes";
import { joinRendition, remuxProgressive, storyboardAndCover } from "./previews";
import type { SourceSpec } from "./source";

/** Bump when the packer's output changes for the same source and settings. */
export const PACKER_VERSION = 7;
/** How much earlier than the video the audio ends (more than AAC's priming + padding: 2048 samples). */
const AUDIO_TRIM_SECONDS = 0.05;

export interface PackOptions {
  /** Final directory; replaced atomically. */
  outDir: string;
  settings?: EncodeSettings;
  /** Rungs to encode (default: the ladder up to the source height). */
  rungs?: readonly Rung[];
  /** Subtitle lines (zh-CN); cycled through the clip. */
  subtitleLines: readonly string[];
  /** The rendition remuxed into progressive.mp4: the highest one at or below this height (default 720). */
  progressiveHeight?: number;
  /** x264 threads per encoder (0 = x264's default). */
  threads?: number;
}

export interface RenditionResult {
  height: number;
  width: number;
  version: string;
  codecs: string[];
  bandwidth: number;
  averageBandwidth: number;
  segments: number;
  bytes: number;
}

export interface PackResult {
  key: string;
  duration: number;
  fps: number;
  renditions: RenditionResult[];
  storyboard: { version: string; interval: number; sheets: number };
  progressive: { height: number; bytes: number };
  /** Seconds spent. */
  seconds: number;
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** Version {v} of a rendition: the source, the rung, the encode settings and the tools. */
export function renditionVersion(source: SourceSpec, rung: Rung, settings: EncodeSettings): string {
  return hash(JSON.stringify([PACKER_VERSION, FFMPEG_VERSION, source.identity, source.fps, rung, settings])).slice(0, 8);
}

/** The cache key of a whole pack: everything that changes any output byte. */
export function packKey(source: SourceSpec, options: PackOptions): string {
  const settings = options.settings ?? DEFAULT_ENCODE;
  const rungs = options.rungs ?? laddersFor(source.height);
  return hash(
    JSON.stringify([
      PACKER_VERSION,
      FFMPEG_VERSION,
      source.identity,
      source.duration,
      source.fps,
      settings,
      rungs,
      options.subtitleLines,
      options.progressiveHeight ?? 720,
    ]),
  );
}

/** Reads pack.json of a finished pack, or null when there is none (or it is unreadable). */
export async function readPackResult(dir: string): Promise<PackResult | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, "pack.json"), "utf8")) as PackResult;
  } catch {
    return null;
  }
}

/** Packs `source` into options.outDir unless a pack with the same key is already there. */
export async function packIfNeeded(source: SourceSpec, options: PackOptions): Promise<{ result: PackResult; packed: boolean }> {
  const existing = await readPackResult(options.outDir);
  if (existing && existing.key === packKey(source, options)) return { result: existing, packed: false };
  return { result: await pack(source, options), packed: true };
}

function hlsOutputArgs(segmentSeconds: number, initName: string, segmentPattern: string, playlist: string): string[] {
  return [
    "-max_muxing_queue_size",
    "4096",
    "-f",
    "hls",
    "-hls_segment_type",
    "fmp4",
    "-hls_time",
    String(segmentSeconds),
    "-hls_playlist_type",
    "vod",
    "-hls_flags",
    "independent_segments",
    "-hls_fmp4_init_filename",
    initName,
    "-hls_segment_filename",
    segmentPattern,
    playlist,
  ];
}

export async function pack(source: SourceSpec, options: PackOptions): Promise<PackResult> {
  const started = performance.now();
  const settings = options.settings ?? DEFAULT_ENCODE;
  const rungs = [...(options.rungs ?? laddersFor(source.height))].sort((a, b) => a.height - b.height);
  if (rungs.some((r) => r.height > source.height)) throw new RangeError("a rung above the source height (no upscaling)");
  const key = packKey(source, options);
  const layout = storyboardLayout(source.duration);
  const tmp = `${options.outDir}.tmp-${process.pid}`;
  const work = path.join(tmp, "work");
  const out = path.join(tmp, "stream");
  await rm(tmp, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await mkdir(out, { recursive: true });
  try {
    // One graph: the source split into each rung (scaled down where needed).
    const fps = source.fps;
    const n = rungs.length;
    const scaled = (r: Rung, from: string, to: string) =>
      r.height === source.height && r.width === source.width ? `${from}null${to}` : `${from}scale=${r.width}:${r.height}:flags=bicubic${to}`;
    const graph = [`[${source.video}]split=${n}${rungs.map((_, i) => `[s${i}]`).join("")}`];
    rungs.forEach((r, i) => graph.push(scaled(r, `[s${i}]`, `[r${i}]`)));
    // Audio: each distinct bitrate encoded once (a small first run), then copied into every rendition.
    const audioRates = [...new Set(rungs.map((r) => r.audioKbps))];
    const audioFile = (kbps: number) => path.join(work, `audio-${kbps}.m4a`);
    // The audio stops AUDIO_TRIM_SECONDS early: AAC's priming and last-frame padding would otherwise
    // run ~40 ms past the video and make the file's duration (max of its tracks) a ragged 20.04 s.
    const audioSeconds = String(Math.max(0.1, source.duration - AUDIO_TRIM_SECONDS));
    await runFfmpeg([
      ...source.inputs,
      ...audioRates.flatMap((kbps) => ["-map", source.audio, "-t", audioSeconds, ...audioArgs(kbps), "-f", "mp4", audioFile(kbps)]),
    ]);
    const firstAudioInput = source.inputs.filter((a) => a === "-i").length;
    const audioInput = (kbps: number) => firstAudioInput + audioRates.indexOf(kbps);
    const args = [
      ...source.inputs,
      ...audioRates.flatMap((kbps) => ["-i", audioFile(kbps)]),
      "-filter_complex",
      graph.join(";"),
      "-filter_complex_threads",
      "1",
    ];
    const threads = options.threads ?? 1;
    rungs.forEach((r, i) => {
      args.push("-map", `[r${i}]`, "-map", `${audioInput(r.audioKbps)}:a:0`, ...videoArgs(r, fps, settings), "-c:a", "copy", "-threads", String(threads));
      args.push(
        ...hlsOutputArgs(settings.segmentSeconds, `r${r.height}-init.mp4`, path.join(work, `r${r.height}-%05d.m4s`), path.join(work, `r${r.height}.m3u8`)),
      );
    });
    await runFfmpeg(args);
    // The start rung's light start (shared/stream/ladder.ts): its first seconds once more at the light cap, in a run
    // of its own (an output that ends early in the run above disturbed the other rungs' rate control), one
    // segment longer than it needs: its last segment would hold the audio to its very end, ~4 packets more
    // than the rung's own segment there, and the next segment's audio would overlap them (a stall in Chromium).
    const start = rungs[0];
    const light = lightStartRung(start);
    if (light && start.lightStart) {
      const seconds = String(lightStartSeconds(start.lightStart, settings.segmentSeconds) + settings.segmentSeconds);
      await runFfmpeg([
        ...source.inputs,
        "-i",
        audioFile(start.audioKbps),
        "-filter_complex",
        scaled(start, `[${source.video}]`, "[light]"),
        "-map",
        "[light]",
        "-map",
        `${firstAudioInput}:a:0`,
        ...videoArgs(light, fps, settings),
        "-c:a",
        "copy",
        "-threads",
        String(threads),
        "-t",
        seconds,
        ...hlsOutputArgs(settings.segmentSeconds, "light-init.mp4", path.join(work, "light-%05d.m4s"), path.join(work, "light.m3u8")),
      ]);
      await applyLightStart(work, `r${start.height}`, start.lightStart.segments);
    }

    // Renditions: rename to versioned names, measure, write the media playlists.
    const renditions: RenditionResult[] = [];
    const variants: HlsVariant[] = [];
    let mediaStart = 0;
    let segmentDurations: number[] | null = null;
    for (const r of rungs) {
      const v = renditionVersion(source, r, settings);
      const ffPlaylist = parseMediaPlaylist(await readFile(path.join(work, `r${r.height}.m3u8`), "utf8"));
      const initName = streamNames.init(r.height, v);
      const init = await readFile(path.join(work, `r${r.height}-init.mp4`));
      await rename(path.join(work, `r${r.height}-init.mp4`), path.join(out, initName));
      const segments = [];
      let peak = 0;
      let bytes = 0;
      for (const [i, seg] of ffPlaylist.segments.entries()) {
        const name = streamNames.segment(r.height, v, i);
        const size = (await stat(path.join(work, seg.uri))).size;
        if (i === 0) mediaStart = Math.max(mediaStart, firstVideoTime(init, await readFile(path.join(work, seg.uri))));
        await rename(path.join(work, seg.uri), path.join(out, name));
        segments.push({ duration: seg.duration, uri: name });
        peak = Math.max(peak, (size * 8) / seg.duration);
        bytes += size;
      }
      const durations = segments.map((s) => s.duration);
      // Keyframes line up across renditions: same segment count and boundaries in every rung.
      if (segmentDurations && (segmentDurations.length !== durations.length || segmentDurations.some((d, i) => Math.abs(d - durations[i]) > 0.001))) {
        throw new Error(`renditions cut differently: ${r.height}p has ${durations.join(",")} vs ${segmentDurations.join(",")}`);
      }
      segmentDurations = durations;
      await writeFile(path.join(out, streamNames.mediaPlaylist(r.height)), writeMediaPlaylist({ segments, map: initName }));
      const total = durations.reduce((a, b) => a + b, 0);
      const avc = readAvcConfig(init);
      const result: RenditionResult = {
        height: r.height,
        width: r.width,
        version: v,
        codecs: [avcCodec(avc.profile, avc.compatibility, avc.level), AAC_LC_CODEC],
        bandwidth: Math.ceil(peak),
        averageBandwidth: Math.ceil(((bytes + init.length) * 8) / total),
        segments: segments.length,
        bytes: bytes + init.length,
      };
      renditions.push(result);
      variants.push({
        bandwidth: result.bandwidth,
        averageBandwidth: result.averageBandwidth,
        width: r.width,
        height: r.height,
        codecs: result.codecs,
        frameRate: fps,
        subtitles: "subs",
        uri: streamNames.mediaPlaylist(r.height),
      });
    }
    const duration = (segmentDurations ?? []).reduce((a, b) => a + b, 0);

    // Subtitles and their playlist; the master.
    await writeFile(path.join(out, streamNames.subtitles), writeSubtitlesVtt(subtitleCues(options.subtitleLines, duration), mediaStart));
    await writeFile(path.join(out, streamNames.subtitlePlaylist), writeSubtitlePlaylist(duration));
    await writeFile(
      path.join(out, streamNames.master),
      writeMasterPlaylist({
        variants,
        subtitles: [{ groupId: "subs", name: "中文", language: "zh-CN", isDefault: false, autoselect: true, uri: streamNames.subtitlePlaylist }],
      }),
    );

    // Progressive MP4 from the chosen rendition; storyboard and cover decoded from the 360p one
    // (the cover's size, a quarter of 720p's pixels to decode).
    const progressiveHeight = Math.max(...rungs.filter((r) => r.height <= (options.progressiveHeight ?? 720)).map((r) => r.height), rungs[0].height);
    const prog = renditions.find((r) => r.height === progressiveHeight)!;
    const preview = renditions.find((r) => r.height >= 360) ?? renditions[renditions.length - 1];
    const join = (r: RenditionResult) => joinRendition(out, r.height, r.version, r.segments, path.join(work, `${r.height}p-fragmented.mp4`));
    const progFile = await join(prog);
    await remuxProgressive(progFile, path.join(tmp, "progressive.mp4"));
    const sbVersion = hash(JSON.stringify([PACKER_VERSION, FFMPEG_VERSION, source.identity, source.fps, layout, preview.version])).slice(0, 8);
    const sheets = await storyboardAndCover(preview === prog ? progFile : await join(preview), {
      layout: { ...layout, duration },
      fps,
      version: sbVersion,
      workDir: work,
      outDir: out,
      coverFile: path.join(tmp, "cover.webp"),
    });
    await writeFile(path.join(out, streamNames.storyboard), writeStoryboardVtt({ ...layout, duration }, spriteName(sbVersion)));
    await rm(work, { recursive: true, force: true });

    for (const name of await readdir(out)) {
      if (streamFileKind(name) === null) throw new Error(`packer wrote a name outside the contract: ${name}`);
    }
    const result: PackResult = {
      key,
      duration,
      fps,
      renditions,
      storyboard: { version: sbVersion, interval: layout.interval, sheets },
      progressive: { height: prog.height, bytes: (await stat(path.join(tmp, "progressive.mp4"))).size },
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    await writeFile(path.join(tmp, "pack.json"), JSON.stringify(result, null, 2) + "\n");
    await replaceDir(tmp, options.outDir);
    return result;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Puts the light start's segments in place of the start rung's own (`prefix`: its files in `work`),
 * where the two encodes agree: the same avcC (the rung's init segment decodes them) and the same
 * segment times. Otherwise the rung keeps its own, and the light files go.
 */
async function applyLightStart(work: string, prefix: string, segments: readonly number[]): Promise<void> {
  const avcC = async (file: string) => {
    const init = await readFile(path.join(work, file));
    const [box] = findBoxes(init, "avcC");
    return box ? Buffer.from(init.subarray(box.start, box.end)).toString("hex") : null;
  };
  const own = parseMediaPlaylist(await readFile(path.join(work, `${prefix}.m3u8`), "utf8")).segments;
  const lighter = parseMediaPlaylist(await readFile(path.join(work, "light.m3u8"), "utf8")).segments;
  const config = await avcC(`${prefix}-init.mp4`);
  const sameConfig = config !== null && config === (await avcC("light-init.mp4"));
  for (const i of segments) {
    if (sameConfig && own[i] && lighter[i] && Math.abs(own[i].duration - lighter[i].duration) <= 0.001) {
      await rename(path.join(work, lighter[i].uri), path.join(work, own[i].uri));
    }
  }
  for (const name of await readdir(work)) if (name.startsWith("light")) await rm(path.join(work, name));
}

/**
 * Puts a copy of the finished pack in `from` at `to` (a reflink where the file system has them),
 * unless `to` already holds that pack; written under a temporary name and swapped into place.
 */
export async function copyPack(from: string, to: string): Promise<PackResult> {
  const result = await readPackResult(from);
  if (!result) throw new Error(`${from}: no finished pack to copy`);
  if ((await readPackResult(to))?.key === result.key) return result;
  const tmp = `${to}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    await cp(from, tmp, { recursive: true, mode: constants.COPYFILE_FICLONE });
    await replaceDir(tmp, to);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
  return result;
}

/** Swaps a finished directory into place: the old one is moved aside first and removed after. */
async function replaceDir(from: string, to: string): Promise<void> {
  const old = `${to}.old-${process.pid}`;
  if (existsSync(to)) await rename(to, old);
  await rename(from, to);
  await rm(old, { recursive: true, force: true });
}
