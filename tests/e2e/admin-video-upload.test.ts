import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import type { BrowserContext, Page, Request } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../../scripts/media/ffmpeg";
import { parseMasterPlaylist, parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { LADDER } from "../../shared/stream/ladder";
import { enrolledAdmin } from "./admin-pages";
import { expectStreamContract } from "./package-contract";
import { baseURL, browserForFile, media, newPage, open, waitPlaying } from "./browser";
import { runTag } from "./visitors";

/**
 * 上传视频 in Chromium against `wrangler dev` (docs/admin.md, decisions 0080–0082): an admin
 * chooses a small clip made here with ffmpeg on a title's edit page, sees what it holds, packs and
 * uploads it in the browser, and the title plays it with its 清晰度 menu; a page reloaded in the
 * middle offers 继续上传 and sends only what is missing; audio that is not AAC is encoded to AAC and a
 * file without audio gets silent AAC, as the CLI makes (decision 0082); a file the browser cannot
 * decode is refused in Chinese, naming the codec and the command line.
 */

const browser = browserForFile();
const CLIPS = path.resolve(import.meta.dirname, "../../test-output/upload-clips");
const run = promisify(execFile);

const H264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"];

/** A clip of `seconds` at 640×360 25 fps with AAC (or, with `videoArgs` / `audioArgs`, other codecs). */
async function clip(name: string, seconds: number, videoArgs: string[] = H264, audioArgs: string[] = ["-c:a", "aac", "-b:a", "96k"]): Promise<string> {
  const file = path.join(CLIPS, name);
  await run(FFMPEG_PATH, [
    "-y",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=640x360:rate=25:duration=${seconds}`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
    ...videoArgs,
    ...audioArgs,
    "-shortest",
    file,
  ]);
  return file;
}

let context: BrowserContext;

beforeAll(async () => {
  await mkdir(CLIPS, { recursive: true });
  ({ context } = await enrolledAdmin(browser()));
}, 60_000);

/** A new film with a unique id; its edit page. */
async function newFilm(tag: string): Promise<{ id: string; page: Page }> {
  const number = 9500 + Math.floor(Math.random() * 400);
  const id = `video_${number}${Math.floor(Math.random() * 90 + 10)}`;
  const entry = {
    id,
    title: `上传测试${tag}${runTag}`,
    description: "浏览器打包上传的测试影片。",
    category: ["电影"],
    tags: [],
    year: 2025,
    rating: 0,
    duration: "00:10",
    coverImage: `${number}.webp`,
    videoFile: `${number}.mp4`,
    // A draft until its media is there: the other test files' pages (home, listings) must not show a title without a cover.
    state: "draft",
  };
  const res = await context.request.post(`${baseURL()}/api/admin/titles`, { headers: { Origin: baseURL() }, data: { entry } });
  expect(res.status(), await res.text()).toBe(200);
  // newPage: a failing test names the page's requests still open (a reload here once waited 30 s for its load).
  const { page } = await newPage(context);
  await page.goto(`${baseURL()}/admin/titles/${id}`);
  await page.getByRole("heading", { name: "上传视频" }).waitFor();
  return { id, page };
}

const status = (page: Page) => page.locator("[data-upload-status]");

/**
 * Chooses `file` on a new film's edit page, waits for the probe's line on the audio (`audioAction`),
 * packs and uploads it until 已发布 and publishes the film: its id, media number and upload id.
 */
async function uploadAndPublish(file: string, tag: string, audioAction: string): Promise<{ id: string; n: string; uploadId: string }> {
  const { id, page } = await newFilm(tag);
  let uploadId = "";
  const seeUpload = (request: Request) => {
    uploadId ||= /\/api\/admin\/uploads\/([^/?]+)\/objects\//.exec(request.url())?.[1] ?? "";
  };
  context.on("request", seeUpload);
  await page.setInputFiles("#video-upload-file", file);
  await page.getByText(audioAction).waitFor({ timeout: 180_000 });
  await page.getByRole("button", { name: "开始上传" }).click();
  await expect.poll(() => status(page).textContent(), { timeout: 240_000, interval: 500 }).toMatch(/已发布|失败|无法|错误|中断/);
  expect(await status(page).textContent()).toMatch(/^已发布/);
  context.off("request", seeUpload);
  await page.close();
  const published = await context.request.post(`${baseURL()}/api/admin/titles/bulk`, {
    headers: { Origin: baseURL() },
    data: { action: "publish", ids: [id] },
  });
  expect(published.status(), await published.text()).toBe(200);
  const { entry } = (await (await context.request.get(`${baseURL()}/api/admin/titles/${id}`)).json()) as { entry: { videoFile: string } };
  return { id, n: entry.videoFile.replace(/^\/|\.mp4$/g, ""), uploadId };
}

/** Every rung's CODECS says AAC-LC, and the progressive file's audio is AAC-LC stereo 48 kHz lasting as long as its video, as the CLI makes. */
async function expectCliAudio(n: string): Promise<void> {
  const master = parseMasterPlaylist(await (await context.request.get(`${baseURL()}/stream/${n}/master.m3u8`)).text());
  expect(master.variants.map((v) => v.codecs[1])).toEqual(master.variants.map(() => "mp4a.40.2"));
  const bytes = await (await context.request.get(`${baseURL()}/${n}.mp4`)).body();
  const input = new Input({ source: new BufferSource(new Uint8Array(bytes)), formats: ALL_FORMATS });
  const audio = await input.getPrimaryAudioTrack();
  const video = await input.getPrimaryVideoTrack();
  expect(audio?.codec).toBe("aac");
  expect(await audio?.getCodecParameterString()).toBe("mp4a.40.2");
  expect([audio?.numberOfChannels, audio?.sampleRate]).toEqual([2, 48000]);
  const [audioSeconds, videoSeconds] = [await audio!.computeDuration(), await video!.computeDuration()];
  expect(Math.abs(audioSeconds - videoSeconds), `audio ${audioSeconds} s, video ${videoSeconds} s`).toBeLessThan(0.1);
}

/** The audio packets of an MP4 (plain or init + fragments): their times. */
async function audioPackets(file: Uint8Array): Promise<Array<{ timestamp: number; duration: number }>> {
  const track = await new Input({ source: new BufferSource(file), formats: ALL_FORMATS }).getPrimaryAudioTrack();
  const packets: Array<{ timestamp: number; duration: number }> = [];
  for await (const packet of new EncodedPacketSink(track!).packets()) packets.push({ timestamp: packet.timestamp, duration: packet.duration });
  return packets;
}

/**
 * The start rung's audio, its init segment and every segment joined, runs on without a gap or an overlap — where
 * the light start's segments meet the rung's own too (an overlap there stalled Chromium): how many packets.
 */
async function expectStartRungAudioContinuous(n: string): Promise<number> {
  const media = parseMediaPlaylist(await (await context.request.get(`${baseURL()}/stream/${n}/${LADDER[0].height}p.m3u8`)).text());
  const files = [media.map!, ...media.segments.map((s) => s.uri)];
  const bytes = await Promise.all(files.map(async (name) => (await context.request.get(`${baseURL()}/stream/${n}/${name}`)).body()));
  const packets = await audioPackets(new Uint8Array(Buffer.concat(bytes)));
  for (const [k, packet] of packets.entries()) {
    if (k > 0) expect(packet.timestamp, `audio packet ${k}`).toBeCloseTo(packets[k - 1].timestamp + packets[k - 1].duration, 3);
  }
  return packets.length;
}

/** The film plays in the site's player with its audio decoded (muted or not, the element decodes it). */
async function expectPlaysWithSound(id: string): Promise<void> {
  const viewer = await browser().newContext();
  const { page: watch } = await open(viewer, `/video/${id}`);
  await waitPlaying(watch, 0.5);
  await expect
    .poll(() => media(watch, (v) => (v as HTMLVideoElement & { webkitAudioDecodedByteCount: number }).webkitAudioDecodedByteCount), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await viewer.close();
}

describe("上传视频", () => {
  it("packs a clip in the browser, publishes it, and the title plays it with its 清晰度 menu", async () => {
    const file = await clip("film.mp4", 5);
    const { id, page } = await newFilm("播放");
    await page.setInputFiles("#video-upload-file", file);
    await page.getByText("将生成：270p、360p").waitFor({ timeout: 180_000 });
    await page.getByText("视频 avc1").waitFor();
    await page.getByRole("button", { name: "开始上传" }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 240_000, interval: 500 }).toMatch(/已发布|失败|无法|错误|中断/);
    expect(await status(page).textContent()).toMatch(/^已发布/);
    const published = await context.request.post(`${baseURL()}/api/admin/titles/bulk`, {
      headers: { Origin: baseURL() },
      data: { action: "publish", ids: [id] },
    });
    expect(published.status(), await published.text()).toBe(200);

    const edit = await context.request.get(`${baseURL()}/api/admin/titles/${id}`);
    const { entry } = (await edit.json()) as { entry: { videoFile: string; coverImage: string; duration: string; subtitles?: string[] } };
    const n = entry.videoFile.replace(/^\/|\.mp4$/g, "");
    expect(Number(n)).toBeGreaterThanOrEqual(200000);
    expect(entry.coverImage.replace(/^\//, "")).toBe(`${n}.webp`);
    expect(entry.duration).toBe("00:05");
    // No subtitles were uploaded with it: the page lists no track (字幕 adds them later).
    expect(entry.subtitles).toEqual([]);
    const master = parseMasterPlaylist(await (await context.request.get(`${baseURL()}/stream/${n}/master.m3u8`)).text());
    expect(master.variants.map((v) => v.height)).toEqual([270, 360]);
    for (const v of master.variants) {
      expect(v.codecs[0]).toMatch(/^avc1\./);
      expect(v.codecs[1]).toBe("mp4a.40.2");
      const media = parseMediaPlaylist(await (await context.request.get(`${baseURL()}/stream/${n}/${v.uri}`)).text());
      expect(media.segments.map((s) => Math.round(s.duration))).toEqual([2, 2, 1]);
      if (v.height !== LADDER[0].height) continue;
      // The light start (shared/stream/ladder.ts): segments 1 and 2 at the light cap, segment 0 at the rung's own
      // (the browser's encoder spends its target bitrate even on this simple picture),
      // all decoded by the rung's init segment (every frame of the 5 s, none lost at the joins).
      const files = [media.map!, ...media.segments.map((s) => s.uri)];
      const bytes = await Promise.all(files.map(async (name) => (await context.request.get(`${baseURL()}/stream/${n}/${name}`)).body()));
      const kbps = media.segments.map((s, i) => (bytes[i + 1].length * 8) / s.duration / 1000);
      const light = LADDER[0].lightStart!;
      // The clip's own AAC (96 kbit/s) is copied into every rung.
      const lightKbps = light.maxrateKbps + 96;
      for (const i of light.segments) expect(kbps[i], `segment ${i}: ${kbps.join(", ")}`).toBeLessThan(lightKbps * 1.15);
      expect(kbps[0], kbps.join(", ")).toBeGreaterThan(lightKbps * 1.3);
      const joined = path.join(CLIPS, `joined-${n}.mp4`);
      await writeFile(joined, Buffer.concat(bytes));
      const { stderr } = await run(FFMPEG_PATH, ["-i", joined, "-map", "0:v", "-f", "null", "-"]);
      expect(stderr).toMatch(/frame= *125 /);
      await run(FFMPEG_PATH, ["-v", "error", "-xerror", "-i", joined, "-f", "null", "-"]);
      // The same audio as every other file of the package: the light segments hold what the rung's own held, as many packets as the MP4's.
      const rungAudio = await expectStartRungAudioContinuous(n);
      const progressive = new Uint8Array(await (await context.request.get(`${baseURL()}/${n}.mp4`)).body());
      expect(rungAudio).toBe((await audioPackets(progressive)).length);
    }
    expect((await context.request.get(`${baseURL()}/${n}.mp4`)).status()).toBe(200);
    // The same contract checks pass on this package and on one the CLI packed (media 1 of the e2e site).
    await expectStreamContract(n, "none");
    await expectStreamContract(1, "zh-CN");

    const viewer = await browser().newContext();
    const { page: watch } = await open(viewer, `/video/${id}`);
    await waitPlaying(watch, 0.5);
    const quality = watch.locator(".player-quality .player-menu-button");
    await quality.click();
    const items = await watch.$$eval(".player-quality .player-menu-list button", (bs) => bs.map((b) => b.textContent ?? ""));
    expect(items.slice(0, -1).map((t) => Number.parseInt(t, 10))).toEqual([360, 270]);
    await viewer.close();
  }, 300_000);

  it("a page reloaded mid-upload offers 继续上传 and sends again less than 5 % of the package", async () => {
    // Opus: its AAC is encoded here, and the second run must make the same bytes for the stored segments to count.
    const file = await clip("resume.mkv", 24, H264, ["-c:a", "libopus", "-b:a", "64k"]);
    const { id, page } = await newFilm("续传");
    // Every upload request's body, in order (the packer runs in the page's Web Worker: its requests are the context's too).
    const puts: number[] = [];
    const count = (request: Request) => {
      if (request.method() === "PUT" && request.url().includes("/api/admin/uploads/")) puts.push(request.postDataBuffer()?.length ?? 0);
    };
    context.on("request", count);
    await page.setInputFiles("#video-upload-file", file);
    await page.getByRole("button", { name: "开始上传" }).click();
    await expect
      .poll(async () => Number(/已上传 (\d+) 个文件/.exec((await status(page).textContent()) ?? "")?.[1] ?? 0), { timeout: 240_000, interval: 200 })
      .toBeGreaterThanOrEqual(12);
    await page.reload();
    const list = (await (await context.request.get(`${baseURL()}/api/admin/uploads?title=${id}`)).json()) as { uploads: Array<{ id: string }> };
    const uploadId = list.uploads[0].id;
    const held = async () =>
      ((await (await context.request.get(`${baseURL()}/api/admin/uploads/${uploadId}`)).json()) as { objects: Array<{ name: string; size: number }> }).objects;
    const heldAtReload = (await held()).reduce((n, o) => n + o.size, 0);
    const sentBefore = puts.length;
    await page.getByRole("button", { name: "继续上传" }).first().click();
    await page.setInputFiles("#video-upload-file", file);
    await page.getByRole("button", { name: "继续上传" }).last().waitFor();
    await page.locator("[data-upload-details] button", { hasText: "继续上传" }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 240_000, interval: 500 }).toMatch(/已发布|失败|无法|错误|中断/);
    const done = (await status(page).textContent()) ?? "";
    expect(done).toMatch(/^已发布/);
    context.off("request", count);
    // The package as published (objects of an earlier run that nothing references are dropped at publishing).
    const after = await held();
    const total = after.reduce((n, o) => n + o.size, 0);
    const sentAfter = puts.slice(sentBefore).reduce((n, bytes) => n + bytes, 0);
    // What the resume sent beyond what the server lacked at the reload (as npm run bench:upload counts it).
    const again = sentAfter - (total - heldAtReload);
    expect(heldAtReload).toBeGreaterThan(0);
    expect(again / total, `sent again ${again} of ${total} bytes (${heldAtReload} held at the reload, ${sentAfter} sent after it)`).toBeLessThan(0.05);
    // 24 s of encoded audio: the light start's segments meet the rung's own at 6 s (the stream is served once the film is published).
    const published = await context.request.post(`${baseURL()}/api/admin/titles/bulk`, {
      headers: { Origin: baseURL() },
      data: { action: "publish", ids: [id] },
    });
    expect(published.status(), await published.text()).toBe(200);
    const { entry } = (await (await context.request.get(`${baseURL()}/api/admin/titles/${id}`)).json()) as { entry: { videoFile: string } };
    expect(await expectStartRungAudioContinuous(entry.videoFile.replace(/^\/|\.mp4$/g, ""))).toBeGreaterThan(24 * 46);
    // A draft again: the other test files' pages (related titles, the next video) expect the catalogue's titles.
    const drafted = await context.request.post(`${baseURL()}/api/admin/titles/bulk`, { headers: { Origin: baseURL() }, data: { action: "draft", ids: [id] } });
    expect(drafted.status(), await drafted.text()).toBe(200);
  }, 400_000);

  it("a file this browser cannot decode is refused in Chinese, naming the codec and the command line", async () => {
    const file = await clip("mpeg4.mkv", 2, ["-c:v", "mpeg4"]);
    const { page } = await newFilm("不支持");
    await page.setInputFiles("#video-upload-file", file);
    await expect.poll(() => status(page).textContent(), { timeout: 100_000 }).toMatch(/无法/);
    const text = (await status(page).textContent()) ?? "";
    expect(text).toMatch(/此浏览器无法解码这个文件的视频编码 \S+/);
    expect(text).toContain("npm run catalogue -- add");
    expect(await page.getByRole("button", { name: "开始上传" }).count()).toBe(0);
  }, 120_000);

  it("audio that is not AAC (mono Opus) is encoded to AAC-LC stereo 48 kHz: the film publishes and plays with sound (decision 0082)", async () => {
    const file = await clip("opus.mkv", 3, H264, ["-c:a", "libopus", "-b:a", "64k", "-ac", "1"]);
    const { id, n } = await uploadAndPublish(file, "音频", "Opus → AAC 重新编码（48/96 kbit/s）");
    await expectCliAudio(n);
    await expectStreamContract(n, "none");
    await expectPlaysWithSound(id);
  }, 300_000);

  it("an encoded audio track is the same bytes when the same file is packed again (继续上传 reuses stored segments by name, decision 0102)", async () => {
    const file = await clip("opus-twice.mkv", 3, H264, ["-c:a", "libopus", "-b:a", "64k"]);
    const runs = [await uploadAndPublish(file, "重打1", "Opus → AAC 重新编码"), await uploadAndPublish(file, "重打2", "Opus → AAC 重新编码")];
    // Each run's segments, init segments and progressive file by name without the upload's version: name → SHA-256.
    const packages = await Promise.all(
      runs.map(async ({ uploadId }) => {
        expect(uploadId).not.toBe("");
        const { objects } = (await (await context.request.get(`${baseURL()}/api/admin/uploads/${uploadId}`)).json()) as {
          objects: Array<{ name: string; sha256: string }>;
        };
        const kept = objects.filter((o) => /\.m4s$|-init\.mp4$|^video\.mp4$/.test(o.name));
        return Object.fromEntries(kept.map((o) => [o.name.replace(/-[0-9a-f]{8}-/, "-"), o.sha256]));
      }),
    );
    expect(Object.keys(packages[0]).length).toBeGreaterThan(4);
    expect(packages[1]).toEqual(packages[0]);
  }, 300_000);

  it("a file without audio gets silent AAC, as the CLI adds: it publishes with an AAC track (decision 0082)", async () => {
    const file = await clip("silent.mp4", 3, H264, ["-an"]);
    const { id, n } = await uploadAndPublish(file, "无声", "无音轨 → 静音 AAC（48/96 kbit/s）");
    await expectCliAudio(n);
    await expectStreamContract(n, "none");
    await expectPlaysWithSound(id);
  }, 300_000);

  it("audio this browser cannot decode (AC-3) is refused in Chinese, naming the codec and how to go on (decision 0082)", async () => {
    const file = await clip("ac3.mkv", 2, H264, ["-c:a", "ac3", "-b:a", "192k"]);
    const { page } = await newFilm("音频");
    await page.setInputFiles("#video-upload-file", file);
    await expect.poll(() => status(page).textContent(), { timeout: 100_000 }).toMatch(/AAC/);
    const text = (await status(page).textContent()) ?? "";
    expect(text).toMatch(/^这个文件的音频是 AC-3（杜比数字）\S*；此浏览器无法解码这种音频/);
    expect(text).toContain("-c:a aac");
    expect(text).toContain("npm run catalogue -- add");
    expect(await page.getByRole("button", { name: "开始上传" }).count()).toBe(0);
  }, 120_000);
});
