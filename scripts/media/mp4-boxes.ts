/**
 * Just enough ISO BMFF (MP4) reading for the packer: the H.264 profile/level from the init
 * segment's avcC (for CODECS), and the presentation time of the first video sample of a CMAF
 * segment (for the subtitles' X-TIMESTAMP-MAP).
 */

export interface Box {
  type: string;
  /** Offset of the payload (after the header) and its end, in the buffer. */
  start: number;
  end: number;
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "moof", "traf", "edts", "mvex"]);

/** The boxes directly inside [start, end). */
export function childBoxes(buf: Uint8Array, start = 0, end = buf.length): Box[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(buf[at + 4], buf[at + 5], buf[at + 6], buf[at + 7]);
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) throw new Error(`corrupt MP4: box ${type} at ${at} overruns its parent`);
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

/** Depth-first search for boxes of a type, descending into the usual containers (and stsd entries). */
export function findBoxes(buf: Uint8Array, type: string, start = 0, end = buf.length): Box[] {
  const found: Box[] = [];
  for (const box of childBoxes(buf, start, end)) {
    if (box.type === type) found.push(box);
    if (CONTAINERS.has(box.type)) found.push(...findBoxes(buf, type, box.start, box.end));
    // stsd: full box (4) + entry count (4), then sample entries; avc1 entries: 78 bytes before their boxes.
    if (box.type === "stsd") {
      for (const entry of childBoxes(buf, box.start + 8, box.end)) {
        if (entry.type === type) found.push(entry);
        if (entry.type === "avc1" || entry.type === "avc3") found.push(...findBoxes(buf, type, entry.start + 78, entry.end));
      }
    }
  }
  return found;
}

export interface AvcConfig {
  profile: number;
  compatibility: number;
  level: number;
}

/** Profile, constraint flags and level from the first avcC of an init segment. */
export function readAvcConfig(init: Uint8Array): AvcConfig {
  const [avcC] = findBoxes(init, "avcC");
  if (!avcC) throw new Error("no avcC box: not an H.264 init segment");
  return { profile: init[avcC.start + 1], compatibility: init[avcC.start + 2], level: init[avcC.start + 3] };
}

interface TrackInfo {
  id: number;
  handler: string;
  timescale: number;
  /** Edit-list media time (start shift) in the track's timescale. */
  editMediaTime: number;
}

function tracksOf(init: Uint8Array): TrackInfo[] {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  return findBoxes(init, "trak").map((trak) => {
    const [tkhd] = findBoxes(init, "tkhd", trak.start, trak.end);
    const [mdhd] = findBoxes(init, "mdhd", trak.start, trak.end);
    const [hdlr] = findBoxes(init, "hdlr", trak.start, trak.end);
    const [elst] = findBoxes(init, "elst", trak.start, trak.end);
    const v1 = (box: Box) => init[box.start] === 1;
    const id = view.getUint32(tkhd.start + (v1(tkhd) ? 20 : 12));
    const timescale = view.getUint32(mdhd.start + (v1(mdhd) ? 20 : 12));
    const handler = String.fromCharCode(...init.subarray(hdlr.start + 8, hdlr.start + 12));
    let editMediaTime = 0;
    if (elst && view.getUint32(elst.start + 4) > 0) {
      editMediaTime = v1(elst) ? Number(view.getBigInt64(elst.start + 16)) : view.getInt32(elst.start + 12);
      if (editMediaTime < 0) editMediaTime = 0; // an empty edit (-1) delays rather than shifts
    }
    return { id, handler, timescale, editMediaTime };
  });
}

/** Presentation time in seconds of the first video sample of a CMAF segment (tfdt + composition offset − edit). */
export function firstVideoTime(init: Uint8Array, segment: Uint8Array): number {
  const video = tracksOf(init).find((t) => t.handler === "vide");
  if (!video) throw new Error("no video track in the init segment");
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  for (const traf of findBoxes(segment, "traf")) {
    const [tfhd] = findBoxes(segment, "tfhd", traf.start, traf.end);
    if (view.getUint32(tfhd.start + 4) !== video.id) continue;
    const [tfdt] = findBoxes(segment, "tfdt", traf.start, traf.end);
    const base = segment[tfdt.start] === 1 ? Number(view.getBigUint64(tfdt.start + 4)) : view.getUint32(tfdt.start + 4);
    let offset = 0;
    const [trun] = findBoxes(segment, "trun", traf.start, traf.end);
    if (trun) {
      const flags = view.getUint32(trun.start) & 0xffffff;
      let at = trun.start + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      at += (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0);
      if (flags & 0x800) offset = segment[trun.start] === 1 ? view.getInt32(at) : view.getUint32(at);
    }
    return Math.max(0, base + offset - video.editMediaTime) / video.timescale;
  }
  throw new Error("the segment has no fragment of the video track");
}

/** The movie duration in seconds from mvhd (the longest track, as players report it). */
export function movieDuration(file: Uint8Array): number {
  const [mvhd] = findBoxes(file, "mvhd");
  if (!mvhd) throw new Error("no mvhd box: not an MP4 movie");
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  return file[mvhd.start] === 1
    ? Number(view.getBigUint64(mvhd.start + 24)) / view.getUint32(mvhd.start + 20)
    : view.getUint32(mvhd.start + 16) / view.getUint32(mvhd.start + 12);
}
