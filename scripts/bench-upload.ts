/**
 * `npm run bench:upload`: 上传视频 on the 60 s 1080p bench clip (docs/performance.md has the
 * latest figures; docs/decisions/0080–0084 the design).
 *
 *  1. builds the bench clip (scripts/media/bench-clip.ts, cached) and packs it with the CLI's
 *     packer (scripts/media/pack.ts) into a temporary folder: the CLI's speed in × real time;
 *  2. starts the built site (`wrangler dev`, scripts/local-site.mjs) on a fresh local state with
 *     the migrations and the catalogue, and an admin past the second step;
 *  3. in Debian's Chromium (headless), 上传视频 on video_001's edit page: choose the clip, 开始上传,
 *     until 已发布 — packing (WebCodecs + mediabunny in the page's Web Worker) and uploading to the
 *     local site as one pipeline, in × real time;
 *  4. upload throughput to the local site from the page: 64 segment-sized objects (1 MiB, four at
 *     a time, each hashed) and one 80 MiB object in 8 MiB parts, through the same endpoints;
 *  5. the resume: a second upload of the clip whose page is closed once half the clip is packed,
 *     then a new page's 继续上传 — the bytes sent again (target < 5 % of the package);
 *  6. prints the figures with the machine's load average and writes them to bench-results/.
 *
 *   npm run bench:upload
 *   npm run bench:upload -- --skip-cli        the browser only
 *   npm run bench:upload -- --skip-full       without the whole pipeline (throughput and the resume only)
 *   npm run bench:upload -- --opus            the clip with its audio made Opus (video copied): the browser
 *                                             encodes AAC itself (docs/decisions/0082-browser-upload-audio.md)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { laddersFor } from "../shared/stream/ladder";
import { changeRole } from "./admin/roles";
import { BENCH_DIR, buildBenchClip } from "./media/bench-clip";
import { runFfmpeg } from "./media/ffmpeg";
import { pack } from "./media/pack";
import { fileSource } from "./media/source";
import { totpCode } from "../worker/admin/totp";
import { freePort, startLocalSite } from "./local-site.mjs";
import { applyLocalMigrations, importLocalCatalogue } from "./prepare-local.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TITLE = "video_001";
const CLIP_SECONDS = 60;
const PASSWORD = "bench-upload-1";

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" / ");
const log = (line: string) => console.log(`  ${line}`);

interface Site {
  baseURL: string;
  stop: () => Promise<void>;
}

/** An admin past the second step, in a new browser context. */
async function adminContext(browser: import("playwright-core").Browser, site: Site, persistPath: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: site.baseURL });
  const email = `bench-upload-${Date.now()}@example.com`;
  const headers = { Origin: site.baseURL };
  const signUp = await context.request.post("/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  if (signUp.status() !== 200) throw new Error(`sign-up: ${signUp.status()} ${await signUp.text()}`);
  await changeRole({ command: "grant", email, role: "admin", remote: false }, { persistPath, log: () => {} });
  const enrol = await context.request.post("/api/admin/two-step/enrol", { headers, data: {} });
  const secret = ((await enrol.json()) as { secret: string }).secret.replace(/\s/g, "");
  const confirm = await context.request.post("/api/admin/two-step/confirm", { headers, data: { code: totpCode(secret, Date.now()) } });
  if (confirm.status() !== 200) throw new Error(`two-step: ${confirm.status()} ${await confirm.text()}`);
  return context;
}

/** "1分5秒" / "45秒" (client/admin/video-upload.ts `clock`) → seconds. */
function seconds(text: string): number {
  const m = /(?:(\d+)小时)?(?:(\d+)分)?(?:(\d+)秒)?/.exec(text);
  return m ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : 0;
}

const status = (page: Page) =>
  page
    .locator("[data-upload-status]")
    .textContent()
    .then((t) => t ?? "");

/** Counts the bytes of every upload request the context's pages and workers send. */
function countUploads(context: BrowserContext): { bytes: () => number } {
  let bytes = 0;
  context.on("request", (request) => {
    if (request.method() !== "PUT" || !request.url().includes("/api/admin/uploads/")) return;
    bytes += request.postDataBuffer()?.length ?? Number(request.headers()["content-length"] ?? 0);
  });
  return { bytes: () => bytes };
}

async function openUpload(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/admin/titles/${TITLE}`);
  await page.getByRole("heading", { name: "上传视频" }).waitFor();
  return page;
}

async function chooseClip(page: Page, clip: string): Promise<void> {
  await page.setInputFiles("#video-upload-file", clip);
  await page.getByText("确认无误后开始上传。").waitFor({ timeout: 300_000 });
}

/** Waits for the end of an upload: 已发布, or throws with the page's message. */
async function untilPublished(page: Page): Promise<string> {
  for (;;) {
    const text = await status(page);
    if (/^已发布/.test(text)) return text;
    if (/失败|无法|错误|中断|不符/.test(text)) throw new Error(`upload: ${text}`);
    await page.waitForTimeout(250);
  }
}

async function heldBytes(context: BrowserContext, id: string): Promise<{ objects: number; bytes: number }> {
  const detail = (await (await context.request.get(`/api/admin/uploads/${id}`)).json()) as { objects: Array<{ size: number }> };
  return { objects: detail.objects.length, bytes: detail.objects.reduce((n, o) => n + o.size, 0) };
}

async function pendingUpload(context: BrowserContext): Promise<string> {
  const list = (await (await context.request.get(`/api/admin/uploads?title=${TITLE}`)).json()) as { uploads: Array<{ id: string }> };
  if (!list.uploads[0]) throw new Error("no unfinished upload to resume");
  return list.uploads[0].id;
}

/** Throughput of the upload endpoints from the page: many segment-sized objects, and one object in parts. */
async function throughput(page: Page): Promise<{ objectsMBps: number; partsMBps: number }> {
  // tsx keeps function names with a helper the page does not have.
  await page.evaluate("globalThis.__name = (f) => f");
  return page.evaluate(async (title) => {
    const hex = async (bytes: Uint8Array<ArrayBuffer>) =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
    const json = async (path: string, body: unknown) => {
      const res = await fetch(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json<{ id: string }>();
    };
    const upload = await json("/api/admin/uploads", { titleId: title, episode: null, source: { name: "throughput.bin", size: 1, lastModified: 1 } });
    // As the page's uploader: a 5xx (wrangler dev restarting its worker under load) is tried again.
    const put = async (path: string, bytes: Uint8Array<ArrayBuffer>) => {
      const sha256 = await hex(bytes);
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`/api/admin/uploads/${upload.id}/${path}`, { method: "PUT", body: bytes, headers: { "X-Content-SHA256": sha256 } });
        if (res.ok) return;
        if (res.status < 500 || attempt >= 4) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    };
    const MiB = 1024 * 1024;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = next++; i < 64; i = next++) {
          const bytes = new Uint8Array(MiB).fill(i);
          await put(`objects/270p-deadbeef-${String(i).padStart(5, "0")}.m4s`, bytes);
        }
      }),
    );
    const objectsMBps = 64 / ((performance.now() - started) / 1000);
    // 80 MiB in 8 MiB parts, two at a time (client/admin/packer/uploader.ts), hashed as the page does.
    const size = 80 * MiB;
    const parts = Array.from({ length: 10 }, (_, i) => new Uint8Array(8 * MiB).fill(i + 1));
    const hashes = await Promise.all(parts.map(hex));
    const all = new Uint8Array(hashes.length * 32);
    hashes.forEach((h, i) => h.match(/../g)!.forEach((b, j) => (all[i * 32 + j] = parseInt(b, 16))));
    const sha256 = await hex(all);
    const partsStarted = performance.now();
    await json(`/api/admin/uploads/${upload.id}/multipart/video.mp4`, { size, sha256 });
    let part = 0;
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        for (let i = part++; i < parts.length; i = part++) await put(`multipart/video.mp4/${i + 1}`, parts[i]);
      }),
    );
    await json(`/api/admin/uploads/${upload.id}/multipart/video.mp4/complete`, {});
    const partsMBps = 80 / ((performance.now() - partsStarted) / 1000);
    await json(`/api/admin/uploads/${upload.id}/abandon`, {});
    return { objectsMBps, partsMBps };
  }, TITLE);
}

/** The clip with its audio encoded to Opus, the video copied (cached beside it): the browser's AAC encode in the pipeline. */
async function opusClip(clip: string): Promise<string> {
  const file = path.join(BENCH_DIR, path.basename(clip).replace(/\.mp4$/, "-opus.mkv"));
  if (!fs.existsSync(file)) {
    const tmp = `${file}.tmp-${process.pid}.mkv`;
    await runFfmpeg(["-y", "-loglevel", "error", "-i", clip, "-map", "0:v:0", "-map", "0:a:0", "-c:v", "copy", "-c:a", "libopus", "-b:a", "128k", tmp]);
    fs.renameSync(tmp, file);
  }
  return file;
}

async function main(): Promise<void> {
  const loads: string[] = [load()];
  console.log(`bench:upload — load average ${loads[0]} (1/5/15 min) on ${os.cpus().length} CPUs`);
  const { source: aacClip } = await buildBenchClip({ seconds: CLIP_SECONDS, log });
  const clip = process.argv.includes("--opus") ? await opusClip(aacClip) : aacClip;
  const clipBytes = fs.statSync(clip).size;
  log(`clip: ${path.basename(clip)} (${(clipBytes / 1e6).toFixed(1)} MB)`);

  let cli: { seconds: number; bytes: number } | null = null;
  if (!process.argv.includes("--skip-cli")) {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-upload-cli-"));
    const started = performance.now();
    const result = await pack(await fileSource(clip, { width: 1920, height: 1080, fps: 25, duration: CLIP_SECONDS }), {
      outDir: path.join(out, "pack"),
      rungs: laddersFor(1080),
      subtitleLines: ["基准"],
      progressiveHeight: 720,
    });
    const wall = (performance.now() - started) / 1000;
    cli = { seconds: wall, bytes: result.renditions.reduce((n, r) => n + r.bytes, 0) };
    log(`CLI packer: ${wall.toFixed(1)} s for ${CLIP_SECONDS} s (${(CLIP_SECONDS / wall).toFixed(2)}× real time), load ${load()}`);
    fs.rmSync(out, { recursive: true, force: true });
    loads.push(load());
  }

  const state = fs.mkdtempSync(path.join(os.tmpdir(), "bench-upload-"));
  const persistPath = path.join(state, "v3");
  await applyLocalMigrations({ log: () => {}, persistPath });
  await importLocalCatalogue({ log: () => {}, persistPath });
  const site = (await startLocalSite({ port: await freePort(), persistTo: state, prepare: false })) as Site;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const context = await adminContext(browser, site, persistPath);

    // 3. The whole pipeline, from 开始上传 to 已发布.
    const page = await openUpload(context);
    let pipeline = NaN;
    let done = "";
    if (!process.argv.includes("--skip-full")) {
      await chooseClip(page, clip);
      const started = performance.now();
      await page.getByRole("button", { name: "开始上传" }).click();
      done = await untilPublished(page);
      pipeline = (performance.now() - started) / 1000;
      log(`browser pack + upload: ${pipeline.toFixed(1)} s (${(CLIP_SECONDS / pipeline).toFixed(2)}× real time) — ${done}`);
      loads.push(load());
    }

    // 4. Throughput of the endpoints alone.
    const speed = await throughput(page);
    log(`upload throughput: ${speed.objectsMBps.toFixed(1)} MiB/s (1 MiB objects, 4 at a time), ${speed.partsMBps.toFixed(1)} MiB/s (8 MiB parts)`);
    await page.close();

    // 5. Killed at half way, then 继续上传 in a new page.
    const counted = countUploads(context);
    const first = await openUpload(context);
    await chooseClip(first, clip);
    await first.getByRole("button", { name: "开始上传" }).click();
    for (;;) {
      const m = /已打包 (\S+) \//.exec(await status(first));
      if (m && seconds(m[1]) >= CLIP_SECONDS / 2) break;
      await first.waitForTimeout(100);
    }
    await first.close();
    const sentBeforeKill = counted.bytes();
    const id = await pendingUpload(context);
    const held = await heldBytes(context, id);
    const second = await openUpload(context);
    await second.getByRole("button", { name: "继续上传" }).first().click();
    await second.setInputFiles("#video-upload-file", clip);
    await second.locator("[data-upload-details] button", { hasText: "继续上传" }).click({ timeout: 300_000 });
    const resumed = await untilPublished(second);
    const sentAfter = counted.bytes() - sentBeforeKill;
    const total = await heldBytes(context, id);
    const again = sentBeforeKill + sentAfter - total.bytes;
    log(
      `resume: ${(sentBeforeKill / 1e6).toFixed(1)} MB sent before the kill (${(held.bytes / 1e6).toFixed(1)} MB stored), ` +
        `${(sentAfter / 1e6).toFixed(1)} MB after, package ${(total.bytes / 1e6).toFixed(1)} MB: ` +
        `${(again / 1e6).toFixed(2)} MB sent again = ${((100 * again) / total.bytes).toFixed(2)} % (target < 5 %) — ${resumed}`,
    );
    loads.push(load());
    await context.close();

    const result = {
      at: new Date().toISOString(),
      clip: { file: path.basename(clip), bytes: clipBytes, seconds: CLIP_SECONDS },
      cli: cli && { seconds: cli.seconds, realTime: CLIP_SECONDS / cli.seconds, renditionBytes: cli.bytes },
      browser: { seconds: pipeline, realTime: CLIP_SECONDS / pipeline, status: done },
      throughput: speed,
      resume: {
        sentBeforeKill,
        storedAtKill: held.bytes,
        sentAfter,
        packageBytes: total.bytes,
        packageObjects: total.objects,
        sentAgain: again,
        percent: (100 * again) / total.bytes,
      },
      loadAverage: loads,
      cpus: os.cpus().length,
    };
    fs.mkdirSync(path.join(root, "bench-results"), { recursive: true });
    const out = path.join(root, "bench-results", `upload-${result.at.replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + "\n");
    console.log(`\nwritten ${path.relative(root, out)}; load average through the run: ${loads.join(" → ")}`);
    if (result.resume.percent >= 5) process.exitCode = 1;
  } finally {
    await browser.close();
    await site.stop();
    fs.rmSync(state, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
