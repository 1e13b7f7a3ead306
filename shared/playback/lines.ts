/**
 * 线路 (docs/decisions/0086-play-lines.md): the sources one title or episode can play from, in
 * order — the site's own stream first, then the title's mirrors (hosts serving the same /stream/
 * tree), then external HLS or MP4 URLs — and the rules of automatic failover: when the player
 * leaves a line, and which line it tries next. Pure: the player (shared/player/useStream.ts,
 * useLineFailover.ts) applies them, the provide API (worker/feeds/maccms.ts) lists the same lines
 * and the CSP (worker/line-origins.ts) allows their origins.
 */
import type { Video } from "../catalogue/types";
import { episodeMedia } from "../episodes";
import { masterPlaylistPath, mediaNumberOf } from "../stream/contract";

export interface PlayLine {
  /** From 0; 0 is the site's own stream. */
  index: number;
  /** The menu's name: the catalogue's, else 线路N. */
  name: string;
  /** HLS (a master playlist) or a progressive MP4 file. */
  kind: "hls" | "mp4";
  /** What the player loads: a path on this site or an absolute URL. */
  src: string;
  /** The origin of src when it is another host (for the CSP), null for this site's paths. */
  origin: string | null;
}

export const lineName = (index: number) => `线路${index + 1}`;

/** The origin of an absolute http(s) URL, null for a path of this site. */
export function originOf(url: string): string | null {
  if (!/^https?:\/\//.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const isMp4 = (url: string) => /\.mp4(?:\?|$)/.test(url);

/**
 * The lines of episode `episode` (1 for a single title) in their order: the site's own stream,
 * the title's mirrors, then the episode's (or a single title's) own lines. Empty when the
 * episode does not exist.
 */
export function playLines(video: Video, episode = 1): PlayLine[] {
  const media = episodeMedia(video, episode);
  const n = media && mediaNumberOf(media.videoFile);
  if (!media || !n) return [];
  const own = masterPlaylistPath(n);
  const episodeLines = video.episodes ? (video.episodes[episode - 1]?.lines ?? []) : [];
  const titleLines = video.lines ?? [];
  const extra = [...titleLines.filter((l) => l.mirror !== undefined), ...(video.episodes ? episodeLines : titleLines.filter((l) => l.url !== undefined))];
  const lines: PlayLine[] = [{ index: 0, name: lineName(0), kind: "hls", src: own, origin: null }];
  for (const line of extra) {
    const index = lines.length;
    const src = line.mirror !== undefined ? line.mirror + own : (line.url as string);
    lines.push({ index, name: line.name ?? lineName(index), kind: line.mirror === undefined && isMp4(src) ? "mp4" : "hls", src, origin: originOf(src) });
  }
  return lines;
}

/** Every other host any line of a title (any episode) reads from: what its pages' CSP must allow. */
export function lineOrigins(video: Video): string[] {
  const count = video.episodes?.length ?? 1;
  const origins = new Set<string>();
  for (let e = 1; e <= count; e++) for (const line of playLines(video, e)) if (line.origin) origins.add(line.origin);
  return [...origins];
}

/** The line to start on: the viewer's remembered choice when the title still has it, else the site's own. */
export function startLine(lines: readonly PlayLine[], remembered: number | null): number {
  return remembered !== null && Number.isInteger(remembered) && remembered >= 0 && remembered < lines.length ? remembered : 0;
}

/**
 * The line to try after `current` failed: the next one in order (wrapping round) that has not
 * failed yet in this playback, or null when every line has.
 */
export function nextLine(count: number, current: number, failed: ReadonlySet<number>): number | null {
  for (let step = 1; step < count; step++) {
    const candidate = (current + step) % count;
    if (!failed.has(candidate)) return candidate;
  }
  return null;
}

/** What the player knows when it weighs leaving its line. */
export interface LineHealth {
  /** The engine gave up (a fatal error of hls.js, a media error of the element). */
  fatal: boolean;
  /** Milliseconds the playhead has been stalled with nothing buffered ahead while it should play (0: not stalled). */
  stalledMs: number;
  /** Network errors on this line (segments, playlists) since it last made progress. */
  networkErrors: number;
  /** The browser believes it is online (navigator.onLine): another line cannot fix a dead link. */
  online: boolean;
  /** Another line is left to try. */
  hasNext: boolean;
  /**
   * The browser's own HLS player, stalled, and the line asked directly (shared/player/line-probe.ts)
   * failed to serve the segment at the playhead: that player would keep retrying where the page
   * cannot see it. Optional: hls.js reports its failing requests itself (networkErrors).
   */
  probeFailed?: boolean;
}

/** Stalled this long while the line's requests fail, the player moves on (a brief hiccup is not a failure). */
export const FAILING_STALL_MS = 1000;
/** Stalled this long without any error seen, the line is left anyway (a slow or stuck host). */
export const STALL_SWITCH_MS = 4000;

/**
 * Whether to switch to the next line now. A fatal error always moves on; a stall moves on after
 * FAILING_STALL_MS when this line's requests have been failing (the next line may well work),
 * after STALL_SWITCH_MS when nothing failed (a slow host), at once when the stalled native player's
 * line failed a probe of the segment at the playhead; never while offline, or with no line left.
 */
export function shouldLeaveLine(health: LineHealth): boolean {
  if (!health.hasNext) return false;
  if (health.fatal) return true;
  if (!health.online || health.stalledMs <= 0) return false;
  // Stalled, and the segment the playhead needs does not come from this line: no point waiting longer.
  if (health.probeFailed) return true;
  return health.stalledMs >= (health.networkErrors > 0 ? FAILING_STALL_MS : STALL_SWITCH_MS);
}

/** The short notice shown when the player moved to another line by itself. */
export const switchedNotice = (line: PlayLine) => `已切换到${line.name}`;
