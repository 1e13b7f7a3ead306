/**
 * Subtitle languages written into a finished pack (`{dir}/stream/`): a WebVTT file and its
 * one-segment playlist per language given, then the master playlist rewritten to list exactly
 * the pack's languages (shared/stream/subtitle-tracks.ts). Text only — no re-encoding — so the
 * built-in titles' other languages (scripts/media/titles.ts) and the files of
 * `npm run catalogue -- add --subtitles` (scripts/catalogue/add.ts) cost nothing next to packing.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { streamNames, type SubtitleLanguage } from "../../shared/stream/contract";
import { subtitlesToVtt } from "../../shared/stream/subtitle-convert";
import { masterWithSubtitles, subtitlePlaylistOf, timestampMapOf } from "../../shared/stream/subtitle-tracks";
import type { VttCue } from "../../shared/stream/webvtt";

export interface SubtitleTrack {
  language: SubtitleLanguage;
  cues: readonly VttCue[];
}

/**
 * Writes `tracks` into the pack at `dir` and lists `languages` (the tracks' and those the pack
 * already has) in its master. Cues are aligned like the packer's own (its X-TIMESTAMP-MAP).
 */
export async function writeSubtitleTracks(
  dir: string,
  duration: number,
  tracks: readonly SubtitleTrack[],
  languages: readonly SubtitleLanguage[],
): Promise<void> {
  const stream = path.join(dir, "stream");
  const packed = await readFile(path.join(stream, streamNames.subtitles), "utf8").catch(() => "");
  const map = timestampMapOf(packed);
  for (const track of tracks) {
    await writeFile(path.join(stream, streamNames.subtitlesOf(track.language)), subtitlesToVtt(track.cues, map ? [map] : []));
    await writeFile(path.join(stream, streamNames.subtitlePlaylistOf(track.language)), subtitlePlaylistOf(track.language, duration));
  }
  const masterFile = path.join(stream, streamNames.master);
  const master = await readFile(masterFile, "utf8");
  const next = masterWithSubtitles(master, languages);
  if (next !== master) await writeFile(masterFile, next);
}
