// The streaming contract (docs/streaming.md) checked over a served package, whichever packer made
// it: the CLI's (scripts/media/pack.ts) or the 管理后台's browser packer (client/admin/packer/).
// tests/e2e/admin-video-upload.test.ts runs it over both.
import { expect } from "vitest";
import { parseMasterPlaylist, parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { LADDER } from "../../shared/stream/ladder";
import { parseStoryboardVtt } from "../../shared/stream/storyboard";
import { baseURL } from "./browser";

async function get(path: string): Promise<Uint8Array> {
  const res = await fetch(baseURL() + path);
  expect(res.status, path).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}
const text = async (path: string) => new TextDecoder().decode(await get(path));

/** Top-level MP4 box types in order. */
function boxes(bytes: Uint8Array): string[] {
  const types: string[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = view.getUint32(at);
    types.push(String.fromCharCode(...bytes.subarray(at + 4, at + 8)));
    if (size < 8) break;
    at += size;
  }
  return types;
}

/**
 * `subtitles`: "zh-CN" for the CLI's packers (they write the zh-CN track; a title may list more
 * languages, its 字幕 uploads), "none" for the browser packer (no subtitle group until 字幕 adds one).
 */
export async function expectStreamContract(n: number | string, subtitles: "zh-CN" | "none"): Promise<void> {
  const master = parseMasterPlaylist(await text(`/stream/${n}/master.m3u8`));
  expect(master.independentSegments).toBe(true);
  const heights = master.variants.map((v) => v.height);
  expect(heights, "the ladder's first rungs, lowest first").toEqual(LADDER.slice(0, heights.length).map((r) => r.height));
  if (subtitles === "zh-CN") expect(master.subtitles.map((s) => s.language)).toContain("zh-CN");
  else expect(master.subtitles).toEqual([]);
  let cut: number[] | null = null;
  for (const v of master.variants) {
    const rung = LADDER.find((r) => r.height === v.height)!;
    expect(v.width).toBe(rung.width);
    expect(v.averageBandwidth).toBeGreaterThan(0);
    expect(v.bandwidth).toBeGreaterThan(0);
    expect(v.codecs[0]).toMatch(/^avc1\.[0-9a-f]{6}$/i);
    expect(v.codecs[1]).toMatch(/^mp4a\.40\.\d+$/);
    expect(v.frameRate).toBeGreaterThan(0);
    expect(v.subtitles).toBe(subtitles === "none" ? undefined : "subs");
    const media = parseMediaPlaylist(await text(`/stream/${n}/${v.uri}`));
    expect(media.endList).toBe(true);
    expect(media.map).toMatch(new RegExp(`^${v.height}p-[0-9a-f]{8}-init\\.mp4$`));
    expect(boxes(await get(`/stream/${n}/${media.map}`))).toEqual(expect.arrayContaining(["ftyp", "moov"]));
    const durations = media.segments.map((s) => Math.round(s.duration * 100) / 100);
    durations.slice(0, -1).forEach((d) => expect(Math.abs(d - 2)).toBeLessThan(0.1));
    // Key frames at the same times in every rung: the same cuts.
    if (cut) expect(durations).toEqual(cut);
    cut = durations;
    const first = boxes(await get(`/stream/${n}/${media.segments[0].uri}`));
    expect(first).toContain("moof");
    expect(first).toContain("mdat");
  }
  const cues = parseStoryboardVtt(await text(`/stream/${n}/storyboard.vtt`));
  expect(cues.length).toBeGreaterThan(0);
  const sheet = await get(`/stream/${n}/${cues[0].url}`);
  expect([sheet[0], sheet[1]]).toEqual([0xff, 0xd8]);
  if (subtitles === "zh-CN") expect(await text(`/stream/${n}/subtitles-zh-CN.vtt`)).toMatch(/^WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\d+,LOCAL:00:00:00\.000/);
  const progressive = boxes(await get(`/${n}.mp4`));
  expect(progressive.indexOf("moov"), "the progressive file's index comes first").toBeLessThan(progressive.indexOf("mdat"));
}
