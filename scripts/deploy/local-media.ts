/**
 * The packed media on this machine, as the deploy plan lists it: for each media number with a
 * finished pack in .media-cache/titles/{n}/ (pack.json present), its files under their R2 keys
 * (scripts/media/seed.ts names them) with size and MD5.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { LocalFile } from "../../shared/deploy/plan";
import { uploadsOf } from "../media/seed";
import { TITLES_DIR } from "../media/titles";

export async function fileMd5(file: string): Promise<string> {
  const hash = createHash("md5");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The pack directory of media number n. */
export const packDir = (n: string | number, titlesDir: string = TITLES_DIR) => path.join(titlesDir, String(n));

/** Files of the finished packs of the given numbers (numbers without a pack are left out). */
export async function localMedia(numbers: Iterable<string>, titlesDir: string = TITLES_DIR): Promise<Map<string, LocalFile[]>> {
  const result = new Map<string, LocalFile[]>();
  for (const n of numbers) {
    const dir = packDir(n, titlesDir);
    if (!existsSync(path.join(dir, "pack.json"))) continue;
    const files: LocalFile[] = [];
    for (const u of await uploadsOf(Number(n), dir)) {
      if (!existsSync(u.file)) continue;
      files.push({ key: u.key, file: u.file, size: (await stat(u.file)).size, md5: await fileMd5(u.file) });
    }
    result.set(n, files);
  }
  return result;
}
