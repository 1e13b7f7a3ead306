/**
 * Seek-preview storyboard of a title (/stream/{n}/storyboard.vtt + sb-{v}-{k}.jpg): one small
 * tile every `interval` seconds, tiles laid out row by row in sprite sheets of columns × rows.
 * Each WebVTT cue covers one interval and points at its tile as `sb-{v}-{k}.jpg#xywh=x,y,w,h`
 * (relative to the VTT). The packer writes with these functions; the player parses and looks up.
 */
import { streamNames } from "./contract";
import { cueIndexAt, formatVttTime, parseVtt, VttError } from "./webvtt";

export interface StoryboardLayout {
  /** Title duration in seconds. */
  duration: number;
  /** Seconds between tiles. */
  interval: number;
  tileWidth: number;
  tileHeight: number;
  columns: number;
  rows: number;
}

export interface StoryboardTile {
  /** Tile number from 0 (the one for time index × interval). */
  index: number;
  /** Sprite sheet k. */
  sheet: number;
  x: number;
  y: number;
}

export interface StoryboardCue {
  start: number;
  end: number;
  /** Sheet URL as written in the VTT (relative to it), without the fragment. */
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export const STORYBOARD_TILE = { width: 160, height: 90 } as const;
export const STORYBOARD_GRID = { columns: 10, rows: 10 } as const;
/** Shortest and longest spacing of tiles. */
export const STORYBOARD_MIN_INTERVAL = 2;
export const STORYBOARD_MAX_INTERVAL = 10;

/**
 * Seconds between tiles: every 2 s for short clips, wider for long titles so that a title needs
 * at most about two sheets of 100 tiles, never more than every 10 s (2 h → 10 s, 72 sheets).
 */
export function storyboardInterval(duration: number): number {
  if (!(duration > 0) || !Number.isFinite(duration)) throw new RangeError(`bad duration ${duration}`);
  const perTile = Math.ceil(duration / (2 * STORYBOARD_GRID.columns * STORYBOARD_GRID.rows));
  return Math.min(STORYBOARD_MAX_INTERVAL, Math.max(STORYBOARD_MIN_INTERVAL, perTile));
}

export function storyboardLayout(duration: number, interval = storyboardInterval(duration)): StoryboardLayout {
  if (!(interval > 0)) throw new RangeError(`bad interval ${interval}`);
  return {
    duration,
    interval,
    tileWidth: STORYBOARD_TILE.width,
    tileHeight: STORYBOARD_TILE.height,
    columns: STORYBOARD_GRID.columns,
    rows: STORYBOARD_GRID.rows,
  };
}

/** Number of tiles: one per started interval. */
export function tileCount(layout: StoryboardLayout): number {
  return Math.max(1, Math.ceil(layout.duration / layout.interval - 1e-9));
}

/** Number of sprite sheets. */
export function sheetCount(layout: StoryboardLayout): number {
  return Math.ceil(tileCount(layout) / (layout.columns * layout.rows));
}

/** Where tile i sits: its sheet and pixel offset. */
export function tilePosition(layout: StoryboardLayout, index: number): StoryboardTile {
  const perSheet = layout.columns * layout.rows;
  const within = index % perSheet;
  return {
    index,
    sheet: Math.floor(index / perSheet),
    x: (within % layout.columns) * layout.tileWidth,
    y: Math.floor(within / layout.columns) * layout.tileHeight,
  };
}

/** The tile shown for time t (clamped to the title). */
export function tileAt(layout: StoryboardLayout, t: number): StoryboardTile {
  const last = tileCount(layout) - 1;
  const index = Number.isFinite(t) ? Math.min(last, Math.max(0, Math.floor(t / layout.interval))) : t > 0 ? last : 0;
  return tilePosition(layout, index);
}

/** storyboard.vtt: one cue per tile, the last one ending at the title's end. */
export function writeStoryboardVtt(layout: StoryboardLayout, sheetName: (k: number) => string): string {
  const parts = ["WEBVTT"];
  const count = tileCount(layout);
  for (let i = 0; i < count; i++) {
    const tile = tilePosition(layout, i);
    const start = i * layout.interval;
    const end = Math.min(layout.duration, (i + 1) * layout.interval);
    parts.push(
      `${formatVttTime(start)} --> ${formatVttTime(end)}\n` + `${sheetName(tile.sheet)}#xywh=${tile.x},${tile.y},${layout.tileWidth},${layout.tileHeight}`,
    );
  }
  return parts.join("\n\n") + "\n";
}

/** The sprite names of version v, as the packer writes them. */
export const spriteName = (v: string) => (k: number) => streamNames.sprite(v, k);

/** Parses storyboard.vtt into cues with their tile rectangles. */
export function parseStoryboardVtt(text: string): StoryboardCue[] {
  return parseVtt(text).cues.map((cue) => {
    const match = /^([^#\s]+)#xywh=([0-9]+),([0-9]+),([0-9]+),([0-9]+)$/.exec(cue.text.trim());
    if (!match) throw new VttError(`a storyboard cue without url#xywh=x,y,w,h: ${cue.text}`);
    const [, url, x, y, w, h] = match;
    return { start: cue.start, end: cue.end, url, x: Number(x), y: Number(y), w: Number(w), h: Number(h) };
  });
}

/** The storyboard cue for time t, or null outside the title. */
export function storyboardCueAt(cues: readonly StoryboardCue[], t: number): StoryboardCue | null {
  const i = cueIndexAt(cues, t);
  return i < 0 ? null : cues[i];
}
