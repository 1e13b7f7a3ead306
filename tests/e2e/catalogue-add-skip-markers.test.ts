import { spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../../scripts/media/ffmpeg";
import { concat, music, wavBytes } from "../unit/generated-audio";

/**
 * `npm run catalogue -- add <folder> --skip-markers` (decision 0093): a series of two tiny
 * generated episodes that share a 6.5 s opening is added on a copy of the repository (its own
 * catalogue file, media cache and local bindings, as tests/e2e/catalogue-add.test.ts) and gets no
 * 片头 / 片尾 — not the title's, not an episode's — and the command does not match their audio.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const COPIED = ["worker", "shared", "client", "public", "catalogue", "migrations", "scripts", "package.json", "tsconfig.json", "env.d.ts", "wrangler.toml"];
const RATE = 48_000;

let copy: string;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0", CI: "true" };
const tsx = (args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), ...args], { cwd: copy, env, encoding: "utf8", timeout: 300_000 });

/** An episode of `pcm` (at RATE) with a 320×180 test picture, H.264 + AAC. */
async function episode(file: string, pcm: Float32Array): Promise<void> {
  const audio = `${file}.wav`;
  await writeFile(audio, wavBytes(pcm, RATE));
  const made = spawnSync(FFMPEG_PATH, [
    ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=320x180:rate=25:duration=${pcm.length / RATE}`, "-i", audio],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file],
  ]);
  expect(made.status, made.stderr?.toString()).toBe(0);
  await rm(audio);
}

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), "yingshi-skip-markers-"));
  for (const name of COPIED) await cp(path.join(ROOT, name), path.join(copy, name), { recursive: true });
  await symlink(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
}, 120_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe("npm run catalogue -- add --skip-markers", () => {
  it("adds a series whose episodes share an opening without 片头 / 片尾, and without matching their audio", async () => {
    const folder = path.join(copy, "片头测试剧");
    await mkdir(folder);
    const opening = music(6.5, 11, RATE);
    // Each episode's own part changes chords off the opening's beat (tests/unit/intro-detect.test.ts).
    await episode(path.join(folder, "01.mp4"), concat(opening, music(0.2, 1023, RATE), music(9.3, 23, RATE)));
    await episode(path.join(folder, "02.mp4"), concat(opening, music(0.35, 1034, RATE), music(9.15, 34, RATE)));
    const add = tsx(["scripts/catalogue/cli.ts", "add", folder, "--title", "片头测试剧", "--category", "电视剧", "--skip-markers"]);
    const output = add.stdout + add.stderr;
    expect(add.status, output).toBe(0);
    expect(output).not.toMatch(/markers:/);
    const titles = JSON.parse(await readFile(path.join(copy, "catalogue/titles.json"), "utf8")) as Array<Record<string, unknown>>;
    const entry = titles.find((t) => t.title === "片头测试剧") as { intro?: unknown; outro?: unknown; episodes: Array<Record<string, unknown>> };
    expect(entry.episodes).toHaveLength(2);
    expect(entry.intro).toBeUndefined();
    expect(entry.outro).toBeUndefined();
    for (const e of entry.episodes) {
      expect(e.intro).toBeUndefined();
      expect(e.outro).toBeUndefined();
    }
  }, 400_000);
});
