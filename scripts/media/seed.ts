/**
 * Seeds packed media into the LOCAL R2 bucket of the `MEDIA` binding through one
 * getPlatformProxy (wrangler dev's persisted state, <repo>/.wrangler/state/v3):
 *   <pack>/stream/{name}  → stream/{n}/{name}   (Content-Type from the contract)
 *   <pack>/progressive.mp4 → {n}.mp4, <pack>/cover.webp → {n}.webp
 * Objects already there with the same MD5 (R2's ETag of a single-part put) are skipped, puts run
 * concurrently, immutable files go first and playlists last (master last of all), and objects
 * under stream/{n}/ that the new pack no longer has are deleted after it is complete.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { R2Bucket } from "@cloudflare/workers-types";
import { STREAM_CONTENT_TYPES, streamFileKind, streamKey, type StreamFileKind } from "../../shared/stream/contract";
import { REPO_ROOT } from "./titles";

process.env.WRANGLER_SEND_METRICS = "false";

export const CONFIG_PATH = path.join(REPO_ROOT, "wrangler.toml");
/** Default persistence of `wrangler dev` for this config (wrangler appends `v3` to `.wrangler/state`). */
export const PERSIST_PATH = path.join(REPO_ROOT, ".wrangler", "state", "v3");

/** Opens the local bindings of wrangler.toml with wrangler dev's persistence (or another `v3` directory). */
export async function openLocalBindings(persistPath: string = PERSIST_PATH) {
  const { getPlatformProxy } = await import("wrangler");
  return getPlatformProxy<{ MEDIA: R2Bucket; DB: D1Database }>({
    configPath: CONFIG_PATH,
    persist: { path: persistPath },
    remoteBindings: false,
  });
}

interface Upload {
  key: string;
  file: string;
  contentType: string;
  /** Upload order: immutable parts, then playlists and cues, then the master. */
  stage: number;
}

const STAGE: Record<StreamFileKind, number> = {
  init: 0,
  segment: 0,
  sprite: 0,
  frame: 0,
  subtitles: 1,
  storyboard: 1,
  "media-playlist": 1,
  "subtitle-playlist": 1,
  master: 2,
};

/** What to upload for the pack of title n in `dir`. */
export async function uploadsOf(n: number, dir: string): Promise<Upload[]> {
  const uploads: Upload[] = [
    { key: `${n}.mp4`, file: path.join(dir, "progressive.mp4"), contentType: "video/mp4", stage: 0 },
    { key: `${n}.webp`, file: path.join(dir, "cover.webp"), contentType: "image/webp", stage: 0 },
  ];
  for (const name of await readdir(path.join(dir, "stream"))) {
    const kind = streamFileKind(name);
    if (!kind) throw new Error(`${dir}/stream/${name}: not a name of the stream contract`);
    uploads.push({ key: streamKey(n, name), file: path.join(dir, "stream", name), contentType: STREAM_CONTENT_TYPES[kind], stage: STAGE[kind] });
  }
  return uploads;
}

async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

async function listAll(bucket: R2Bucket, prefix: string): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    for (const o of page.objects) etags.set(o.key, o.etag);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return etags;
}

export interface SeedStats {
  put: number;
  skipped: number;
  deleted: number;
  bytes: number;
}

/** Seeds the packs of the given titles into the local MEDIA bucket (of `wrangler dev`, or of another persistence directory). */
export async function seedTitles(
  titles: ReadonlyArray<{ n: number; dir: string }>,
  log: (line: string) => void = console.log,
  persistPath: string = PERSIST_PATH,
): Promise<SeedStats> {
  const started = performance.now();
  const proxy = await openLocalBindings(persistPath);
  const stats: SeedStats = { put: 0, skipped: 0, deleted: 0, bytes: 0 };
  try {
    const bucket = proxy.env.MEDIA;
    const existing = await listAll(bucket, "");
    for (const { n, dir } of titles) {
      const uploads = await uploadsOf(n, dir);
      for (const stage of [0, 1, 2]) {
        await pool(
          uploads.filter((u) => u.stage === stage),
          16,
          async (u) => {
            const bytes = await readFile(u.file);
            const md5 = createHash("md5").update(bytes).digest("hex");
            if (existing.get(u.key) === md5) {
              stats.skipped++;
              return;
            }
            // A plain Uint8Array: the proxy cannot revive Node's Buffer subclass inside workerd.
            await bucket.put(u.key, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { httpMetadata: { contentType: u.contentType } });
            stats.put++;
            stats.bytes += bytes.length;
          },
        );
      }
      const wanted = new Set(uploads.map((u) => u.key));
      const stale = [...existing.keys()].filter((k) => k.startsWith(streamKey(n, "")) && !wanted.has(k));
      if (stale.length > 0) {
        await bucket.delete(stale);
        stats.deleted += stale.length;
      }
    }
  } finally {
    await proxy.dispose();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `media: seeded ${stats.put} objects (${(stats.bytes / 1e6).toFixed(1)} MB), ${stats.skipped} unchanged, ${stats.deleted} stale deleted, ` +
      `into local R2 MEDIA at ${path.relative(process.cwd(), persistPath) || "."} in ${seconds} s`,
  );
  return stats;
}
