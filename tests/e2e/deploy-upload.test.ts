import { appendFile, cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planMedia, referencedMedia } from "../../scripts/deploy/plan";
import { validateCatalogue } from "../../shared/catalogue/schema";
import catalogue from "../../catalogue/titles.json";
import { checkSite } from "../../scripts/deploy/checks";
import { listObjects, putMultipart, type MediaEndpoint, type PartState } from "../../scripts/deploy/endpoint";
import { fileChecksums, localMedia } from "../../scripts/deploy/local-media";
import { SINGLE_PUT_MAX_BYTES } from "../../shared/deploy/media-keys";
import { progressBar } from "../../scripts/deploy/progress";
import { uploadMedia } from "../../scripts/deploy/upload";
import { TITLES_DIR } from "../../scripts/media/titles";
import { freePort, startLocalSite } from "../../scripts/local-site.mjs";
import { applyLocalMigrations, importLocalCatalogue } from "../../scripts/prepare-local.mjs";
import { launchBrowser, newPage, waitForHydration, waitPlaying } from "./browser";
import { newVisitor } from "./visitors";

/**
 * The deploy's media upload (scripts/deploy/) against the local site: `wrangler dev` with the
 * upload endpoint on (MEDIA_UPLOAD_TOKEN) and an empty bucket of its own, fed from the packed
 * titles of .media-cache/ exactly as `npm run deploy` feeds the live worker.
 */
const TOKEN = "e2e-upload-token-".padEnd(48, "x");
/**
 * The titles whose packs the tests upload; each test has titles of its own (and uploads what it
 * needs itself), so that every test runs alone and in any order against the one bucket.
 */
const TITLES = ["1", "2", "3", "4", "5", "6"];

let site: Awaited<ReturnType<typeof startLocalSite>>;
let state: string;
let packs: string;
let browser: Browser;
let endpoint: MediaEndpoint;

const quiet = () => progressBar("upload", 0, 0, { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream);

beforeAll(async () => {
  state = await mkdtemp(path.join(tmpdir(), "yingshi-upload-state-"));
  // A copy of the packs: the test changes a file without touching the shared cache.
  packs = await mkdtemp(path.join(tmpdir(), "yingshi-upload-packs-"));
  for (const n of TITLES) await cp(path.join(TITLES_DIR, n), path.join(packs, n), { recursive: true });
  // The site's catalogue: migrations and the import into this state's D1 (its bucket stays empty).
  await applyLocalMigrations({ log: () => {}, persistPath: path.join(state, "v3") });
  await importLocalCatalogue({ log: () => {}, persistPath: path.join(state, "v3") });
  site = await startLocalSite({ port: await freePort(), persistTo: state, vars: { MEDIA_UPLOAD_TOKEN: TOKEN } });
  endpoint = { baseURL: site.baseURL, token: TOKEN };
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await rm(state, { recursive: true, force: true });
  await rm(packs, { recursive: true, force: true });
});

const titles = (() => {
  const result = validateCatalogue(catalogue);
  if (!result.ok) throw new Error("catalogue invalid");
  return result.titles;
})();

async function plan(numbers: readonly string[]) {
  const refs = new Map([...referencedMedia(titles)].filter(([n]) => numbers.includes(n)));
  return planMedia(refs, await localMedia(numbers, packs), await listObjects(endpoint));
}

/** Uploads whatever of these titles the bucket does not have yet (a test's own preparation). */
async function uploaded(numbers: readonly string[]): Promise<void> {
  const result = await uploadMedia(endpoint, (await plan(numbers)).uploads, { progress: quiet() });
  expect(result.failed).toEqual([]);
  expect((await plan(numbers)).uploads).toEqual([]);
}

describe("deploy upload through the worker's endpoint", () => {
  it("refuses a wrong token: every file fails with 401 and nothing is written", async () => {
    const before = await listObjects(endpoint);
    const { uploads } = await plan(["4"]);
    expect(uploads.length).toBeGreaterThan(0);
    const result = await uploadMedia({ ...endpoint, token: "w".repeat(48) }, uploads, { progress: quiet() });
    expect(result.uploaded).toBe(0);
    expect(result.failed.length).toBeGreaterThan(0);
    expect(result.failed.every((f) => / 401 /.test(f.error))).toBe(true);
    // A failed title gets none of its playlists.
    expect(result.held.some((k) => k.endsWith("master.m3u8"))).toBe(true);
    expect([...(await listObjects(endpoint))]).toEqual([...before]);
  });

  it("uploads two titles; a second run uploads nothing", async () => {
    const first = await plan(["2", "5"]);
    expect(first.unchanged).toBe(0);
    expect(first.uploads.length).toBeGreaterThan(40);
    const result = await uploadMedia(endpoint, first.uploads, { progress: quiet(), concurrency: 6 });
    expect(result.failed).toEqual([]);
    expect(result.uploaded).toBe(first.uploads.length);
    const again = await plan(["2", "5"]);
    expect(again.uploads).toEqual([]);
    expect(again.unchanged).toBe(first.uploads.length);
  });

  it("re-uploads a changed file and not the unchanged ones", async () => {
    await uploaded(["6"]);
    await appendFile(path.join(packs, "6", "stream", "subtitles-zh-CN.vtt"), "\n");
    const changed = await plan(["6"]);
    expect(changed.uploads.map((u) => [u.key, u.reason])).toEqual([["stream/6/subtitles-zh-CN.vtt", "changed"]]);
    const result = await uploadMedia(endpoint, changed.uploads, { progress: quiet() });
    expect(result.uploaded).toBe(1);
    expect((await plan(["6"])).uploads).toEqual([]);
  });

  it("resumes an interrupted upload: the second run sends only what the first did not", async () => {
    const full = await plan(["3"]);
    const abort = new AbortController();
    const first = await uploadMedia(endpoint, full.uploads, {
      progress: quiet(),
      concurrency: 2,
      signal: abort.signal,
      onFile: () => {
        if (!abort.signal.aborted) abort.abort();
      },
    });
    expect(first.failed).toEqual([]);
    expect(first.uploaded).toBeGreaterThan(0);
    expect(first.uploaded).toBeLessThan(full.uploads.length);
    // Interrupted during the segments: no playlist of the title is there yet.
    const listed = await listObjects(endpoint, "stream/3/");
    expect([...listed.keys()].some((k) => k.endsWith(".m3u8"))).toBe(false);
    const rest = await plan(["3"]);
    expect(rest.uploads.length).toBe(full.uploads.length - first.uploaded);
    const second = await uploadMedia(endpoint, rest.uploads, { progress: quiet() });
    expect(second.failed).toEqual([]);
    expect((await plan(["3"])).uploads).toEqual([]);
  });

  it("the uploaded title passes the post-deploy checks and plays", async () => {
    await uploaded(["1"]);
    const checks = await checkSite(site.baseURL, "1");
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual(["home", "master playlist", "media playlist", "segment", "cover"]);
    const context = await newVisitor(browser);
    const { page } = await newPage(context);
    await page.goto(`${site.baseURL}/video/video_001`);
    await waitForHydration(page);
    await waitPlaying(page, 0.5);
    await context.close();
  });

  // 64 MiB and a restarted part through wrangler dev: longer than the other cases.
  it("sends a file larger than one request in verified parts; the listing reports the checksum the deploy computes", { timeout: 120_000 }, async () => {
    const file = path.join(packs, "big.mp4");
    const size = SINGLE_PUT_MAX_BYTES + 1000;
    await writeFile(file, Buffer.alloc(size, 7));
    const { checksum } = await fileChecksums(file, size);
    // A saved state of an upload that no longer exists (expired, or aborted by the endpoint): started anew.
    let saved: PartState | undefined = { uploadId: "gone", checksum, size, parts: [] };
    await putMultipart(endpoint, { key: "99.mp4", file, size, checksum }, saved, (state) => {
      saved = state;
      return Promise.resolve();
    });
    expect(saved).toBeUndefined();
    expect((await listObjects(endpoint, "99.")).get("99.mp4")).toEqual({ size, checksum });
  });

  it("names what failed when a title is missing from the bucket", async () => {
    const checks = await checkSite(site.baseURL, "17");
    expect(checks.find((c) => c.name === "master playlist")).toMatchObject({ ok: false, detail: "404" });
    expect(checks.find((c) => c.name === "cover")).toMatchObject({ ok: false, detail: "404" });
  });
});
