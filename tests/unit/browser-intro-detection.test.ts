// 片头 / 片尾 in the browser packer (docs/decisions/0099-browser-intro-detection.md), its pure half:
// decoded audio at a device's rate (48 kHz stereo, 44.1 kHz mono) in decoder-sized chunks brought
// to the fingerprint's PCM (shared/media/mono-pcm.ts), fingerprints stored and read back, one
// episode matched with its neighbours' (foundWithNeighbours), and what publishing writes into the
// entry (applyEpisodeFound, parseEpisodeFound in shared/media/series-markers.ts).
import { describe, expect, it } from "vitest";
import { fingerprint, FINGERPRINT_RATE } from "../../shared/media/intro-fingerprint";
import { fingerprintBytes, fingerprintFromBytes, MonoDownsampler } from "../../shared/media/mono-pcm";
import { applyEpisodeFound, foundWithNeighbours, parseEpisodeFound } from "../../shared/media/series-markers";
import { concat, music } from "./generated-audio";

/** As tests/unit/intro-detect.test.ts: each episode's own parts change chords off the others' beat. */
const own = (seconds: number, seed: number, rate: number) =>
  concat(music((seed % 7) / 20 + 0.05, seed + 1000, rate), music(seconds - (seed % 7) / 20 - 0.05, seed, rate));

/** An episode's audio as a decoder hands it out: `channels` planes in chunks of 1,024 frames, the first `priming` frames before 0. */
function decoded(pcm: Float32Array, rate: number, channels: number, priming = 0): Float32Array {
  const pcmWithPriming = concat(new Float32Array(priming), pcm);
  const down = new MonoDownsampler(rate, pcm.length / rate);
  for (let at = 0; at < pcmWithPriming.length; at += 1024) {
    const chunk = pcmWithPriming.subarray(at, at + 1024);
    // The channels differ (the mix is what counts): left 1.2 ×, right 0.8 ×.
    const planes = Array.from({ length: channels }, (_, c) => chunk.map((x) => x * (channels === 1 ? 1 : c === 0 ? 1.2 : 0.8)));
    down.push(planes, (at - priming) / rate);
  }
  return down.result();
}

const near = (m: { start: number; end: number } | null | undefined, start: number, end: number) => {
  expect(m, `expected a marker near ${start}–${end}`).toBeTruthy();
  expect(Math.abs(m!.start - start), `start ${m!.start} vs ${start}`).toBeLessThanOrEqual(1);
  expect(Math.abs(m!.end - end), `end ${m!.end} vs ${end}`).toBeLessThanOrEqual(1);
};

describe("the fingerprint's PCM from decoded audio", () => {
  it("48 kHz stereo and 44.1 kHz mono come out mono at the fingerprint's rate, the priming cut", () => {
    const tone = music(2, 5, 48_000);
    const fromStereo = decoded(tone, 48_000, 2, 2112);
    expect(Math.abs(fromStereo.length - 2 * FINGERPRINT_RATE)).toBeLessThanOrEqual(1);
    // The first output sample is the mean of the first 6 input samples (1.2 and 0.8 average to 1).
    const first = tone.subarray(0, 6).reduce((a, b) => a + b, 0) / 6;
    expect(fromStereo[0]).toBeCloseTo(first, 5);
    const fromMono = decoded(music(2, 5, 44_100), 44_100, 1);
    expect(Math.abs(fromMono.length - 2 * FINGERPRINT_RATE)).toBeLessThanOrEqual(1);
  });

  it("a rate below the fingerprint's is refused", () => {
    expect(() => new MonoDownsampler(4000)).toThrow(/below/);
  });

  it("a stored fingerprint reads back the same; bytes that are not one read as null", () => {
    const codes = Uint32Array.from([0, 1, 0xffffffff, 0x80000001]);
    expect([...fingerprintFromBytes(fingerprintBytes(codes))!]).toEqual([...codes]);
    expect(fingerprintFromBytes(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toBeNull();
    expect(fingerprintFromBytes(fingerprintBytes(codes).subarray(0, 7))).toBeNull();
  });
});

describe("one episode at a time, matched with its neighbours", () => {
  const RATE = 48_000;
  const OPENING = music(8, 1, RATE);
  const ENDING = music(6, 2, RATE);
  const episode = (seed: number, coldOpen: number, story: number) =>
    concat(own(coldOpen, seed * 10 + 3, RATE), OPENING, own(story, seed * 10 + 4, RATE), ENDING, own(2, seed * 10 + 5, RATE));
  const print = (pcm: Float32Array) => fingerprint(decoded(pcm, RATE, 2, 2112));

  it("the new episode and its neighbour each find the shared opening and ending, within 1 s; one sharing nothing finds none", () => {
    const first = print(episode(1, 1, 12));
    const second = print(episode(2, 4, 14));
    const other = print(concat(own(14, 71, RATE), own(16, 72, RATE)));
    const found = foundWithNeighbours(2, second, [{ episode: 1, codes: fingerprintFromBytes(fingerprintBytes(first))! }]);
    expect(found.map((f) => f.episode)).toEqual([2, 1]);
    near(found[0].intro, 4, 12);
    near(found[0].outro, 26, 32);
    near(found[1].intro, 1, 9);
    near(found[1].outro, 21, 27);
    expect(foundWithNeighbours(3, other, [{ episode: 2, codes: second }])).toEqual([
      { episode: 3, intro: null, outro: null },
      { episode: 2, intro: null, outro: null },
    ]);
  });
});

describe("what publishing writes into the entry", () => {
  const m = (start: number, end: number) => ({ start, end });

  it("each listed episode gets its own where it has none; the operator's stay", () => {
    const entry = { episodes: [{}, { outro: m(50, 60) }, {}] as Array<{ intro?: { start: number; end: number }; outro?: { start: number; end: number } }> };
    const written = applyEpisodeFound(entry, [
      { episode: 2, intro: m(4, 12), outro: m(26, 32) },
      { episode: 1, intro: m(1, 9), outro: null },
    ]);
    expect(written).toBe(2);
    expect(entry.episodes).toEqual([{ intro: m(1, 9) }, { intro: m(4, 12), outro: m(50, 60) }, {}]);
  });

  it("the title's marker once every episode has the same one (within 1 s)", () => {
    const entry: { intro?: { start: number; end: number }; episodes: Array<Record<string, unknown>> } = { episodes: [{}, {}] };
    applyEpisodeFound(entry, [
      { episode: 2, intro: m(2.4, 10.4), outro: null },
      { episode: 1, intro: m(2, 10), outro: null },
    ]);
    expect(entry.intro).toBeDefined();
    expect(entry.episodes).toEqual([{}, {}]);
  });

  it("a film and an empty list get none", () => {
    const film = {};
    expect(applyEpisodeFound(film, [{ episode: 1, intro: m(1, 9), outro: null }])).toBe(0);
    expect(film).toEqual({});
  });

  it("a publish body's markers: checked, rounded to tenths; anything else is refused", () => {
    expect(parseEpisodeFound(undefined, 2)).toEqual([]);
    expect(parseEpisodeFound([{ episode: 2, intro: { start: 1.04, end: 9.96 }, outro: null }], 2)).toEqual([{ episode: 2, intro: m(1, 10), outro: null }]);
    for (const bad of [
      "x",
      [{ episode: 3, intro: null, outro: null }],
      [{ episode: 1, intro: { start: 9, end: 1 }, outro: null }],
      [{ episode: 1, intro: { start: -1, end: 1 }, outro: null }],
      [{ episode: 1, intro: { start: "1", end: 2 }, outro: null }],
      [
        { episode: 1, intro: null, outro: null },
        { episode: 1, intro: null, outro: null },
      ],
    ]) {
      expect(parseEpisodeFound(bad, 2), JSON.stringify(bad)).toBeNull();
    }
  });
});
