/**
 * Packs a real 4 s 360p placeholder clip with the real ffmpeg and checks what players and the
 * worker will see: names of the contract, the ladder never above the source, the master lowest
 * first with every attribute, CMAF segments behind EXT-X-MAP cut at the same times in every
 * rendition, parseable subtitles and storyboard, a progressive MP4 with its index first.
 */
import { spawnSync } from "node:child_process";
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseMediaPath, videos } from "../../scripts/catalogue/titles";
import { mediaNumberOf, parseStreamPath, streamNames } from "../../shared/stream/contract";
import type { MasterPlaylist } from "../../shared/stream/hls";
import { parseMasterPlaylist, parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { parseStoryboardVtt, storyboardCueAt } from "../../shared/stream/storyboard";
import { parseVtt } from "../../shared/stream/webvtt";
import { childBoxes, firstVideoTime, movieDuration } from "../../scripts/media/mp4-boxes";
import { FFMPEG_PATH } from "../../scripts/media/ffmpeg";
import { joinRendition } from "../../scripts/media/previews";
import { copyPack, pack, packIfNeeded, type PackResult } from "../../scripts/media/pack";
import type { SourceSpec } from "../../scripts/media/source";
import { LADDER } from "../../shared/stream/ladder";
import { placeholderSource } from "../../scripts/media/placeholder";
import { uploadsOf } from "../../scripts/media/seed";
import { catalogueMedia, titleMediaOptions } from "../../scripts/media/titles";
import { STREAM_CONTENT_TYPES } from "../../shared/stream/contract";
import { SHARE_FRAME_WIDTH, shareFrameName } from "../../shared/stream/share-frames";

const SECONDS = 4;
let dir: string;
let out: string;
let result: PackResult;
let master: MasterPlaylist;
const source = placeholderSource(7, { seconds: SECONDS, height: 360, fps: 25 });
const options = () => ({ outDir: out, subtitleLines: ["「测试」", "第一句，", "第二句。"] });
const read = (name: string) => readFile(path.join(out, "stream", name));
const text = async (name: string) => (await read(name)).toString("utf8");

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pack-test-"));
  out = path.join(dir, "7");
  result = await pack(source, options());
  master = parseMasterPlaylist(await text(streamNames.master));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("packing a 4 s 360p clip", () => {
  it("writes only names of the stream contract, and nothing half-written next to the pack", async () => {
    const names = await readdir(path.join(out, "stream"));
    for (const name of names) expect(parseStreamPath(`/stream/7/${name}`), name).not.toBeNull();
    expect(names).toContain("master.m3u8");
    expect(names).toContain("subtitles-zh-CN.vtt");
    expect(names).toContain("storyboard.vtt");
    expect((await readdir(dir)).sort()).toEqual(["7"]);
    expect((await readdir(out)).sort()).toEqual(["cover.webp", "pack.json", "progressive.mp4", "stream"]);
  });

  it("never upscales: a 360p source gets 270p and 360p, listed lowest bandwidth first with every attribute", () => {
    expect(master.variants.map((v) => v.height).sort()).toEqual([270, 360]);
    const bandwidths = master.variants.map((v) => v.bandwidth);
    expect(bandwidths).toEqual([...bandwidths].sort((a, b) => a - b));
    for (const v of master.variants) {
      expect(v.height).toBeLessThanOrEqual(360);
      expect(v.width).toBe((v.height * 16) / 9);
      expect(v.bandwidth).toBeGreaterThan(0);
      expect(v.averageBandwidth).toBeGreaterThan(0);
      expect(v.averageBandwidth!).toBeLessThanOrEqual(v.bandwidth * 1.1);
      expect(v.codecs).toEqual(["avc1.4d401e", "mp4a.40.2"]); // Main profile, level 3.0 as encoded
      expect(v.frameRate).toBe(25);
      expect(v.subtitles).toBe("subs");
      expect(v.uri).toBe(`${v.height}p.m3u8`);
    }
    expect(master.subtitles).toEqual([{ groupId: "subs", name: "中文", language: "zh-CN", isDefault: false, autoselect: true, uri: "subtitles-zh-CN.m3u8" }]);
  });

  it("cuts CMAF segments behind EXT-X-MAP at the same times in every rendition", async () => {
    const cuts: number[][] = [];
    for (const v of master.variants) {
      const playlist = parseMediaPlaylist(await text(v.uri));
      expect(playlist).toMatchObject({ version: 7, playlistType: "VOD", independentSegments: true, endList: true, targetDuration: 2 });
      expect(parseStreamPath(`/stream/7/${playlist.map}`)?.kind).toBe("init");
      const init = await read(playlist.map!);
      expect(childBoxes(init).map((b) => b.type)).toEqual(["ftyp", "moov"]);
      for (const seg of playlist.segments) {
        expect(parseStreamPath(`/stream/7/${seg.uri}`)?.kind).toBe("segment");
        const bytes = await read(seg.uri);
        expect(childBoxes(bytes).map((b) => b.type)).toContain("moof");
        // Each segment opens on a keyframe at its own start time: 0, 2 s, ….
        const i = playlist.segments.indexOf(seg);
        expect(firstVideoTime(init, bytes)).toBeCloseTo(2 * i + firstVideoTime(init, await read(playlist.segments[0].uri)), 2);
        // Never above the advertised peak.
        expect((bytes.length * 8) / seg.duration).toBeLessThanOrEqual(v.bandwidth);
      }
      cuts.push(playlist.segments.map((s) => s.duration));
    }
    expect(cuts[0]).toEqual([2, 2]);
    for (const c of cuts) expect(c).toEqual(cuts[0]);
  });

  it("writes zh-CN subtitles aligned with the media and their one-segment playlist", async () => {
    const vtt = parseVtt(await text(streamNames.subtitles));
    expect(vtt.header[0]).toMatch(/^X-TIMESTAMP-MAP=MPEGTS:[0-9]+,LOCAL:00:00:00\.000$/);
    expect(vtt.cues.map((c) => c.text)).toEqual(["「测试」"]);
    const playlist = parseMediaPlaylist(await text(streamNames.subtitlePlaylist));
    expect(playlist.segments).toEqual([{ duration: SECONDS, uri: "subtitles-zh-CN.vtt" }]);
  });

  it("writes the storyboard: cues every 2 s pointing into a JPEG sheet", async () => {
    const cues = parseStoryboardVtt(await text(streamNames.storyboard));
    expect(cues.map((c) => [c.start, c.x, c.y, c.w, c.h])).toEqual([
      [0, 0, 0, 160, 90],
      [2, 160, 0, 160, 90],
    ]);
    expect(storyboardCueAt(cues, 3.9)?.x).toBe(160);
    const sheet = await read(cues[0].url);
    expect(parseStreamPath(`/stream/7/${cues[0].url}`)?.kind).toBe("sprite");
    expect([sheet[0], sheet[1], sheet[2]]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("writes a 640 px wide JPEG link-preview frame every 10 s (one for 4 s)", async () => {
    const names = (await readdir(path.join(out, "stream"))).filter((n) => n.startsWith("frame-"));
    expect(names).toEqual([shareFrameName(0)]);
    const frame = await read(shareFrameName(0));
    expect([frame[0], frame[1], frame[2]]).toEqual([0xff, 0xd8, 0xff]);
    const sof = frame.findIndex((b, i) => b === 0xff && frame[i + 1] === 0xc0); // baseline JPEG frame header
    expect([frame.readUInt16BE(sof + 7), frame.readUInt16BE(sof + 5)]).toEqual([SHARE_FRAME_WIDTH, 360]);
  });

  it("writes a progressive MP4 with the index first, and a WebP cover", async () => {
    const mp4 = await readFile(path.join(out, "progressive.mp4"));
    const types = childBoxes(mp4).map((b) => b.type);
    expect(types[0]).toBe("ftyp");
    expect(types.indexOf("moov")).toBeGreaterThan(0);
    expect(types.indexOf("moov")).toBeLessThan(types.indexOf("mdat")); // +faststart
    expect(types).not.toContain("moof"); // a plain MP4, not fragmented
    // Exactly the clip's length (the audio never runs past the video): players step seek bars by it.
    expect(movieDuration(mp4)).toBeCloseTo(SECONDS, 3);
    const webp = await readFile(path.join(out, "cover.webp"));
    expect(webp.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(webp.subarray(8, 12).toString("latin1")).toBe("WEBP");
    expect(result.progressive.height).toBe(360);
  });

  it("keeps an unchanged pack and re-packs when a setting changes", async () => {
    const again = await packIfNeeded(source, options());
    expect(again.packed).toBe(false);
    expect(again.result.key).toBe(result.key);
    const other = placeholderSource(7, { seconds: SECONDS, height: 270, fps: 25 });
    const changed = await packIfNeeded(other, options());
    expect(changed.packed).toBe(true);
    expect(changed.result.renditions.map((r) => r.height)).toEqual([270]);
    expect(changed.result.renditions[0].version).not.toBe(result.renditions[0].version);
  }, 60_000);
});

describe("seeding and settings", () => {
  it("uploads every file of a pack under stream/{n}/ with the contract's type, the master last", async () => {
    const uploads = await uploadsOf(7, out);
    const byKey = new Map(uploads.map((u) => [u.key, u]));
    expect(byKey.get("7.mp4")?.contentType).toBe("video/mp4");
    expect(byKey.get("7.webp")?.contentType).toBe("image/webp");
    const names = await readdir(path.join(out, "stream"));
    expect(uploads).toHaveLength(names.length + 2);
    for (const name of names) {
      const parsed = parseStreamPath(`/stream/7/${name}`)!;
      expect(byKey.get(parsed.key)?.contentType).toBe(STREAM_CONTENT_TYPES[parsed.kind]);
    }
    const master = byKey.get("stream/7/master.m3u8")!;
    for (const u of uploads) if (u !== master) expect(u.stage).toBeLessThan(master.stage);
  });

  it("reads sizes from MEDIA_* variables and refuses bad ones", () => {
    expect(titleMediaOptions({})).toMatchObject({ seconds: 12, height: 720, fps: 24, titles: 50, jobs: 2, episode: { seconds: 6, height: 360 } });
    expect(titleMediaOptions({ MEDIA_EPISODE_SECONDS: "8", MEDIA_EPISODE_HEIGHT: "270" })).toMatchObject({ episode: { seconds: 8, height: 270 } });
    expect(() => titleMediaOptions({ MEDIA_EPISODE_HEIGHT: "361" })).toThrow(/MEDIA_EPISODE_HEIGHT/);
    expect(titleMediaOptions({ MEDIA_SECONDS: "60", MEDIA_HEIGHT: "1080", MEDIA_TITLES: "3" })).toMatchObject({ seconds: 60, height: 1080, titles: 3 });
    expect(() => titleMediaOptions({ MEDIA_SECONDS: "abc" })).toThrow(/MEDIA_SECONDS/);
    expect(() => titleMediaOptions({ MEDIA_HEIGHT: "721" })).toThrow(/MEDIA_HEIGHT/);
    expect(() => titleMediaOptions({ MEDIA_TITLES: "51" })).toThrow(/MEDIA_TITLES/);
  });

  it("MEDIA_SHARED=1 (the e2e site's media) copies packs; anything else is refused", () => {
    expect(titleMediaOptions({}).shared).toBe(false);
    expect(titleMediaOptions({ MEDIA_SHARED: "1" }).shared).toBe(true);
    expect(() => titleMediaOptions({ MEDIA_SHARED: "yes" })).toThrow(/MEDIA_SHARED/);
  });

  it("copies a finished pack to another media number whole, keeps a copy already there, and refuses an unfinished one", async () => {
    const copy = path.join(dir, "copy-8");
    // What `out` holds now (the test above re-packed it with other settings).
    const { key } = JSON.parse(await readFile(path.join(out, "pack.json"), "utf8")) as PackResult;
    expect((await copyPack(out, copy)).key).toBe(key);
    const files = async (root: string) => (await readdir(root, { recursive: true })).sort();
    expect(await files(copy)).toEqual(await files(out));
    expect(await readFile(path.join(copy, "stream", streamNames.master), "utf8")).toBe(await text(streamNames.master));
    const before = (await stat(path.join(copy, "pack.json"))).mtimeMs;
    await copyPack(out, copy);
    expect((await stat(path.join(copy, "pack.json"))).mtimeMs).toBe(before);
    // A stale copy (another key) is replaced.
    await writeFile(path.join(copy, "pack.json"), JSON.stringify({ ...result, key: "stale" }));
    expect((await copyPack(out, copy)).key).toBe(key);
    expect(JSON.parse(await readFile(path.join(copy, "pack.json"), "utf8"))).toMatchObject({ key });
    await expect(copyPack(path.join(dir, "missing"), path.join(dir, "copy-9"))).rejects.toThrow(/no finished pack/);
    expect((await readdir(dir)).filter((n) => /\.(tmp|old)-/.test(n))).toEqual([]);
    await rm(copy, { recursive: true });
  });

  it("subtitles every catalogue title with its own name and description", () => {
    const titles = catalogueMedia(50).filter((t) => t.episode === 1);
    expect(titles.map((t) => t.n)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(titles[0].lines[0]).toBe("「雾港来信」");
  });

  it("draws an episode's label (digits and a dash) instead of its media number, and refuses other labels", () => {
    const options = { seconds: 6, height: 360, fps: 24 };
    const plain = placeholderSource(10302, options);
    const labelled = placeholderSource(10302, { ...options, label: "3-2" });
    expect(labelled.identity).not.toBe(plain.identity);
    // "3-2" is 3 glyphs: fewer segment boxes than the 5 digits of 10302.
    const boxes = (s: string) => s.split("drawbox").length;
    expect(boxes(labelled.identity)).toBeLessThan(boxes(plain.identity));
    expect(placeholderSource(7, { ...options, label: "7" }).identity).toBe(placeholderSource(7, options).identity);
    expect(() => placeholderSource(1, { ...options, label: "第2集" })).toThrow(/digits/);
  });

  it("packs every episode the catalogue references, labelled title-episode, and MEDIA_TITLES limits titles with their episodes", () => {
    const all = catalogueMedia(50);
    const referenced = videos
      .flatMap((v) => [v.videoFile, ...(v.episodes ?? []).map((e) => e.videoFile)])
      .map((f) => Number(mediaNumberOf(normaliseMediaPath(f))));
    expect(all.map((t) => t.n).sort((a, b) => a - b)).toEqual([...new Set(referenced)].sort((a, b) => a - b));
    const second = all.find((t) => t.n === 10302)!;
    expect(second).toMatchObject({ id: "video_003", episode: 2, label: "3-2" });
    expect(second.lines[0]).toBe("「槐树巷的春天 第2集」");
    expect(all.find((t) => t.n === 3)).toMatchObject({ episode: 1, label: "3" });
    // Title 3 is a series of 6: the first three titles bring 3 + 5 media numbers.
    expect(catalogueMedia(3).map((t) => t.n)).toEqual([1, 2, 3, 10302, 10303, 10304, 10305, 10306]);
  });
});

describe("the start rung's light start", () => {
  // Grain on every frame at 270p: the encoder spends its whole cap on every segment, as on a film's busy scenes.
  const seconds = 8;
  const grain: SourceSpec = {
    inputs: [
      "-f",
      "lavfi",
      "-i",
      `color=c=0x406080:s=480x270:r=25:d=${seconds},noise=alls=60:allf=t+u,format=yuv420p`,
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
    ],
    video: "0:v",
    audio: "1:a",
    width: 480,
    height: 270,
    fps: 25,
    duration: seconds,
    identity: `grain-v1:${seconds}`,
  };
  const start = LADDER[0];
  const light = start.lightStart!;
  let grainDir: string;
  let packed: PackResult;

  beforeAll(async () => {
    grainDir = await mkdtemp(path.join(tmpdir(), "pack-light-"));
    packed = await pack(grain, { outDir: path.join(grainDir, "9"), subtitleLines: ["「测试」"] });
  }, 60_000);

  afterAll(async () => {
    await rm(grainDir, { recursive: true, force: true });
  });

  it("encodes segments 1 and 2 at the light cap and the rest at the rung's own, and the rung's init segment decodes them all", async () => {
    expect(light.segments).toEqual([1, 2]);
    const [rendition] = packed.renditions;
    expect(rendition.height).toBe(start.height);
    const stream = path.join(grainDir, "9", "stream");
    const playlist = parseMediaPlaylist(await readFile(path.join(stream, streamNames.mediaPlaylist(start.height)), "utf8"));
    expect(playlist.segments.map((s) => s.duration)).toEqual([2, 2, 2, 2]);
    const kbps = await Promise.all(playlist.segments.map(async (s) => ((await stat(path.join(stream, s.uri))).size * 8) / s.duration / 1000));
    // Video at its cap plus the 48 kbit/s audio and the container (a few per cent).
    for (const i of light.segments) expect(kbps[i], `segment ${i}`).toBeLessThan((light.maxrateKbps + start.audioKbps) * 1.12);
    for (const i of [0, 3]) expect(kbps[i], `segment ${i}`).toBeGreaterThan((light.maxrateKbps + start.audioKbps) * 1.3);
    // The rung's own segments stay within its cap: the peak its master advertises is theirs.
    expect(rendition.bandwidth / 1000).toBeLessThan((start.maxrateKbps + start.audioKbps) * 1.15);
    expect(rendition.bandwidth / 1000).toBeCloseTo(Math.max(...kbps), -1);
    const joined = await joinRendition(stream, start.height, rendition.version, playlist.segments.length, path.join(grainDir, "joined.mp4"));
    const decode = spawnSync(FFMPEG_PATH, ["-v", "error", "-i", joined, "-f", "null", "-"], { encoding: "utf8" });
    expect(decode.status).toBe(0);
    expect(decode.stderr).toBe("");
    // Every frame of the 8 s, none lost at the joins.
    const frames = spawnSync(FFMPEG_PATH, ["-i", joined, "-map", "0:v", "-f", "null", "-"], { encoding: "utf8" });
    expect(frames.stderr).toMatch(new RegExp(`frame= *${seconds * 25} `));
    // Its audio runs on without a gap or an overlap where the light segments meet the rung's own (an overlap stalled Chromium).
    const input = new Input({ source: new BufferSource(new Uint8Array(await readFile(joined))), formats: ALL_FORMATS });
    const audio = await input.getPrimaryAudioTrack();
    let end: number | null = null;
    let packets = 0;
    for await (const packet of new EncodedPacketSink(audio!).packets()) {
      if (end !== null) expect(packet.timestamp, `audio packet ${packets}`).toBeCloseTo(end, 3);
      end = packet.timestamp + packet.duration;
      packets++;
    }
    expect(end).toBeGreaterThan(seconds - 0.1);
    // No light-start file left beside the contract's names.
    for (const name of await readdir(stream)) expect(parseStreamPath(`/stream/9/${name}`), name).not.toBeNull();
  });
});
