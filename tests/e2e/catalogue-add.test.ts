import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../../scripts/media/ffmpeg";
import { freePort } from "../../scripts/local-site.mjs";
import { waitForServer } from "../../scripts/wait-for-server.mjs";
import { DESKTOP, launchBrowser, newPage, waitForHydration, waitPlaying } from "./browser";

/**
 * `npm run catalogue -- add` end to end on a copy of the site (its own catalogue file, media
 * cache and local bindings; the repository's catalogue/titles.json is never touched): a real
 * short clip is probed, packed and seeded, the entry written; the copy is built and served, and
 * the new title's page shows it and plays it.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const COPIED = [
  "worker",
  "shared",
  "client",
  "public",
  "catalogue",
  "migrations",
  "scripts",
  "package.json",
  "tsconfig.json",
  "vite.config.ts",
  "env.d.ts",
  "wrangler.toml",
];

let copy: string;
let server: ChildProcess | undefined;
let baseURL: string;
let browser: Browser;
let addOutput = "";
let secondOutput = "";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0", CI: "true" };
const tsx = (args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), ...args], { cwd: copy, env, encoding: "utf8", timeout: 300_000 });

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), "yingshi-catalogue-add-"));
  for (const name of COPIED) await cp(path.join(ROOT, name), path.join(copy, name), { recursive: true });
  await symlink(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
  // A real clip: H.264 + AAC, 6 s, 640×360.
  const clip = path.join(copy, "上新短片.mp4");
  const made = spawnSync(FFMPEG_PATH, [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=640x360:rate=25",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=330:sample_rate=48000",
    "-t",
    "6",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    clip,
  ]);
  expect(made.status).toBe(0);
  const add = tsx(["scripts/catalogue/cli.ts", "add", clip, "--title", "上新短片", "--category", "电影,纪录片"]);
  addOutput = add.stdout + add.stderr;
  expect(add.status, addOutput).toBe(0);
  const again = tsx(["scripts/catalogue/cli.ts", "add", clip, "--title", "上新短片"]);
  secondOutput = again.stdout + again.stderr;
  const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
    cwd: copy,
    env,
    encoding: "utf8",
  });
  expect(build.status, build.stderr).toBe(0);
  const port = await freePort();
  let output = "";
  server = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: copy,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  baseURL = `http://127.0.0.1:${port}`;
  await waitForServer({ url: `${baseURL}/robots.txt`, child: server, output: () => output });
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe("catalogue add", () => {
  it("writes a valid entry with the probed duration; adding the same file again changes nothing", async () => {
    const titles = JSON.parse(await readFile(path.join(copy, "catalogue/titles.json"), "utf8")) as Array<Record<string, unknown>>;
    const added = titles.at(-1)!;
    expect(added).toMatchObject({
      id: "video_051",
      title: "上新短片",
      category: ["电影", "纪录片"],
      duration: "00:06",
      videoFile: "51.mp4",
      coverImage: "51.webp",
    });
    expect(titles).toHaveLength(51);
    expect(secondOutput).toMatch(/already in the catalogue as media 51: unchanged/);
    // The repository's own catalogue is untouched.
    expect(JSON.parse(await readFile(path.join(ROOT, "catalogue/titles.json"), "utf8"))).toHaveLength(50);
  });

  it("the title appears on its page and plays", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page } = await newPage(context);
    await page.goto(`${baseURL}/video/video_051`);
    await waitForHydration(page);
    await expect(page.locator("h1").first().textContent()).resolves.toContain("上新短片");
    await waitPlaying(page, 0.5);
    const cover = await fetch(`${baseURL}/51.webp`);
    expect(cover.status).toBe(200);
    expect(cover.headers.get("content-type")).toBe("image/webp");
    await context.close();
  });

  it("refuses a file that is not video with a clear error and writes nothing", async () => {
    const before = await readFile(path.join(copy, "catalogue/titles.json"), "utf8");
    const bad = tsx(["scripts/catalogue/cli.ts", "add", path.join(copy, "package.json")]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/catalogue add: .*package\.json: not a video ffmpeg can read/);
    expect(await readFile(path.join(copy, "catalogue/titles.json"), "utf8")).toBe(before);
  });
});
