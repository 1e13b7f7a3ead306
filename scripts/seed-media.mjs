#!/usr/bin/env node
/**
 * Seeds the generated media (<repo>/.media-cache/N.mp4, N.webp) into the LOCAL R2 bucket of
 * the `MEDIA` binding, in one process: wrangler's getPlatformProxy opens the same persisted
 * state that `wrangler dev` uses by default — <repo>/.wrangler/state/v3 (wrangler dev resolves
 * `.wrangler/state` next to wrangler.toml and appends `v3`; getPlatformProxy takes the final
 * `v3` directory). Objects whose size already matches are skipped.
 *
 *   node scripts/seed-media.mjs
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.WRANGLER_SEND_METRICS = "false";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CACHE_DIR = path.join(REPO_ROOT, ".media-cache");
export const CONFIG_PATH = path.join(REPO_ROOT, "wrangler.toml");
/** Default persistence of `wrangler dev` for this config (see getLocalPersistencePath). */
export const PERSIST_PATH = path.join(REPO_ROOT, ".wrangler", "state", "v3");

/** Only names the worker serves (same rule as worker/media/serve.ts). */
const MEDIA_NAME = /^([1-9][0-9]{0,5})\.(mp4|webp)$/;
const CONTENT_TYPES = { mp4: "video/mp4", webp: "image/webp" };

/** Opens the local bindings of wrangler.toml with wrangler dev's persistence. */
export async function openLocalBindings() {
  const { getPlatformProxy } = await import("wrangler");
  return getPlatformProxy({
    configPath: CONFIG_PATH,
    persist: { path: PERSIST_PATH },
    remoteBindings: false,
  });
}

/**
 * Puts every media file of the cache into the local MEDIA bucket (missing or different size).
 * @param {{ cacheDir?: string, log?: (line: string) => void }} [options]
 */
export async function seedMedia({ cacheDir = CACHE_DIR, log = console.log } = {}) {
  const started = performance.now();
  const names = (await readdir(cacheDir)).filter((n) => MEDIA_NAME.test(n)).sort(byNumber);
  if (names.length === 0) {
    throw new Error(`no media in ${cacheDir} — run: node scripts/generate-media.mjs`);
  }
  const proxy = await openLocalBindings();
  let put = 0;
  let skipped = 0;
  let bytes = 0;
  try {
    const bucket = proxy.env.MEDIA;
    for (const name of names) {
      const file = path.join(cacheDir, name);
      const { size } = await stat(file);
      const existing = await bucket.head(name);
      if (existing && existing.size === size) {
        skipped++;
        continue;
      }
      const ext = MEDIA_NAME.exec(name)[2];
      const buf = await readFile(file);
      // A plain Uint8Array: the proxy cannot revive Node's Buffer subclass inside workerd.
      const bytesView = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      await bucket.put(name, bytesView, {
        httpMetadata: { contentType: CONTENT_TYPES[ext] },
      });
      put++;
      bytes += size;
    }
  } finally {
    await proxy.dispose();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `media: seeded ${put} objects (${(bytes / 1e6).toFixed(1)} MB), ${skipped} unchanged, ` +
      `into local R2 MEDIA at ${path.relative(process.cwd(), PERSIST_PATH) || "."} in ${seconds} s`,
  );
  return { put, skipped };
}

function byNumber(a, b) {
  const [, na, ea] = MEDIA_NAME.exec(a);
  const [, nb, eb] = MEDIA_NAME.exec(b);
  return Number(na) - Number(nb) || ea.localeCompare(eb);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  seedMedia().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
