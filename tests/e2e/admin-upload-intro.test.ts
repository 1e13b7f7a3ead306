import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../../scripts/media/ffmpeg";
import { concat, music, wavBytes } from "../unit/generated-audio";
import { enrolledAdmin } from "./admin-pages";
import { baseURL, browserForFile } from "./browser";
import { runTag } from "./visitors";

/**
 * 上传视频 of a series (decisions 0099 and 0103): two tiny generated episodes sharing a 7 s opening
 * at different places are packed and uploaded one after the other through /admin; the second's
 * upload matches its audio with the first's stored fingerprint, and both episodes get their 片头
 * (within 1 s) and no 片尾 (their endings differ), shown in 片头 / 片尾 for the operator to correct.
 * The title's share image of a moment is then a frame the browser packed.
 */

const browser = browserForFile();
const CLIPS = path.resolve(import.meta.dirname, "../../test-output/upload-clips");
const run = promisify(execFile);
const RATE = 48_000;
const OPENING = music(7, 11, RATE);
/** As tests/unit/intro-detect.test.ts: an episode's own parts change chords off the opening's beat. */
const own = (seconds: number, seed: number) => concat(music((seed % 7) / 20 + 0.05, seed + 1000, RATE), music(seconds - (seed % 7) / 20 - 0.05, seed, RATE));

/** An episode: 320×180 test picture (one rung: quick to pack) with `pcm` as AAC. */
async function episodeClip(name: string, pcm: Float32Array): Promise<string> {
  const audio = path.join(CLIPS, `${name}.wav`);
  const file = path.join(CLIPS, `${name}.mp4`);
  await writeFile(audio, wavBytes(pcm, RATE));
  const seconds = pcm.length / RATE;
  await run(FFMPEG_PATH, [
    "-y",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=320x180:rate=25:duration=${seconds}`,
    "-i",
    audio,
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-preset",
    "ultrafast",
    "-c:a",
    "aac",
    "-b:a",
    "96k",
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

const status = (page: Page) => page.locator("[data-upload-status]");

async function uploadEpisode(page: Page, file: string, episode: string): Promise<string> {
  await page.locator("#video-upload-target").selectOption(episode);
  await page.setInputFiles("#video-upload-file", file);
  await page.getByRole("button", { name: "开始上传" }).click();
  await expect.poll(() => status(page).textContent(), { timeout: 240_000, interval: 500 }).toMatch(/已发布|失败|无法|错误|中断/);
  const text = (await status(page).textContent()) ?? "";
  expect(text).toMatch(/^已发布/);
  return text;
}

interface Marker {
  start: number;
  end: number;
}

const near = (m: Marker | undefined, start: number, end: number) => {
  expect(m, `expected a marker near ${start}–${end}`).toBeTruthy();
  expect(Math.abs(m!.start - start), `start ${m!.start} vs ${start}`).toBeLessThanOrEqual(1);
  expect(Math.abs(m!.end - end), `end ${m!.end} vs ${end}`).toBeLessThanOrEqual(1);
};

describe("上传视频 of a series", () => {
  it("the second episode's upload finds the opening both share; the share image of a moment is a packed frame", async () => {
    // Episode 1: the opening first (0–7 s); episode 2: a 1.5 s cold open before it (1.5–8.5 s). Their stories and endings differ.
    const first = await episodeClip("intro-1", concat(OPENING, own(11, 23)));
    const second = await episodeClip("intro-2", concat(own(1.5, 31), OPENING, own(14.5, 34)));
    const number = 9100 + Math.floor(Math.random() * 400);
    const id = `video_${number}${Math.floor(Math.random() * 90 + 10)}`;
    const entry = {
      id,
      title: `片头识别${runTag}`,
      description: "浏览器打包上传的测试剧集。",
      category: ["电视剧"],
      tags: [],
      year: 2025,
      rating: 0,
      duration: "00:18",
      coverImage: `${number}.webp`,
      videoFile: `${number}.mp4`,
      episodes: [
        { videoFile: `${number}.mp4`, duration: "00:18" },
        { videoFile: `${number + 1}.mp4`, duration: "00:23" },
      ],
      state: "draft",
    };
    const created = await context.request.post(`${baseURL()}/api/admin/titles`, { headers: { Origin: baseURL() }, data: { entry } });
    expect(created.status(), await created.text()).toBe(200);
    const page = await context.newPage();
    await page.goto(`${baseURL()}/admin/titles/${id}`);
    await page.getByRole("heading", { name: "上传视频" }).waitFor();

    // Nothing to match the first with yet.
    expect(await uploadEpisode(page, first, "")).not.toContain("找到片头");
    await page.reload();
    expect(await uploadEpisode(page, second, "2")).toContain("找到片头 / 片尾 2 处");

    const edit = await context.request.get(`${baseURL()}/api/admin/titles/${id}`);
    const saved = ((await edit.json()) as { entry: { intro?: Marker; outro?: Marker; episodes: Array<{ intro?: Marker; outro?: Marker }> } }).entry;
    expect(saved.intro).toBeUndefined();
    near(saved.episodes[0].intro, 0, 7);
    near(saved.episodes[1].intro, 1.5, 8.5);
    expect(saved.episodes[0].outro).toBeUndefined();
    expect(saved.episodes[1].outro).toBeUndefined();
    // The operator sees them in 片头 / 片尾 (decision 0096) to correct them.
    await page.reload();
    const markers = page.locator("section", { has: page.getByRole("heading", { name: "片头 / 片尾" }) });
    await expect
      .poll(
        async () =>
          (await markers.locator("input:not([type=hidden])").evaluateAll((xs) => xs.map((x) => (x as HTMLInputElement).value))).filter(Boolean).length,
      )
      .toBe(4);

    const published = await context.request.post(`${baseURL()}/api/admin/titles/bulk`, {
      headers: { Origin: baseURL() },
      data: { action: "publish", ids: [id] },
    });
    expect(published.status(), await published.text()).toBe(200);
    // 12 s: the frame at 10 s of episode 2, a JPEG the browser drew (not the cover's redirect).
    const image = await context.request.get(`${baseURL()}/share-image/${id}?t=12&e=2`, { maxRedirects: 0 });
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/jpeg");
    const jpeg = await image.body();
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  }, 600_000);
});
