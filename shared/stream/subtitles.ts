/**
 * Placeholder zh-CN subtitles of a built-in title: the title, then its description split into
 * short lines at Chinese punctuation, one cue every few seconds, repeated until the clip ends.
 * Also the one-segment subtitle media playlist that the master's EXT-X-MEDIA points at.
 */
import { streamNames } from "./contract";
import { writeMediaPlaylist } from "./hls";
import { writeVtt, type VttCue } from "./webvtt";

/** Seconds each line stays on screen, and the gap before the next. */
export const SUBTITLE_CUE_SECONDS = 3.5;
export const SUBTITLE_GAP_SECONDS = 0.5;
/** Lines longer than this many characters are cut at a comma or in the middle. */
const MAX_LINE = 18;

/** Splits a description into short lines at sentence and clause punctuation (kept on the line). */
export function subtitleLines(title: string, description: string): string[] {
  const lines = [`「${title}」`];
  const clauses = description.match(/[^。！？；，、]+[。！？；，、]?/g) ?? [];
  let current = "";
  for (const clause of clauses.map((c) => c.trim()).filter(Boolean)) {
    if (current !== "" && (current + clause).length > MAX_LINE) {
      lines.push(current);
      current = "";
    }
    current += clause;
    if (/[。！？]$/.test(current)) {
      lines.push(current);
      current = "";
    }
  }
  if (current !== "") lines.push(current);
  return lines.flatMap((line) => (line.length > 2 * MAX_LINE ? halves(line) : [line]));
}

function halves(line: string): string[] {
  const mid = Math.ceil(line.length / 2);
  return [line.slice(0, mid), line.slice(mid)];
}

/** Cues of the lines, one every SUBTITLE_CUE_SECONDS + gap, cycling through the lines until `duration`. */
export function subtitleCues(lines: readonly string[], duration: number): VttCue[] {
  if (lines.length === 0) throw new RangeError("no subtitle lines");
  const cues: VttCue[] = [];
  const step = SUBTITLE_CUE_SECONDS + SUBTITLE_GAP_SECONDS;
  for (let i = 0; ; i++) {
    const start = 0.5 + i * step;
    if (start >= duration - 0.5) break;
    cues.push({ start, end: Math.min(duration, start + SUBTITLE_CUE_SECONDS), text: lines[i % lines.length] });
  }
  return cues;
}

/**
 * The 90 kHz MPEG-TS time of the first media sample: HLS clients (Safari) place WebVTT cues by
 * X-TIMESTAMP-MAP=MPEGTS:<t>,LOCAL:00:00:00.000, so cue time 0 lines up with the segments' start.
 */
export function timestampMapHeader(mediaStartSeconds: number): string {
  if (!(mediaStartSeconds >= 0)) throw new RangeError(`bad media start ${mediaStartSeconds}`);
  return `X-TIMESTAMP-MAP=MPEGTS:${Math.round(mediaStartSeconds * 90_000)},LOCAL:00:00:00.000`;
}

export function writeSubtitlesVtt(cues: readonly VttCue[], mediaStartSeconds: number): string {
  return writeVtt(cues, [timestampMapHeader(mediaStartSeconds)]);
}

/** subtitles-zh-CN.m3u8: one segment, the whole VTT, covering the whole duration. */
export function writeSubtitlePlaylist(duration: number): string {
  return writeMediaPlaylist({ segments: [{ duration, uri: streamNames.subtitles }] });
}
