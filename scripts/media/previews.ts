/**
 * What the packer derives from an encoded rendition rather than from the source: the
 * progressive MP4 (a remux) and, decoded once, the storyboard sheets and the cover frame.
 * A separate ffmpeg run: tiling inside the encoding run would starve its audio input (the tile
 * output waits for 100 frames and ffmpeg keeps reading video for it).
 */
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { streamNames } from "../../shared/stream/contract";
import { SHARE_FRAME_INTERVAL, SHARE_FRAME_WIDTH, shareFrameCount, shareFrameName } from "../../shared/stream/share-frames";
import { sheetCount, tileCount, type StoryboardLayout } from "../../shared/stream/storyboard";
import { runFfmpeg } from "./ffmpeg";

/** Concatenates a rendition's init and media segments (in `dir`) into one fragmented MP4 file. */
export async function joinRendition(dir: string, height: number, version: string, segments: number, file: string): Promise<string> {
  const parts = [streamNames.init(height, version), ...Array.from({ length: segments }, (_, i) => streamNames.segment(height, version, i))];
  await writeFile(file, Buffer.concat(await Promise.all(parts.map((p) => readFile(path.join(dir, p))))));
  return file;
}

/** A plain (unfragmented) MP4 with the index first (+faststart), streams copied. */
export async function remuxProgressive(fragmented: string, file: string): Promise<void> {
  await runFfmpeg(["-i", fragmented, "-map", "0", "-c", "copy", "-map_metadata", "-1", "-fflags", "+bitexact", "-movflags", "+faststart", "-f", "mp4", file]);
}

/**
 * Storyboard sheets `sb-{v}-{k}.jpg` into `outDir` (tile i = frame at i × interval), the
 * link-preview frames `frame-{kkkkk}.jpg` (one every SHARE_FRAME_INTERVAL s, SHARE_FRAME_WIDTH
 * wide; shared/stream/share-frames.ts) and the 640×360 WebP cover (frame at 1 s) at `coverFile`.
 * Returns the number of sheets.
 */
export async function storyboardAndCover(
  input: string,
  o: { layout: StoryboardLayout; fps: number; version: string; workDir: string; outDir: string; coverFile: string },
): Promise<number> {
  const { layout, fps } = o;
  const tileEvery = Math.round(layout.interval * fps);
  const coverFrame = Math.min(Math.round(fps), Math.floor(layout.duration * fps) - 1);
  const shareEvery = Math.round(SHARE_FRAME_INTERVAL * fps);
  await runFfmpeg([
    "-i",
    input,
    "-filter_complex",
    `[0:v]split=3[a][b][c];[a]select='not(mod(n\\,${tileEvery}))',scale=${layout.tileWidth}:${layout.tileHeight}:flags=bicubic,tile=${layout.columns}x${layout.rows}[sb];` +
      `[b]select='eq(n\\,${coverFrame})',scale=640:360:flags=bicubic[cover];` +
      `[c]select='not(mod(n\\,${shareEvery}))',scale=${SHARE_FRAME_WIDTH}:-2:flags=bicubic[share]`,
    "-map",
    "[sb]",
    "-c:v",
    "mjpeg",
    "-q:v",
    "5",
    "-pix_fmt",
    "yuvj420p",
    "-vsync",
    "0",
    "-start_number",
    "0",
    "-f",
    "image2",
    path.join(o.workDir, "sb-%d.jpg"),
    "-map",
    "[cover]",
    "-frames:v",
    "1",
    "-c:v",
    "libwebp",
    "-quality",
    "80",
    "-f",
    "webp",
    o.coverFile,
    "-map",
    "[share]",
    "-c:v",
    "mjpeg",
    "-q:v",
    "4",
    "-pix_fmt",
    "yuvj420p",
    "-vsync",
    "0",
    "-start_number",
    "0",
    "-f",
    "image2",
    path.join(o.workDir, "frame-%d.jpg"),
  ]);
  // As many as the video has (shareFrameCount(duration) give or take the last): the route takes the nearest that exists.
  const frames = Math.min(shareFrameCount(layout.duration), (await readdir(o.workDir)).filter((f) => /^frame-[0-9]+\.jpg$/.test(f)).length);
  for (let k = 0; k < frames; k++) await rename(path.join(o.workDir, `frame-${k}.jpg`), path.join(o.outDir, shareFrameName(k)));
  const sheets = (await readdir(o.workDir)).filter((f) => /^sb-[0-9]+\.jpg$/.test(f)).length;
  if (sheets !== sheetCount(layout)) throw new Error(`storyboard: ffmpeg made ${sheets} sheets, ${sheetCount(layout)} expected for ${tileCount(layout)} tiles`);
  for (let k = 0; k < sheets; k++) await rename(path.join(o.workDir, `sb-${k}.jpg`), path.join(o.outDir, streamNames.sprite(o.version, k)));
  return sheets;
}
