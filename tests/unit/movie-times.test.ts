import { BufferTarget, EncodedAudioPacketSource, EncodedPacket, EncodedVideoPacketSource, Mp4OutputFormat, NullTarget, Output } from "mediabunny";
import { afterEach, describe, expect, it, vi } from "vitest";
import { childBoxes } from "../../scripts/media/mp4-boxes";
import { withoutMovieTimes } from "../../shared/stream/movie-times";

/**
 * The browser packer's init segments and progressive file (client/admin/packer/pack.ts) are muxed
 * by mediabunny, which stamps them with the time the muxer started: two runs over the same file a
 * second apart made different init segments, and 继续上传 sent everything again (decision 0102).
 * These are mediabunny's own outputs, made here as the packer makes them, with the clock moved.
 */

/** An avcC of the CLI's 270p rung (Main 3.0: SPS and PPS as x264 writes them). */
const AVCC = Uint8Array.from(Buffer.from("014d401effe10019674d401eeca0f047f580880000030008000003018078b16cb001000468efbc80", "hex"));
const ASC = Uint8Array.of(0x11, 0x90);

const videoMeta = { decoderConfig: { codec: "avc1.4d401e", codedWidth: 480, codedHeight: 270, description: AVCC } };
const audioMeta = { decoderConfig: { codec: "mp4a.40.2", numberOfChannels: 2, sampleRate: 48000, description: ASC } };

/** Two seconds of video with a key frame a second, and AAC packets, muxed at the given wall-clock time. */
async function mux(at: Date, fragmented: boolean): Promise<Uint8Array> {
  vi.setSystemTime(at);
  let init = new Uint8Array(0);
  const target = new BufferTarget();
  const format = fragmented
    ? new Mp4OutputFormat({
        fastStart: "fragmented",
        onFtyp: (data) => (init = data.slice()),
        onMoov: (data) => (init = Uint8Array.from([...init, ...data])),
      })
    : new Mp4OutputFormat({ fastStart: "in-memory" });
  const output = new Output({ format, target: fragmented ? new NullTarget() : target });
  const video = new EncodedVideoPacketSource("avc");
  const audio = new EncodedAudioPacketSource("aac");
  output.addVideoTrack(video, { frameRate: 25 });
  output.addAudioTrack(audio);
  await output.start();
  for (let i = 0; i < 50; i++) {
    await video.add(
      new EncodedPacket(Uint8Array.of(0, 0, 0, 2, i % 25 === 0 ? 0x65 : 0x41, i), i % 25 === 0 ? "key" : "delta", i / 25, 1 / 25),
      i === 0 ? videoMeta : undefined,
    );
  }
  for (let i = 0; i < 90; i++)
    await audio.add(new EncodedPacket(Uint8Array.of(0x21, i), "key", (i * 1024) / 48000, 1024 / 48000), i === 0 ? audioMeta : undefined);
  video.close();
  audio.close();
  await output.finalize();
  return fragmented ? init : new Uint8Array(target.buffer!);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("withoutMovieTimes", () => {
  it("makes the init segments of two runs a second apart the same bytes, with every time 0 as the CLI's", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = await mux(new Date("2026-11-27T10:00:00Z"), true);
    const second = await mux(new Date("2026-11-27T10:00:01Z"), true);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    const a = withoutMovieTimes(first.slice());
    expect(Buffer.from(a).equals(Buffer.from(withoutMovieTimes(second.slice())))).toBe(true);
    expect(a.length).toBe(first.length);
    // Only the times changed: mvhd, two tkhd and two mdhd, version 0 (two 32-bit fields each).
    const differing = [...first].flatMap((b, i) => (b === a[i] ? [] : [i]));
    expect(differing.length).toBeGreaterThan(0);
    const stamped = stampedFields(a);
    expect(stamped).toHaveLength(5);
    for (const i of differing) expect(stamped.some(([start, end]) => i >= start && i < end)).toBe(true);
    for (const [start, end] of stamped) expect([...a.subarray(start, end)].every((b) => b === 0)).toBe(true);
  });

  it("does the same in a progressive file with its index first, leaving the media as it was", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = await mux(new Date("2026-11-27T10:00:00Z"), false);
    const second = await mux(new Date("2026-11-27T10:00:07Z"), false);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(Buffer.from(withoutMovieTimes(first)).equals(Buffer.from(withoutMovieTimes(second)))).toBe(true);
    expect(childBoxes(first).map((b) => b.type)).toEqual(["ftyp", "moov", "mdat"]);
  });

  it("refuses bytes that are not a movie", () => {
    expect(() => withoutMovieTimes(Uint8Array.of(0, 0, 0, 8, 0x6d, 0x64, 0x61, 0x74))).toThrow(/not an MP4 movie/);
    expect(() => withoutMovieTimes(Uint8Array.of(0, 0, 0, 99, 0x6d, 0x6f, 0x6f, 0x76))).toThrow(/overruns/);
  });
});

/** [start, end) of the creation and modification times of every mvhd, tkhd and mdhd. */
function stampedFields(movie: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const walk = (start: number, end: number) => {
    for (const box of childBoxes(movie, start, end)) {
      if (["moov", "trak", "mdia"].includes(box.type)) walk(box.start, box.end);
      if (["mvhd", "tkhd", "mdhd"].includes(box.type)) out.push([box.start + 4, box.start + 4 + (movie[box.start] === 1 ? 16 : 8)]);
    }
  };
  walk(0, movie.length);
  return out;
}
