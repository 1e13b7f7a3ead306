/**
 * 片头 / 片尾 of a series found when it is packed (docs/decisions/0093-intro-detection.md): each
 * episode's audio decoded by ffmpeg (mono, 8 kHz, 32-bit float), fingerprinted, and compared with
 * its next episode (else the one before) by shared/media/intro-fingerprint.ts; then
 * the markers the entry gets (shared/media/series-markers.ts): the title's when every episode found the same
 * one (within a second), else each episode its own. `npm run catalogue -- add` calls it
 * (scripts/catalogue/add.ts; `--skip-markers` does not).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runFfmpeg } from "./ffmpeg";
import { fingerprint, FINGERPRINT_RATE } from "../../shared/media/intro-fingerprint";
import { episodeMarkersFrom, type FoundMarkers } from "../../shared/media/series-markers";

export { applySeriesMarkers, episodeMarkersFrom, seriesMarkers, type FoundMarkers, type SeriesMarkers } from "../../shared/media/series-markers";

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

/** Decodes and matches the episodes' media files (null: an episode whose file is missing). */
export async function detectEpisodeMarkers(files: ReadonlyArray<string | null>): Promise<Array<FoundMarkers | null>> {
  const prints: Array<Uint32Array | null> = [];
  for (const file of files) {
    const pcm = file ? await decodePcm(file) : null;
    prints.push(pcm && pcm.length > 0 ? fingerprint(pcm) : null);
  }
  return episodeMarkersFrom(prints);
}
