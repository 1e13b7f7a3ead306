/**
 * The checksum the media upload endpoint verifies and lists for an object (docs/decisions/0052-
 * media-upload-path.md), as R2 computes it: the hex MD5 of the bytes for a single put, and for a
 * multipart upload R2's multipart ETag — the MD5 of the parts' binary MD5s concatenated, then `-`
 * and the number of parts. The deploy computes the same value from the file on disk, cutting it
 * into parts of MULTIPART_PART_BYTES exactly as the upload does. The MD5 function itself is the
 * caller's (node:crypto on the operator's machine, WebCrypto's MD5 in the worker).
 */
import { MD5_HEX, MULTIPART_PART_BYTES } from "./media-keys";

/** R2's ETag of an object completed from parts: `<hex MD5 of the part MD5s>-<parts>`. */
export const MULTIPART_CHECKSUM = /^[0-9a-f]{32}-([1-9][0-9]{0,4})$/;

/** Whether `value` is a checksum the endpoint can vouch for (a hex MD5 or a multipart ETag). */
export function isChecksum(value: string): boolean {
  return MD5_HEX.test(value) || MULTIPART_CHECKSUM.test(value);
}

/** How many parts a file of `size` bytes goes up in. */
export function partCount(size: number): number {
  return Math.ceil(size / MULTIPART_PART_BYTES);
}

/** The byte count of part `partNumber` (1-based) of a file of `size` bytes: the part size but for the last. */
export function partBytes(size: number, partNumber: number): number {
  return Math.min(MULTIPART_PART_BYTES, size - (partNumber - 1) * MULTIPART_PART_BYTES);
}

export function bytesToHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = "";
  for (const byte of view) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The parts' MD5s (hex) as the binary string R2 hashes for the multipart ETag. */
export function concatenatedDigests(partMd5s: readonly string[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(partMd5s.length * 16);
  partMd5s.forEach((hex, i) => {
    for (let j = 0; j < 16; j++) bytes[i * 16 + j] = parseInt(hex.slice(j * 2, j * 2 + 2), 16);
  });
  return bytes;
}

/** The multipart ETag from the MD5 (hex) of concatenatedDigests(parts) and the part count. */
export function multipartChecksum(md5OfDigests: string, parts: number): string {
  return `${md5OfDigests}-${parts}`;
}
