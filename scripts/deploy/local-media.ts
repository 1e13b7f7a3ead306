/**
 * The packed media on this machine, as the deploy plan lists it: for each media number with a
 * finished pack in .media-cache/titles/{n}/ (pack.json present), its files under their R2 keys
 * (scripts/media/seed.ts names them) with size, MD5 and the checksum the bucket will list.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { concatenatedDigests, multipartChecksum, partCount } from "../../shared/deploy/checksum";
import { MULTIPART_PART_BYTES, needsMultipart } from "../../shared/deploy/media-keys";
import type { LocalFile } from "./plan";
import { uploadsOf } from "../media/seed";
import { TITLES_DIR } from "../media/titles";

const md5Hex = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");

/** The MD5 of part `partNumber` (1-based) of a file sent in parts. */
export async function partMd5(file: string, size: number, partNumber: number): Promise<string> {
  const start = (partNumber - 1) * MULTIPART_PART_BYTES;
  const hash = createHash("md5");
  for await (const chunk of createReadStream(file, { start, end: Math.min(size, start + MULTIPART_PART_BYTES) - 1 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * The file's MD5 and the checksum the bucket will list for it (shared/deploy/checksum.ts): the MD5,
 * or R2's multipart ETag over parts of MULTIPART_PART_BYTES for a file sent in parts. One read.
 */
export async function fileChecksums(file: string, size: number): Promise<{ md5: string; checksum: string }> {
  const whole = createHash("md5");
  const parts: string[] = [];
  let part: Hash = createHash("md5");
  let inPart = 0;
  for await (const chunk of createReadStream(file)) {
    const bytes = chunk as Buffer;
    whole.update(bytes);
    for (let offset = 0; offset < bytes.length;) {
      const take = Math.min(bytes.length - offset, MULTIPART_PART_BYTES - inPart);
      part.update(bytes.subarray(offset, offset + take));
      inPart += take;
      offset += take;
      if (inPart === MULTIPART_PART_BYTES) {
        parts.push(part.digest("hex"));
        part = createHash("md5");
        inPart = 0;
      }
    }
  }
  if (inPart > 0) parts.push(part.digest("hex"));
  const md5 = whole.digest("hex");
  if (!needsMultipart(size)) return { md5, checksum: md5 };
  if (parts.length !== partCount(size)) throw new Error(`${file} changed while it was read`);
  return { md5, checksum: multipartChecksum(md5Hex(concatenatedDigests(parts)), parts.length) };
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
      const size = (await stat(u.file)).size;
      files.push({ key: u.key, file: u.file, size, ...(await fileChecksums(u.file, size)) });
    }
    result.set(n, files);
  }
  return result;
}
