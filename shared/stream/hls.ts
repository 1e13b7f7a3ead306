/**
 * HLS playlists (RFC 8216 / draft-pantos-hls-rfc8216bis) for the CMAF ladder under /stream/{n}/:
 * writing and parsing the master playlist and media playlists. Pure functions: the packer
 * (scripts/media/) writes with them, the player parses the master to build its quality menu.
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

/** Thrown by the parsers for text that is not a playlist of the expected kind. */
export class PlaylistError extends Error {
  override name = "PlaylistError";
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

/**
 * Parses an attribute list (RFC 8216 §4.2): `KEY=value` pairs separated by commas, where quoted
 * strings may hold commas. Keys are returned as written; quoted values without their quotes.
 */
export function parseAttributes(list: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([A-Z0-9-]+)=("[^"\r\n]*"|[^",\s]*)(?:,|$)/gy;
  let match: RegExpExecArray | null;
  let last = 0;
  while ((match = re.exec(list)) !== null) {
    const [, key, raw] = match;
    out.set(key, raw.startsWith('"') ? raw.slice(1, -1) : raw);
    last = re.lastIndex;
    if (last >= list.length) break;
  }
  if (last < list.length) throw new PlaylistError(`bad attribute list: ${list}`);
  return out;
}

function lines(text: string): string[] {
  const all = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((l) => l.trim());
  if (all[0] !== "#EXTM3U") throw new PlaylistError("not an HLS playlist (no #EXTM3U)");
  return all.filter((l) => l !== "");
}

function tagValue(line: string, tag: string): string | null {
  return line.startsWith(`${tag}:`) ? line.slice(tag.length + 1) : null;
}

function intOf(value: string, what: string): number {
  if (!/^[0-9]+$/.test(value)) throw new PlaylistError(`bad ${what}: ${value}`);
  return Number(value);
}

/** Parses a master playlist. Variants are returned in playlist order. */
export function parseMasterPlaylist(text: string): MasterPlaylist {
  const all = lines(text);
  const result: MasterPlaylist = { version: 1, independentSegments: false, variants: [], subtitles: [] };
  for (let i = 1; i < all.length; i++) {
    const line = all[i];
    let value: string | null;
    if ((value = tagValue(line, "#EXT-X-VERSION")) !== null) result.version = intOf(value, "EXT-X-VERSION");
    else if (line === "#EXT-X-INDEPENDENT-SEGMENTS") result.independentSegments = true;
    else if ((value = tagValue(line, "#EXT-X-MEDIA")) !== null) {
      const a = parseAttributes(value);
      if (a.get("TYPE") !== "SUBTITLES") continue;
      const groupId = a.get("GROUP-ID");
      const name = a.get("NAME");
      const uri = a.get("URI");
      if (!groupId || !name || !uri) throw new PlaylistError(`subtitle rendition without GROUP-ID, NAME or URI: ${line}`);
      result.subtitles.push({
        groupId,
        name,
        language: a.get("LANGUAGE") ?? "",
        isDefault: a.get("DEFAULT") === "YES",
        autoselect: a.get("AUTOSELECT") === "YES",
        uri,
      });
    } else if ((value = tagValue(line, "#EXT-X-STREAM-INF")) !== null) {
      const a = parseAttributes(value);
      const uri = all[i + 1];
      if (uri === undefined || uri.startsWith("#")) throw new PlaylistError(`EXT-X-STREAM-INF without a URI: ${line}`);
      i++;
      const bandwidth = a.get("BANDWIDTH");
      if (bandwidth === undefined) throw new PlaylistError(`EXT-X-STREAM-INF without BANDWIDTH: ${line}`);
      const resolution = /^([0-9]+)x([0-9]+)$/.exec(a.get("RESOLUTION") ?? "");
      const average = a.get("AVERAGE-BANDWIDTH");
      const frameRate = a.get("FRAME-RATE");
      const variant: HlsVariant = {
        bandwidth: intOf(bandwidth, "BANDWIDTH"),
        width: resolution ? Number(resolution[1]) : 0,
        height: resolution ? Number(resolution[2]) : 0,
        codecs: (a.get("CODECS") ?? "")
          .split(",")
          .map((c) => c.trim())
          .filter(Boolean),
        uri,
      };
      if (average !== undefined) variant.averageBandwidth = intOf(average, "AVERAGE-BANDWIDTH");
      if (frameRate !== undefined) {
        const fr = Number(frameRate);
        if (!(fr > 0)) throw new PlaylistError(`bad FRAME-RATE: ${frameRate}`);
        variant.frameRate = fr;
      }
      const subs = a.get("SUBTITLES");
      if (subs !== undefined) variant.subtitles = subs;
      result.variants.push(variant);
    } else if (line.startsWith("#EXTINF:") || line.startsWith("#EXT-X-TARGETDURATION")) {
      throw new PlaylistError("this is a media playlist, not a master playlist");
    }
  }
  if (result.variants.length === 0) throw new PlaylistError("a master playlist without variants");
  return result;
}

/** Parses a media playlist (segments with their durations, the EXT-X-MAP, VOD/ENDLIST flags). */
export function parseMediaPlaylist(text: string): MediaPlaylist {
  const all = lines(text);
  const result: MediaPlaylist = {
    version: 1,
    targetDuration: 0,
    mediaSequence: 0,
    playlistType: null,
    independentSegments: false,
    map: null,
    segments: [],
    endList: false,
  };
  let pending: number | null = null;
  let sawTarget = false;
  for (let i = 1; i < all.length; i++) {
    const line = all[i];
    let value: string | null;
    if ((value = tagValue(line, "#EXT-X-VERSION")) !== null) result.version = intOf(value, "EXT-X-VERSION");
    else if ((value = tagValue(line, "#EXT-X-TARGETDURATION")) !== null) {
      result.targetDuration = intOf(value, "EXT-X-TARGETDURATION");
      sawTarget = true;
    } else if ((value = tagValue(line, "#EXT-X-MEDIA-SEQUENCE")) !== null) result.mediaSequence = intOf(value, "EXT-X-MEDIA-SEQUENCE");
    else if ((value = tagValue(line, "#EXT-X-PLAYLIST-TYPE")) !== null) {
      if (value !== "VOD" && value !== "EVENT") throw new PlaylistError(`bad EXT-X-PLAYLIST-TYPE: ${value}`);
      result.playlistType = value;
    } else if (line === "#EXT-X-INDEPENDENT-SEGMENTS") result.independentSegments = true;
    else if ((value = tagValue(line, "#EXT-X-MAP")) !== null) {
      const uri = parseAttributes(value).get("URI");
      if (!uri) throw new PlaylistError(`EXT-X-MAP without URI: ${line}`);
      result.map = uri;
    } else if ((value = tagValue(line, "#EXTINF")) !== null) {
      const duration = Number(value.split(",")[0]);
      if (!(duration >= 0) || !Number.isFinite(duration)) throw new PlaylistError(`bad EXTINF: ${line}`);
      pending = duration;
    } else if (line === "#EXT-X-ENDLIST") result.endList = true;
    else if (line.startsWith("#EXT-X-STREAM-INF")) throw new PlaylistError("this is a master playlist, not a media playlist");
    else if (!line.startsWith("#")) {
      if (pending === null) throw new PlaylistError(`segment URI without EXTINF: ${line}`);
      result.segments.push({ duration: pending, uri: line });
      pending = null;
    }
  }
  if (!sawTarget) throw new PlaylistError("a media playlist without EXT-X-TARGETDURATION");
  if (pending !== null) throw new PlaylistError("EXTINF without a segment URI");
  return result;
}
