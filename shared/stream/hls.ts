/**
 * HLS playlists (RFC 8216 / draft-pantos-hls-rfc8216bis) for the CMAF ladder under /stream/{n}/:
 * their types and the writers of the master playlist and media playlists. Pure functions: both
 * packers (scripts/media/, client/admin/packer/) write with them. The parsers are in ./hls-parse.ts,
 * apart, so that the player's pages load the parsers without the writers.
 */

/** One variant (rendition) of the master playlist. */
export interface HlsVariant {
  /** Peak segment bitrate in bits/s (video + audio + container). */
  bandwidth: number;
  /** Average bitrate over the whole rendition in bits/s. */
  averageBandwidth?: number;
  width: number;
  height: number;
  /** RFC 6381 codecs, e.g. ["avc1.64001f", "mp4a.40.2"]. */
  codecs: readonly string[];
  frameRate?: number;
  /** GROUP-ID of the subtitle renditions this variant goes with. */
  subtitles?: string;
  /** URI of the media playlist, relative to the master. */
  uri: string;
}

/** An EXT-X-MEDIA subtitle rendition. */
export interface HlsSubtitleTrack {
  groupId: string;
  name: string;
  language: string;
  isDefault: boolean;
  autoselect: boolean;
  uri: string;
}

export interface MasterPlaylist {
  version: number;
  independentSegments: boolean;
  variants: HlsVariant[];
  subtitles: HlsSubtitleTrack[];
}

export interface MediaSegment {
  /** Duration in seconds. */
  duration: number;
  uri: string;
}

export interface MediaPlaylist {
  version: number;
  targetDuration: number;
  mediaSequence: number;
  playlistType: "VOD" | "EVENT" | null;
  independentSegments: boolean;
  /** URI of the EXT-X-MAP initialisation section, or null (e.g. WebVTT playlists). */
  map: string | null;
  segments: MediaSegment[];
  endList: boolean;
}

/** The RFC 6381 name of an H.264 stream: avc1.PPCCLL from the avcC profile, constraint flags and level. */
export function avcCodec(profile: number, compatibility: number, level: number): string {
  const hex = (b: number) => {
    if (!Number.isInteger(b) || b < 0 || b > 255) throw new RangeError(`not a byte: ${b}`);
    return b.toString(16).padStart(2, "0");
  };
  return `avc1.${hex(profile)}${hex(compatibility)}${hex(level)}`;
}

/** AAC-LC, the audio of every rendition. */
export const AAC_LC_CODEC = "mp4a.40.2";

function quoted(value: string): string {
  if (/["\r\n]/.test(value)) throw new RangeError(`a quoted HLS attribute cannot hold quotes or line breaks: ${value}`);
  return `"${value}"`;
}

function checkUri(uri: string): string {
  if (uri === "" || /[\r\n]/.test(uri) || uri.startsWith("#")) throw new RangeError(`bad playlist URI: ${JSON.stringify(uri)}`);
  return uri;
}

function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${what} must be a positive integer, got ${value}`);
  return value;
}

/** Orders variants as the master lists them: lowest BANDWIDTH first (then lowest height). */
export function byBandwidth(a: HlsVariant, b: HlsVariant): number {
  return a.bandwidth - b.bandwidth || a.height - b.height;
}

/**
 * The master playlist: EXT-X-MEDIA subtitle renditions, then one EXT-X-STREAM-INF per variant,
 * lowest bandwidth first (players that start with the first variant start fast on slow links).
 */
export function writeMasterPlaylist(input: { variants: readonly HlsVariant[]; subtitles?: readonly HlsSubtitleTrack[]; version?: number }): string {
  const { variants, subtitles = [], version = 7 } = input;
  if (variants.length === 0) throw new RangeError("a master playlist needs at least one variant");
  const lines = ["#EXTM3U", `#EXT-X-VERSION:${positiveInt(version, "version")}`, "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const s of subtitles) {
    lines.push(
      "#EXT-X-MEDIA:" +
        [
          "TYPE=SUBTITLES",
          `GROUP-ID=${quoted(s.groupId)}`,
          `NAME=${quoted(s.name)}`,
          `LANGUAGE=${quoted(s.language)}`,
          `DEFAULT=${s.isDefault ? "YES" : "NO"}`,
          `AUTOSELECT=${s.autoselect ? "YES" : "NO"}`,
          `URI=${quoted(checkUri(s.uri))}`,
        ].join(","),
    );
  }
  const groups = new Set(subtitles.map((s) => s.groupId));
  for (const v of [...variants].sort(byBandwidth)) {
    if (v.subtitles !== undefined && !groups.has(v.subtitles)) throw new RangeError(`no subtitle group ${v.subtitles}`);
    if (v.codecs.length === 0) throw new RangeError("a variant needs its CODECS");
    const attrs = [`BANDWIDTH=${positiveInt(v.bandwidth, "BANDWIDTH")}`];
    if (v.averageBandwidth !== undefined) attrs.push(`AVERAGE-BANDWIDTH=${positiveInt(v.averageBandwidth, "AVERAGE-BANDWIDTH")}`);
    attrs.push(`RESOLUTION=${positiveInt(v.width, "width")}x${positiveInt(v.height, "height")}`);
    attrs.push(`CODECS=${quoted(v.codecs.join(","))}`);
    if (v.frameRate !== undefined) {
      if (!(v.frameRate > 0)) throw new RangeError(`bad FRAME-RATE ${v.frameRate}`);
      attrs.push(`FRAME-RATE=${v.frameRate.toFixed(3)}`);
    }
    if (v.subtitles !== undefined) attrs.push(`SUBTITLES=${quoted(v.subtitles)}`);
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(",")}`, checkUri(v.uri));
  }
  return lines.join("\n") + "\n";
}

/**
 * A media playlist of a VOD rendition (or of the subtitles): EXT-X-TARGETDURATION is the longest
 * segment rounded to the nearest integer (RFC 8216 §4.3.3.1), every segment listed, EXT-X-ENDLIST.
 */
export function writeMediaPlaylist(input: { segments: readonly MediaSegment[]; map?: string | null; version?: number; mediaSequence?: number }): string {
  const { segments, map = null, version = 7, mediaSequence = 0 } = input;
  if (segments.length === 0) throw new RangeError("a media playlist needs at least one segment");
  for (const s of segments) {
    if (!(s.duration > 0) || !Number.isFinite(s.duration)) throw new RangeError(`bad segment duration ${s.duration}`);
  }
  const target = Math.max(1, ...segments.map((s) => Math.round(s.duration)));
  const lines = [
    "#EXTM3U",
    `#EXT-X-VERSION:${positiveInt(version, "version")}`,
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${mediaSequence}`,
    "#EXT-X-PLAYLIST-TYPE:VOD",
    "#EXT-X-INDEPENDENT-SEGMENTS",
  ];
  if (map !== null) lines.push(`#EXT-X-MAP:URI=${quoted(checkUri(map))}`);
  for (const s of segments) lines.push(`#EXTINF:${formatDuration(s.duration)},`, checkUri(s.uri));
  lines.push("#EXT-X-ENDLIST");
  return lines.join("\n") + "\n";
}

/** Segment durations with millisecond precision and no trailing zeros beyond one decimal. */
function formatDuration(seconds: number): string {
  const fixed = seconds.toFixed(3).replace(/0+$/, "");
  return fixed.endsWith(".") ? `${fixed}0` : fixed;
}
