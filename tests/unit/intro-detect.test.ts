// 片头 / 片尾 found when a series is packed (scripts/media/intro-detect.ts): generated episodes
// sharing a known 12 s opening and 9 s ending, written as WAV and encoded to AAC in MP4 as the
// packer's progressive files are, decoded by ffmpeg and matched: one title marker when every
// episode has it at the same place (within 1 s), each episode its own where they differ, none for
// an episode that shares nothing; the entry keeps what the operator set.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../scripts/media/ffmpeg";
import { applySeriesMarkers, detectEpisodeMarkers, seriesMarkers, type FoundMarkers } from "../../scripts/media/intro-detect";
import { FINGERPRINT_RATE } from "../../shared/media/intro-fingerprint";
import { concat, music, wavBytes } from "./generated-audio";

const OPENING = music(12, 1);
const ENDING = music(9, 2);

let dir = "";

const wav = (pcm: Float32Array) => wavBytes(pcm, FINGERPRINT_RATE);

/** An episode's audio as an AAC track in MP4 (like the packer's progressive.mp4). */
async function episodeFile(name: string, pcm: Float32Array): Promise<string> {
  const source = path.join(dir, `${name}.wav`);
  const out = path.join(dir, `${name}.mp4`);
  await writeFile(source, wav(pcm));
  await runFfmpeg(["-i", source, "-ar", "44100", "-c:a", "aac", "-b:a", "96k", out]);
  return out;
}

/**
 * An episode: a cold open, the opening, its own story, the ending, a tail. Each episode's own
 * parts change chords off the others' beat (a first chord of seed/20 s), as real episodes'
 * scenes do: generated chords on one shared beat match each other by chance.
 */
const own = (seconds: number, seed: number) => concat(music((seed % 7) / 20 + 0.05, seed + 1000), music(seconds - (seed % 7) / 20 - 0.05, seed));
const episode = (seed: number, coldOpen: number, story: number) =>
  concat(own(coldOpen, seed * 10 + 3), OPENING, own(story, seed * 10 + 4), ENDING, own(2, seed * 10 + 5));

const near = (m: { start: number; end: number } | null | undefined, start: number, end: number) => {
  expect(m, `expected a marker near ${start}–${end}`).toBeTruthy();
  expect(Math.abs(m!.start - start), `start ${m!.start} vs ${start}`).toBeLessThanOrEqual(1);
  expect(Math.abs(m!.end - end), `end ${m!.end} vs ${end}`).toBeLessThanOrEqual(1);
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "intro-detect-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("片头 / 片尾 of a packed series", () => {
  it("episodes with the opening and ending at the same places: one title marker each, within 1 s", async () => {
    const files = [await episodeFile("a1", episode(1, 4, 20)), await episodeFile("a2", episode(2, 4, 20)), await episodeFile("a3", episode(3, 4, 20))];
    const found = await detectEpisodeMarkers(files);
    const markers = seriesMarkers(found);
    near(markers.intro, 4, 16);
    near(markers.outro, 36, 45);
    expect(markers.episodes).toEqual([{}, {}, {}]);
  });

  it("at different places: each episode its own; an episode that shares nothing gets none; a missing file none", async () => {
    const files = [
      await episodeFile("b1", episode(4, 2, 18)),
      await episodeFile("b2", episode(5, 7.5, 24)),
      await episodeFile("b3", concat(music(20, 71), music(30, 72))),
      null,
    ];
    const found = await detectEpisodeMarkers(files);
    const markers = seriesMarkers(found);
    expect(markers.intro).toBeUndefined();
    expect(markers.outro).toBeUndefined();
    near(markers.episodes[0].intro, 2, 14);
    near(markers.episodes[0].outro, 32, 41);
    near(markers.episodes[1].intro, 7.5, 19.5);
    near(markers.episodes[1].outro, 43.5, 52.5);
    expect(markers.episodes[2]).toEqual({});
    expect(markers.episodes[3]).toEqual({});
    expect(found[3]).toBeNull();
  });

  it("the entry keeps the operator's markers: only new episodes that differ get their own", () => {
    const found: FoundMarkers[] = [
      { intro: { start: 10, end: 22 }, outro: null },
      { intro: { start: 10.4, end: 22.3 }, outro: null },
      { intro: { start: 30, end: 42 }, outro: null },
      { intro: { start: 31, end: 43 }, outro: null },
    ];
    const entry = {
      intro: { start: 10, end: 22 },
      episodes: [{}, {}, { intro: { start: 29, end: 41 } }, {}] as Array<{ intro?: { start: number; end: number } }>,
    };
    const written = applySeriesMarkers(entry, seriesMarkers(found, { intro: entry.intro }), new Set([3]));
    expect(written).toBe(1);
    expect(entry.intro).toEqual({ start: 10, end: 22 });
    expect(entry.episodes).toEqual([{}, {}, { intro: { start: 29, end: 41 } }, { intro: { start: 31, end: 43 } }]);
  });
});
