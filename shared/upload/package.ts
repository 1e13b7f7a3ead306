/**
 * What one video's package is made of, as the 管理后台's browser packer uploads it
 * (docs/decisions/0080-browser-upload-publish.md): the object names an upload may hold — the
 * stream files of shared/stream/contract.ts, `video.mp4` (the progressive file, `{n}.mp4`) and
 * `cover.webp` (the cover, `{n}.webp` once published) — their R2 keys under the upload's media
 * number, and the names a package's playlists and cues reference (checked before publishing: no
 * playlist may point at an object that is not there). Pure: the worker and the browser both use it.
 */
import { parseMasterPlaylist, parseMediaPlaylist } from "../stream/hls-parse";
import { parseStoryboardVtt } from "../stream/storyboard";
import { isSubtitleLanguage, streamFileKind, streamKey, streamNames, type StreamFileKind, type SubtitleLanguage } from "../stream/contract";

export const PROGRESSIVE_NAME = "video.mp4";
export const COVER_NAME = "cover.webp";
/**
 * The audio fingerprint of a series' episode (shared/media/mono-pcm.ts `fingerprintBytes`): kept
 * with the media, never served, so the next episode's upload can find the 片头 / 片尾 they share
 * (docs/decisions/0099-browser-intro-detection.md).
 */
export const FINGERPRINT_NAME = "audio.fp";

export type UploadObjectKind = StreamFileKind | "progressive" | "cover" | "fingerprint";

/** The kind of an object name an upload may hold, or null (exact names only: no decoding, no folders). */
export function uploadObjectKind(name: string): UploadObjectKind | null {
  if (name === PROGRESSIVE_NAME) return "progressive";
  if (name === COVER_NAME) return "cover";
  if (name === FINGERPRINT_NAME) return "fingerprint";
  return streamFileKind(name);
}

/** The R2 key of media number n's audio fingerprint: outside every served path (/{n}.mp4, /{n}.webp, /stream/{n}/…). */
export const fingerprintKey = (n: number | string): string => `fingerprints/${n}.fp`;

/** The R2 key an object of upload `id` with media number `n` is written to. The cover waits outside every served path until publishing. */
export function uploadObjectKey(id: string, n: number, name: string): string {
  if (name === PROGRESSIVE_NAME) return `${n}.mp4`;
  if (name === COVER_NAME) return stagedCoverKey(id);
  if (name === FINGERPRINT_NAME) return fingerprintKey(n);
  return streamKey(n, name);
}

export const stagedCoverKey = (id: string): string => `uploads/${id}/${COVER_NAME}`;

const MiB = 1024 * 1024;

/** Largest object of each kind one request may carry (the Workers body limit is 100 MB). */
export const UPLOAD_MAX_BYTES: Readonly<Record<UploadObjectKind, number>> = {
  progressive: 64 * MiB,
  cover: 1 * MiB,
  // 4 bytes a tenth of a second: 7 hours.
  fingerprint: 1 * MiB,
  init: 1 * MiB,
  segment: 32 * MiB,
  sprite: 16 * MiB,
  frame: 1 * MiB,
  "media-playlist": 8 * MiB,
  "subtitle-playlist": 1 * MiB,
  subtitles: 16 * MiB,
  storyboard: 8 * MiB,
  master: 1 * MiB,
};

/**
 * Objects over their kind's one-request limit go up through R2 multipart upload
 * (docs/decisions/0084-multipart-upload.md): the progressive MP4 of a long film, in principle a
 * huge segment. Every part but the last is exactly MULTIPART_PART_BYTES (R2 wants equal parts of at
 * least 5 MiB); a part is the unit 继续上传 sends again.
 */
export const MULTIPART_PART_BYTES = 8 * MiB;

/** Largest object of a kind that may go up in parts (kinds not listed: one request only). */
export const MULTIPART_MAX_BYTES: Readonly<Partial<Record<UploadObjectKind, number>>> = {
  progressive: 32 * 1024 * MiB,
  segment: 1024 * MiB,
};

/** Whether an object of this kind and size must go up in parts (it does not fit one request). */
export const needsMultipart = (kind: UploadObjectKind, size: number): boolean => size > UPLOAD_MAX_BYTES[kind];

/** How many parts an object of `size` bytes has. */
export const partCount = (size: number): number => Math.ceil(size / MULTIPART_PART_BYTES);

/** The size of part `part` (1-based) of an object of `size` bytes. */
export const partSize = (size: number, part: number): number => Math.min(MULTIPART_PART_BYTES, size - (part - 1) * MULTIPART_PART_BYTES);

/**
 * The SHA-256 an object sent in parts is known by: over its parts' SHA-256s (32 bytes each, in
 * order) — as S3's multipart ETag is over the parts' MD5s. The worker checks every part's hash as
 * it streams in, so it can check this one without reading the object again. `sha256` is the
 * caller's (WebCrypto in the browser and the worker: this layer has no I/O of its own).
 */
export async function multipartSha256(partSha256s: readonly string[], sha256: (data: Uint8Array<ArrayBuffer>) => Promise<ArrayBuffer>): Promise<string> {
  const all = new Uint8Array(partSha256s.length * 32);
  partSha256s.forEach((hex, i) => {
    for (let b = 0; b < 32; b++) all[i * 32 + b] = Number.parseInt(hex.slice(b * 2, b * 2 + 2), 16);
  });
  const digest = new Uint8Array(await sha256(all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads one text object of the package (null when it is absent). */
export type ReadText = (name: string) => Promise<string | null>;

export interface PackageReferences {
  /** Every object name the package's playlists and cues point at, with the playlists and cues themselves. */
  names: Set<string>;
  /** Seconds of video (the sum of the lowest rendition's EXTINF). */
  duration: number;
  /** The subtitle languages master.m3u8 lists (none: the package has no subtitles — the entry says `subtitles: []`). */
  subtitleLanguages: SubtitleLanguage[];
  /** What is wrong (in Chinese), or null. */
  problem: string | null;
}

/**
 * Follows the package from master.m3u8: its media playlists (each EXT-X-MAP and segment), its
 * subtitle playlist and the cues it names, then storyboard.vtt and its sheets. Every name must be
 * a contract name of this title's folder (no "/", no "..").
 */
export async function packageReferences(read: ReadText): Promise<PackageReferences> {
  const names = new Set<string>();
  const subtitleLanguages: SubtitleLanguage[] = [];
  const fail = (problem: string): PackageReferences => ({ names, duration: 0, subtitleLanguages, problem });
  const local = (uri: string) => streamFileKind(uri) !== null;
  const master = await read(streamNames.master);
  if (master === null) return fail("缺少 master.m3u8");
  names.add(streamNames.master);
  let parsed;
  try {
    parsed = parseMasterPlaylist(master);
  } catch (error) {
    return fail(`master.m3u8 无法解析：${(error as Error).message}`);
  }
  let duration = 0;
  for (const [i, variant] of parsed.variants.entries()) {
    if (!local(variant.uri)) return fail(`master.m3u8 指向了不合约定的文件：${variant.uri}`);
    names.add(variant.uri);
    const text = await read(variant.uri);
    if (text === null) return fail(`缺少 ${variant.uri}`);
    let media;
    try {
      media = parseMediaPlaylist(text);
    } catch (error) {
      return fail(`${variant.uri} 无法解析：${(error as Error).message}`);
    }
    if (!media.map || !local(media.map)) return fail(`${variant.uri} 缺少 EXT-X-MAP`);
    if (!media.endList || media.segments.length === 0) return fail(`${variant.uri} 不完整`);
    names.add(media.map);
    for (const segment of media.segments) {
      if (!local(segment.uri)) return fail(`${variant.uri} 指向了不合约定的文件：${segment.uri}`);
      names.add(segment.uri);
    }
    if (i === 0) duration = media.segments.reduce((sum, s) => sum + s.duration, 0);
  }
  for (const track of parsed.subtitles) {
    if (!local(track.uri)) return fail(`master.m3u8 指向了不合约定的字幕：${track.uri}`);
    if (!isSubtitleLanguage(track.language) || subtitleLanguages.includes(track.language)) {
      return fail(`master.m3u8 的字幕语言不合约定：${track.language || "（无）"}`);
    }
    subtitleLanguages.push(track.language);
    names.add(track.uri);
    const text = await read(track.uri);
    if (text === null) return fail(`缺少 ${track.uri}`);
    let cues;
    try {
      cues = parseMediaPlaylist(text).segments;
    } catch (error) {
      return fail(`${track.uri} 无法解析：${(error as Error).message}`);
    }
    for (const segment of cues) {
      if (!local(segment.uri)) return fail(`${track.uri} 指向了不合约定的文件：${segment.uri}`);
      names.add(segment.uri);
    }
  }
  const storyboard = await read(streamNames.storyboard);
  if (storyboard !== null) {
    names.add(streamNames.storyboard);
    let cues;
    try {
      cues = parseStoryboardVtt(storyboard);
    } catch (error) {
      return fail(`storyboard.vtt 无法解析：${(error as Error).message}`);
    }
    for (const cue of cues) {
      const sheet = cue.url;
      if (!local(sheet)) return fail(`storyboard.vtt 指向了不合约定的文件：${sheet}`);
      names.add(sheet);
    }
  }
  return { names, duration, subtitleLanguages, problem: null };
}

/** "mm:ss" or "hh:mm:ss", as the catalogue writes durations (at least one second). */
export function catalogueDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h > 0 ? `${two(h)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}
