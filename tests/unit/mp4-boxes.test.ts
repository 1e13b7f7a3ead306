import { describe, expect, it } from "vitest";
import { childBoxes, findBoxes, readAvcConfig } from "../../scripts/media/mp4-boxes";

/** An MP4 box: 32-bit size, type, payload. */
function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const size = 8 + payload.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, size);
  out.set(new TextEncoder().encode(type), 4);
  let at = 8;
  for (const p of payload) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe("MP4 boxes", () => {
  it("walks nested boxes and finds the avcC inside the sample entry", () => {
    const avcC = box("avcC", Uint8Array.of(1, 0x64, 0x00, 0x1f, 0xff));
    const avc1 = box("avc1", new Uint8Array(78), avcC);
    const stsd = box("stsd", new Uint8Array(8), avc1);
    const file = new Uint8Array([...box("ftyp", new Uint8Array(8)), ...box("moov", box("trak", box("mdia", box("minf", box("stbl", stsd)))))]);
    expect(childBoxes(file).map((b) => b.type)).toEqual(["ftyp", "moov"]);
    expect(findBoxes(file, "avcC")).toHaveLength(1);
    expect(readAvcConfig(file)).toEqual({ profile: 0x64, compatibility: 0, level: 0x1f });
  });

  it("says what is wrong with files that are not what they should be", () => {
    const truncated = box("moov", new Uint8Array(16)).subarray(0, 12);
    expect(() => childBoxes(truncated)).toThrow(/overruns/);
    expect(() => readAvcConfig(box("ftyp", new Uint8Array(8)))).toThrow(/no avcC/);
  });
});
