import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCatalogueFile } from "../../scripts/catalogue/check";
import { mb } from "../../scripts/deploy/progress";
import { referencedMedia } from "../../scripts/deploy/plan";

/**
 * `npm run deploy -- --dry-run` offline (the client build of `npm test` is reused: --no-build):
 * what would be created, migrated, uploaded and deployed, and the worker's gzip size. Any request
 * to the network would go to a closed local port through the proxy variables and fail.
 *
 * The media it plans from are this test's own: a temporary media directory ($MEDIA_DIR, read by
 * scripts/media/titles.ts) with small stand-in packs written here, not whatever an earlier
 * process packed on this machine.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Bytes of each stand-in file: the plan's totals follow from them. */
const SIZES = { mp4: 40_000, cover: 3_000, master: 120 } as const;

const catalogue = checkCatalogueFile();
if (!catalogue.ok) throw new Error("catalogue/titles.json does not validate (npm run catalogue -- check)");
const references = referencedMedia(catalogue.titles);
const numbers = [...references.keys()].sort((a, b) => Number(a) - Number(b));

let mediaRoot: string;
beforeAll(() => {
  mediaRoot = mkdtempSync(path.join(os.tmpdir(), "yingshi-dry-run-"));
});
afterAll(() => {
  rmSync(mediaRoot, { recursive: true, force: true });
});

/** A media directory holding a finished stand-in pack (pack.json, MP4, cover, master playlist) for each of `packed`. */
function mediaDir(name: string, packed: readonly string[]): string {
  const dir = path.join(mediaRoot, name);
  for (const n of packed) {
    const pack = path.join(dir, n);
    mkdirSync(path.join(pack, "stream"), { recursive: true });
    writeFileSync(path.join(pack, "pack.json"), "{}\n");
    writeFileSync(path.join(pack, "progressive.mp4"), Buffer.alloc(SIZES.mp4, Number(n) % 256));
    writeFileSync(path.join(pack, "cover.webp"), Buffer.alloc(SIZES.cover, 1));
    writeFileSync(path.join(pack, "stream", "master.m3u8"), "#EXTM3U\n".padEnd(SIZES.master, "#"));
  }
  return dir;
}

/** The upload the plan should name for `packed`: MP4 and master each, the cover only where the catalogue shows it. */
function expectedUpload(packed: readonly string[]): { files: number; bytes: number } {
  const covers = packed.filter((n) => references.get(n)?.cover).length;
  return { files: packed.length * 2 + covers, bytes: packed.length * (SIZES.mp4 + SIZES.master) + covers * SIZES.cover };
}

function dryRun(mediaDirectory: string): { status: number | null; out: string; err: string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MEDIA_DIR: mediaDirectory,
    HTTPS_PROXY: "http://127.0.0.1:9",
    HTTP_PROXY: "http://127.0.0.1:9",
    WRANGLER_SEND_METRICS: "false",
  };
  delete env.CLOUDFLARE_API_TOKEN;
  const r = spawnSync(process.execPath, ["scripts/deploy.mjs", "--dry-run", "--no-build"], { cwd: ROOT, env, encoding: "utf8" });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe("deploy --dry-run", () => {
  it("every referenced media number packed: prints the plan and the worker's size without an account or the network, exit 0", { timeout: 240_000 }, () => {
    expect(numbers.length).toBeGreaterThan(1);
    const { status, out, err } = dryRun(mediaDir("all", numbers));
    expect(out, err).toMatch(/^worker: [\d.]+ KiB, gzip [\d.]+ KiB — [\d.]+ % of the free plan's 3072\.0 KiB$/m);
    expect(out).toContain("deploy --dry-run (offline: nothing created, uploaded or deployed)");
    expect(out).toContain("  create R2 bucket yingshi-media");
    expect(out).toContain("  create D1 database yingshi-accounts");
    expect(out).toContain("  set secret AUTH_JWT_SECRET (random)");
    expect(out).toMatch(/would apply D1 migrations remotely: 0001_accounts\.sql, /);
    expect(out).toContain(`media: ${numbers.length} media numbers referenced by the catalogue\n`);
    const upload = expectedUpload(numbers);
    expect(out).toContain(`  would upload at most ${upload.files} files (${mb(upload.bytes)}), 0 of them in parts\n`);
    expect(out).not.toContain("MISSING");
    expect(out).toMatch(/would deploy worker "yingshi" \(gzip [\d.]+ KiB\)/);
    // Offline the worker's secrets are unknown: no mail, so auto-confirm stays, said plainly.
    expect(out).toContain("would set, as if the worker had no secrets yet");
    expect(out).toMatch(/^ {2}accounts: NO WAY TO SEND MAIL/m);
    expect(out).toMatch(/^ {2}SITE_URL: /m);
    expect(status, out + err).toBe(0);
  });

  it("a referenced media number packed nowhere: named as MISSING, exit 1", { timeout: 240_000 }, () => {
    const [unpacked, ...packed] = numbers;
    const { status, out, err } = dryRun(mediaDir("one-missing", packed));
    expect(out, err).toContain(`media: ${numbers.length} media numbers referenced by the catalogue\n`);
    const upload = expectedUpload(packed);
    expect(out).toContain(`  would upload at most ${upload.files} files (${mb(upload.bytes)}), 0 of them in parts\n`);
    expect(out).toContain(`  MISSING (neither packed here nor in the bucket): ${unpacked}\n`);
    expect(status, out + err).toBe(1);
  });
});
