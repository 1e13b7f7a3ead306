/**
 * 片头 / 片尾 of a series found when it is packed (docs/decisions/0093-intro-detection.md): each
 * episode's audio decoded by ffmpeg (mono, 8 kHz, 32-bit float), fingerprinted, and compared with
 * its next episode (else the one before) by scripts/media/intro-fingerprint.ts; then
 * the markers the entry gets (`seriesMarkers`): the title's when every episode found the same
 * one (within a second), else each episode its own. `npm run catalogue -- add` calls it
 * (scripts/catalogue/add.ts; `--skip-markers` does not).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Marker } from "../../shared/catalogue/schema";
import { runFfmpeg } from "./ffmpeg";
import { fingerprint, FINGERPRINT_RATE, sharedIntro, sharedOutro, type SharedStretch } from "./intro-fingerprint";

export interface FoundMarkers {
  intro: Marker | null;
  outro: Marker | null;
}

/** The audio of `file` as the fingerprint wants it (mono PCM at FINGERPRINT_RATE); empty when it has no audio. */
export async function decodePcm(file: string): Promise<Float32Array> {
  const dir = await mkdtemp(path.join(tmpdir(), "intro-pcm-"));
  try {
    const out = path.join(dir, "audio.f32");
    await runFfmpeg(["-i", file, "-vn", "-ac", "1", "-ar", String(FINGERPRINT_RATE), "-f", "f32le", out]);
    const bytes = await readFile(out).catch(() => Buffer.alloc(0));
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.byteLength - (bytes.byteLength % 4))));
  } catch (error) {
    if (/does not contain any stream|Output file #0 does not contain|matches no streams/i.test((error as Error).message)) return new Float32Array(0);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Each episode's markers from its fingerprint and its next episode's, else (nothing shared, the
 * last episode) the one before's; null where an episode's audio is missing.
 */
export function episodeMarkersFrom(prints: ReadonlyArray<Uint32Array | null>): Array<FoundMarkers | null> {
  return prints.map((own, i) => {
    if (!own) return null;
    const neighbours = [prints[i + 1], prints[i - 1]].filter((p): p is Uint32Array => p instanceof Uint32Array);
    const first = (match: (a: Uint32Array, b: Uint32Array) => SharedStretch | null): Marker | null => {
      for (const other of neighbours) {
        const stretch = match(own, other);
        if (stretch) return stretch.a;
      }
      return null;
    };
    return { intro: first(sharedIntro), outro: first(sharedOutro) };
  });
}

/** Markers closer than this (start and end) are the same one. */
const SAME_WITHIN = 1;
const same = (a: Marker, b: Marker) => Math.abs(a.start - b.start) <= SAME_WITHIN && Math.abs(a.end - b.end) <= SAME_WITHIN;

export interface SeriesMarkers {
  intro?: Marker;
  outro?: Marker;
  /** Each episode's own (absent: none of its own). */
  episodes: Array<{ intro?: Marker; outro?: Marker }>;
}

/**
 * What the entry gets from what each episode found. A title marker only when every episode found
 * one and they agree within a second (its value: the median episode's), since an episode cannot
 * opt out of the title's marker; otherwise each episode that found one gets its own, and one that
 * found none gets none. `kept` are the entry's markers already there (set by the operator or an
 * earlier add): they stay, and an episode only gets its own where it found a different one.
 */
export function seriesMarkers(found: ReadonlyArray<FoundMarkers | null>, kept: { intro?: Marker; outro?: Marker } = {}): SeriesMarkers {
  const result: SeriesMarkers = { episodes: found.map(() => ({})) };
  for (const kind of ["intro", "outro"] as const) {
    const each = found.map((f) => f?.[kind] ?? null);
    let title = kept[kind] ?? null;
    if (!title && each.length > 1 && each.every((m) => m !== null)) {
      const sorted = [...each].sort((a, b) => a.start - b.start);
      const middle = sorted[Math.floor(sorted.length / 2)];
      if (sorted.every((m) => same(m, middle))) title = middle;
    }
    if (title && !kept[kind]) result[kind] = title;
    each.forEach((m, i) => {
      if (m && !(title && same(m, title))) result.episodes[i][kind] = m;
    });
  }
  return result;
}

/** Decodes and matches the episodes' media files (null: an episode whose file is missing). */
export async function detectEpisodeMarkers(files: ReadonlyArray<string | null>): Promise<Array<FoundMarkers | null>> {
  const prints: Array<Uint32Array | null> = [];
  for (const file of files) {
    const pcm = file ? await decodePcm(file) : null;
    prints.push(pcm && pcm.length > 0 ? fingerprint(pcm) : null);
  }
  return episodeMarkersFrom(prints);
}

/**
 * `entry` with the markers found: the title's where it had none; an episode's own where it had
 * none of that kind — every episode when the title's markers are new, only `fresh` episodes
 * (0-based) when the title kept its own (an older episode stays as the operator left it).
 * Returns how many markers were written.
 */
export function applySeriesMarkers(
  entry: { intro?: Marker; outro?: Marker; episodes?: Array<{ intro?: Marker; outro?: Marker }> },
  markers: SeriesMarkers,
  fresh: ReadonlySet<number>,
): number {
  let written = 0;
  for (const kind of ["intro", "outro"] as const) {
    const titleKept = entry[kind] !== undefined;
    if (!titleKept && markers[kind]) {
      entry[kind] = markers[kind];
      written++;
    }
    entry.episodes?.forEach((episode, i) => {
      const own = markers.episodes[i]?.[kind];
      if (!own || episode[kind] !== undefined || (titleKept && !fresh.has(i))) return;
      episode[kind] = own;
      written++;
    });
  }
  return written;
}
