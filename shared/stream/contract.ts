/**
 * The adaptive-streaming URL contract (docs/streaming.md): what lives under `/stream/{n}/`
 * for the title whose progressive file is `/{n}.mp4`, the R2 key of each file, and how each
 * kind of file is typed and cached. The packer (scripts/media/) writes these names, the
 * worker (worker/stream/) serves only names that match, and the player reads them.
 *
 *   /stream/{n}/master.m3u8                  master playlist                   short cache
 *   /stream/{n}/{h}p.m3u8                    media playlist of one rendition   short cache
 *   /stream/{n}/{h}p-{v}-init.mp4            CMAF init segment                 immutable
 *   /stream/{n}/{h}p-{v}-{nnnnn}.m4s         CMAF media segment (5 digits)     immutable
 *   /stream/{n}/subtitles-{lang}.m3u8        subtitle media playlist           short cache
 *   /stream/{n}/subtitles-{lang}.vtt         WebVTT subtitles of one language  short cache
 *   /stream/{n}/storyboard.vtt               seek-preview cues (#xywh=)        short cache
 *   /stream/{n}/sb-{v}-{k}.jpg               storyboard sprite sheet k         immutable
 *   /stream/{n}/frame-{kkkkk}.jpg            link-preview frame at k × 10 s    short cache
 *                                            (optional; shared/stream/share-frames.ts)
 *
 * {h}: rendition height (3–4 digits, e.g. 270, 360, 720, 1080); {v}: 8 lower-case hex
 * characters, a version that changes whenever the bytes behind a name would (the packer
 * derives it from the source and the encoding settings), so immutable names never change
 * meaning; {k}: sprite sheet index from 0; {lang}: one of SUBTITLE_LANGUAGES. Nothing else
 * under /stream/ exists.
 */

/** The media number of a title: `/{n}.mp4`, `/{n}.webp`, `/stream/{n}/…`. Same rule as the progressive files. */
export const MEDIA_NUMBER = /^[1-9][0-9]{0,5}$/;

/** The subtitle languages a title may have (BCP 47 tags, as the master playlist's LANGUAGE says them). */
export const SUBTITLE_LANGUAGES = ["zh-CN", "zh-TW", "en", "ja", "ko"] as const;
export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];
/** The name of each language in the 字幕 menu and the master playlist's NAME. */
export const SUBTITLE_NAMES: Readonly<Record<SubtitleLanguage, string>> = {
  "zh-CN": "简体中文",
  "zh-TW": "繁體中文",
  en: "English",
  ja: "日本語",
  ko: "한국어",
};
/** What both packers write (the placeholder's zh-CN cues): the languages of media whose entry names none. */
export const DEFAULT_SUBTITLE_LANGUAGES: readonly SubtitleLanguage[] = ["zh-CN"];

export function isSubtitleLanguage(value: unknown): value is SubtitleLanguage {
  return typeof value === "string" && (SUBTITLE_LANGUAGES as readonly string[]).includes(value);
}

const LANGUAGE_ALTERNATIVES = SUBTITLE_LANGUAGES.join("|");

export type StreamFileKind = "master" | "media-playlist" | "init" | "segment" | "subtitle-playlist" | "subtitles" | "storyboard" | "sprite" | "frame";

/** File-name patterns of each kind (the whole name, nothing before or after). */
const FILE_PATTERNS: ReadonlyArray<readonly [StreamFileKind, RegExp]> = [
  ["master", /^master\.m3u8$/],
  ["media-playlist", /^[1-9][0-9]{2,3}p\.m3u8$/],
  ["init", /^[1-9][0-9]{2,3}p-[0-9a-f]{8}-init\.mp4$/],
  ["segment", /^[1-9][0-9]{2,3}p-[0-9a-f]{8}-[0-9]{5}\.m4s$/],
  ["subtitle-playlist", new RegExp(`^subtitles-(?:${LANGUAGE_ALTERNATIVES})\\.m3u8$`)],
  ["subtitles", new RegExp(`^subtitles-(?:${LANGUAGE_ALTERNATIVES})\\.vtt$`)],
  ["storyboard", /^storyboard\.vtt$/],
  ["sprite", /^sb-[0-9a-f]{8}-[0-9]{1,3}\.jpg$/],
  ["frame", /^frame-[0-9]{5}\.jpg$/],
];

/** Content-Type of each kind. */
export const STREAM_CONTENT_TYPES: Readonly<Record<StreamFileKind, string>> = {
  master: "application/vnd.apple.mpegurl",
  "media-playlist": "application/vnd.apple.mpegurl",
  "subtitle-playlist": "application/vnd.apple.mpegurl",
  init: "video/mp4",
  segment: "video/mp4",
  subtitles: "text/vtt; charset=utf-8",
  storyboard: "text/vtt; charset=utf-8",
  sprite: "image/jpeg",
  frame: "image/jpeg",
};

/** Versioned names never change meaning: cached for a year, never revalidated. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable, no-transform";
/**
 * Fixed names (playlists, subtitles, storyboard cues) change when a title is packed again:
 * a minute in browsers, five at the edge, served stale while revalidating.
 */
export const SHORT_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=600, no-transform";

const IMMUTABLE_KINDS: ReadonlySet<StreamFileKind> = new Set(["init", "segment", "sprite"]);

export function isImmutable(kind: StreamFileKind): boolean {
  return IMMUTABLE_KINDS.has(kind);
}

export function cacheControlFor(kind: StreamFileKind): string {
  return isImmutable(kind) ? IMMUTABLE_CACHE_CONTROL : SHORT_CACHE_CONTROL;
}

/** The kind of a file name under /stream/{n}/, or null when no such file can exist. */
export function streamFileKind(name: string): StreamFileKind | null {
  for (const [kind, pattern] of FILE_PATTERNS) if (pattern.test(name)) return kind;
  return null;
}

export interface StreamFile {
  /** The media number as written in the URL. */
  n: string;
  name: string;
  kind: StreamFileKind;
  /** The object key in the MEDIA bucket: `stream/{n}/{name}`. */
  key: string;
}

const STREAM_PATH = /^\/stream\/([^/]+)\/([^/]+)$/;

/**
 * Parses a raw (undecoded) URL path under /stream/. Only exact names from the contract
 * match: no decoding, no dot segments, no sub-folders, no upper-case variants.
 */
export function parseStreamPath(pathname: string): StreamFile | null {
  const match = STREAM_PATH.exec(pathname);
  if (!match) return null;
  const [, n, name] = match;
  if (!MEDIA_NUMBER.test(n)) return null;
  const kind = streamFileKind(name);
  if (!kind) return null;
  return { n, name, kind, key: streamKey(n, name) };
}

/** R2 key of a file of title n. */
export function streamKey(n: number | string, name: string): string {
  return `stream/${n}/${name}`;
}

/** URL path of a file of title n. */
export function streamPath(n: number | string, name: string): string {
  return `/stream/${n}/${name}`;
}

export const masterPlaylistPath = (n: number | string) => streamPath(n, "master.m3u8");
export const storyboardPath = (n: number | string) => streamPath(n, "storyboard.vtt");
export const subtitlesPath = (n: number | string, language: SubtitleLanguage = "zh-CN") => streamPath(n, streamNames.subtitlesOf(language));

/**
 * Height of the rendition every ladder starts with (shared/stream/ladder.ts): the packers list
 * renditions by rising bandwidth, so it is the master playlist's first variant — where Safari,
 * iOS and Chromium's native HLS always begin. Every source of 270 lines or more has it.
 */
export const START_RENDITION_HEIGHT = 270;

/**
 * What a player of title n fetches before its first segment, one after the other: the master
 * playlist, then the start rendition's media playlist. The page preloads both at once (the
 * worker's Link header and the player's <link rel="preload">), so that neither waits for the
 * other nor for the page (docs/streaming.md, "Start path"). A title packed from a source below
 * 270 lines has no 270p playlist: that preload alone misses (one small 404).
 */
export function streamStartPaths(n: number | string): readonly [master: string, startPlaylist: string] {
  return [masterPlaylistPath(n), streamPath(n, `${START_RENDITION_HEIGHT}p.m3u8`)];
}

const TEXT_KINDS: ReadonlySet<StreamFileKind> = new Set(["master", "media-playlist", "subtitle-playlist", "subtitles", "storyboard"]);

/** Playlists and WebVTT: text. */
export function isTextFile(kind: StreamFileKind): boolean {
  return TEXT_KINDS.has(kind);
}

/**
 * The text files the worker compresses for clients that accept it (docs/streaming.md,
 * "Compression"): every playlist and WebVTT file except the two of the start path (the master
 * and the start rendition's playlist). Those the page preloads for every engine, and Chromium's
 * own HLS player then reads them again by byte range from the browser's cache — which it can do
 * only from an identity copy (a compressed one made it download both again, a round trip each
 * on the way to the first frame).
 */
export function isCompressedTextFile(kind: StreamFileKind, name: string): boolean {
  return isTextFile(kind) && name !== streamNames.master && name !== streamNames.mediaPlaylist(START_RENDITION_HEIGHT);
}

/** Names the packer writes (the rendition height h, version v, sequence, sheet). */
export const streamNames = {
  master: "master.m3u8",
  mediaPlaylist: (h: number) => `${h}p.m3u8`,
  init: (h: number, v: string) => `${h}p-${v}-init.mp4`,
  segment: (h: number, v: string, seq: number) => `${h}p-${v}-${String(seq).padStart(5, "0")}.m4s`,
  subtitlePlaylist: "subtitles-zh-CN.m3u8",
  subtitles: "subtitles-zh-CN.vtt",
  subtitlePlaylistOf: (language: SubtitleLanguage) => `subtitles-${language}.m3u8`,
  subtitlesOf: (language: SubtitleLanguage) => `subtitles-${language}.vtt`,
  storyboard: "storyboard.vtt",
  sprite: (v: string, k: number) => `sb-${v}-${k}.jpg`,
} as const;

/** The media number of a progressive path such as "/12.mp4", or null. */
export function mediaNumberOf(videoFile: string): string | null {
  const match = /^\/?([1-9][0-9]{0,5})\.mp4$/.exec(videoFile);
  return match ? match[1] : null;
}
