import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concatenatedDigests, isChecksum, multipartChecksum, partBytes, partCount } from "../../shared/deploy/checksum";
import { MULTIPART_PART_BYTES, SINGLE_PUT_MAX_BYTES } from "../../shared/deploy/media-keys";
import { fileChecksums, partMd5 } from "../../scripts/deploy/local-media";

/**
 * The checksum the upload endpoint verifies and lists (shared/deploy/checksum.ts) and the deploy's
 * computation of it from a file on disk (scripts/deploy/local-media.ts): R2's multipart ETag for a
 * file sent in parts, its MD5 otherwise.
 */
const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");

describe("multipart checksum", () => {
  it("is R2's multipart ETag: the MD5 of the parts' binary MD5s, then the part count (R2's documented example)", () => {
    const parts = ["bce6bf66aeb76c7040fdd5f4eccb78e6", "8165449fc15bbf43d3b674595cbcc406"];
    expect(multipartChecksum(md5(concatenatedDigests(parts)), parts.length)).toBe("f77dc0eecdebcd774a2a22cb393ad2ff-2");
  });

  it("cuts a file into full parts and one shorter last part", () => {
    expect(partCount(MULTIPART_PART_BYTES)).toBe(1);
    expect(partCount(2 * MULTIPART_PART_BYTES + 1)).toBe(3);
    expect(partBytes(2 * MULTIPART_PART_BYTES + 1, 2)).toBe(MULTIPART_PART_BYTES);
    expect(partBytes(2 * MULTIPART_PART_BYTES + 1, 3)).toBe(1);
  });

  it("accepts only a hex MD5 or a multipart ETag", () => {
    expect(isChecksum("0".repeat(32))).toBe(true);
    expect(isChecksum(`${"a".repeat(32)}-3`)).toBe(true);
    expect(isChecksum(`${"a".repeat(32)}-0`)).toBe(false);
    expect(isChecksum("A".repeat(32))).toBe(false);
    expect(isChecksum("some-random-etag")).toBe(false);
  });
});

describe("a file's checksums on disk", () => {
  let dir: string;
  const bytes = new Uint8Array(SINGLE_PUT_MAX_BYTES + 1000);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "yingshi-checksum-"));
    await writeFile(path.join(dir, "big.mp4"), bytes);
    await writeFile(path.join(dir, "small.webp"), bytes.subarray(0, 5000));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("is the MD5 for a file sent in one request", async () => {
    const expected = md5(bytes.subarray(0, 5000));
    expect(await fileChecksums(path.join(dir, "small.webp"), 5000)).toEqual({ md5: expected, checksum: expected });
  });

  it("is the multipart ETag over the upload's parts for a file sent in parts", async () => {
    const file = path.join(dir, "big.mp4");
    const parts = [0, 1, 2].map((i) => md5(bytes.subarray(i * MULTIPART_PART_BYTES, (i + 1) * MULTIPART_PART_BYTES)));
    expect(await Promise.all([1, 2, 3].map((n) => partMd5(file, bytes.length, n)))).toEqual(parts);
    expect(await fileChecksums(file, bytes.length)).toEqual({ md5: md5(bytes), checksum: multipartChecksum(md5(concatenatedDigests(parts)), 3) });
  });
});
