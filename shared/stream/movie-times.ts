/**
 * The browser packer's movies (init segments, the progressive file) without the moment they were made
 * (docs/decisions/0102-resumable-browser-pack.md). mediabunny stamps `mvhd`, every `tkhd` and
 * `mdhd` with the muxer's start time in seconds, so two runs over the same file made init segments
 * that differed in those fields alone — and 继续上传 names a rung's objects anew whenever its init
 * segment differs from the stored one (decision 0081), sending everything again. The CLI's ffmpeg
 * writes 0 there; so does this.
 */

/** Boxes of an init segment that hold the ones stamped with a time. */
const CONTAINERS = new Set(["moov", "trak", "mdia"]);
/** Full boxes whose first fields after version and flags are the creation and modification times. */
const STAMPED = new Set(["mvhd", "tkhd", "mdhd"]);

/** Zeroes the creation and modification times of `mvhd`, `tkhd` and `mdhd` in place; returns how many boxes it changed. */
function unstamp(bytes: Uint8Array, start: number, end: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let changed = 0;
  let at = start;
  while (at + 8 <= end) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    if (size < header || at + size > end) throw new Error(`corrupt MP4: box ${type} at ${at} overruns its parent`);
    const payload = at + header;
    if (CONTAINERS.has(type)) changed += unstamp(bytes, payload, at + size);
    if (STAMPED.has(type)) {
      // Version 1: two 64-bit times after version and flags; version 0: two 32-bit ones.
      const length = bytes[payload] === 1 ? 16 : 8;
      if (payload + 4 + length > at + size) throw new Error(`corrupt MP4: ${type} at ${at} is too short`);
      bytes.fill(0, payload + 4, payload + 4 + length);
      changed++;
    }
    at += size;
  }
  return changed;
}

/**
 * Sets every creation and modification time of an MP4 movie's `mvhd`, `tkhd` and `mdhd` to 0, as the
 * CLI's, in place (an init segment, or a whole file with its index first), and returns it.
 */
export function withoutMovieTimes<T extends Uint8Array>(movie: T): T {
  if (unstamp(movie, 0, movie.length) === 0) throw new Error("no mvhd, tkhd or mdhd: not an MP4 movie");
  return movie;
}
