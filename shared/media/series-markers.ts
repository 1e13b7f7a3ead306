/**
 * 片头 / 片尾 of a series from its episodes' audio fingerprints (docs/decisions/0093-intro-detection.md,
 * shared/media/intro-fingerprint.ts): each episode matched with its next (else the one before),
 * then what the entry gets (`seriesMarkers`, `applySeriesMarkers`). Pure: the CLI packer
 * (scripts/media/intro-detect.ts) and the browser packer's publish (worker/admin/media-uploads.ts,
 * docs/decisions/0099-browser-intro-detection.md) both use it.
 */
import type { Marker } from "../catalogue/schema";
import { sharedIntro, sharedOutro, type SharedStretch } from "./intro-fingerprint";

export interface FoundMarkers {
  intro: Marker | null;
  outro: Marker | null;
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

/** What one upload found for an episode (1-based), sent with its publish (docs/decisions/0099-browser-intro-detection.md). */
export interface EpisodeFound {
  episode: number;
  intro: Marker | null;
  outro: Marker | null;
}

/**
 * The browser packer's matching, one episode at a time: the new episode's fingerprint `own`
 * against its neighbours' stored ones (the next first, as the CLI's `episodeMarkersFrom`); what
 * the new episode found, and what each neighbour found in it.
 */
export function foundWithNeighbours(episode: number, own: Uint32Array, neighbours: ReadonlyArray<{ episode: number; codes: Uint32Array }>): EpisodeFound[] {
  const ordered = [...neighbours].sort((a, b) => b.episode - a.episode);
  const mine: EpisodeFound = { episode, intro: null, outro: null };
  const theirs = ordered.map((n): EpisodeFound => ({ episode: n.episode, intro: null, outro: null }));
  ordered.forEach((n, i) => {
    for (const [kind, match] of [
      ["intro", sharedIntro],
      ["outro", sharedOutro],
    ] as const) {
      const stretch = match(own, n.codes);
      if (!stretch) continue;
      mine[kind] ??= stretch.a;
      theirs[i][kind] = stretch.b;
    }
  });
  return [mine, ...theirs];
}

const isSeconds = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0 && x <= 86_400;
const markerOf = (raw: unknown): Marker | null | undefined => {
  if (raw === null) return null;
  const { start, end } = (raw ?? {}) as Record<string, unknown>;
  return isSeconds(start) && isSeconds(end) && end > start ? { start: Math.round(start * 10) / 10, end: Math.round(end * 10) / 10 } : undefined;
};

/** A publish body's `markers` (absent: none found), or null when it is not a list of found markers of episodes 1…`episodes`. */
export function parseEpisodeFound(raw: unknown, episodes: number): EpisodeFound[] | null {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 3) return null;
  const found: EpisodeFound[] = [];
  for (const item of raw as unknown[]) {
    const { episode, intro, outro } = (item ?? {}) as Record<string, unknown>;
    const i = markerOf(intro);
    const o = markerOf(outro);
    if (typeof episode !== "number" || !Number.isInteger(episode) || episode < 1 || episode > episodes || i === undefined || o === undefined) return null;
    if (found.some((f) => f.episode === episode)) return null;
    found.push({ episode, intro: i, outro: o });
  }
  return found;
}

/**
 * A series entry with what an upload found for some of its episodes (`found`): the others count
 * as having found what they show today (their own, else the title's), and the rules of
 * `seriesMarkers` / `applySeriesMarkers` decide — a title marker once every episode has the same
 * one, else each listed episode its own where it has none; the operator's stay. Returns how many
 * markers were written. A film (no episodes) gets none.
 */
export function applyEpisodeFound(
  entry: { intro?: Marker; outro?: Marker; episodes?: Array<{ intro?: Marker; outro?: Marker }> },
  found: readonly EpisodeFound[],
): number {
  const episodes = entry.episodes ?? [];
  if (episodes.length < 2 || found.length === 0) return 0;
  const listed = new Map(found.map((f) => [f.episode - 1, f]));
  const all = episodes.map((ep, i): FoundMarkers => listed.get(i) ?? { intro: ep.intro ?? entry.intro ?? null, outro: ep.outro ?? entry.outro ?? null });
  return applySeriesMarkers(entry, seriesMarkers(all, { intro: entry.intro, outro: entry.outro }), new Set(listed.keys()));
}
