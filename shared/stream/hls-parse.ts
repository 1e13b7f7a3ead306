/**
 * Parsing HLS playlists (RFC 8216): the master playlist and media playlists, with the types of
 * ./hls.ts. Pure functions: the player reads the master (its quality menu, the 线路 probe), the
 * worker and the deploy checks read uploaded and packed playlists. Apart from the writers (./hls.ts),
 * so that the player's pages do not load them.
 */
import type { HlsVariant, MasterPlaylist, MediaPlaylist } from "./hls";

/** Thrown by the parsers for text that is not a playlist of the expected kind. */
export class PlaylistError extends Error {
  override name = "PlaylistError";
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
