/**
 * The benchmark clip: a 1080p25 source of at least 60 s at about 5 Mbit/s whose bits are real —
 * a detailed noise texture panning diagonally, per-frame film grain, a moving test pattern and
 * the melody of the placeholders — then packed exactly like a title (all four renditions, the
 * progressive MP4, storyboard, subtitles). Cached in <repo>/.media-cache/bench/ by the key of
 * the generator and the packer settings.
 *
 *   tsx scripts/media/bench-clip.ts [--seconds 60]   # prints the rendition bitrates
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FFMPEG_VERSION, runFfmpeg } from "./ffmpeg";
import { LADDER } from "./ladder";
import { packIfNeeded, type PackResult } from "./pack";
import { fileSource } from "./source";
import { CACHE_DIR } from "./titles";

export const BENCH_DIR = path.join(CACHE_DIR, "bench");
const WIDTH = 1920;
const HEIGHT = 1080;
const FPS = 25;

/** ffmpeg arguments that generate the bench source (H.264 High 4.0 ~5 Mbit/s + AAC 128k). */
function sourceArgs(seconds: number, file: string): string[] {
  const frames = seconds * FPS;
  // Texture: a still of strong uniform noise, blurred a little so it is detail rather than pure
  // entropy, on a canvas larger than the frame; panned by whole pixels so motion search finds it,
  // then grain that changes every frame (what keeps a real film's bitrate up).
  const video = [
    `color=c=0x406080:s=${WIDTH + 480}x${HEIGHT + 270}:r=${FPS}:d=1,noise=alls=90:allf=u,boxblur=1:1,trim=end_frame=1,` +
      `loop=loop=${frames - 1}:size=1:start=0,setpts=N/(${FPS}*TB),` +
      `crop=w=${WIDTH}:h=${HEIGHT}:x='mod(n*4\\,480)':y='mod(n*2\\,270)'[bg]`,
    `testsrc2=s=640x360:r=${FPS}:d=${seconds}[pattern]`,
    `[bg][pattern]overlay=x='(W-w)/2+400*sin(t/3)':y='(H-h)/2+200*cos(t/4)':shortest=1,noise=alls=10:allf=t,format=yuv420p[out0]`,
  ].join(";");
  const audio = `aevalsrc=exprs='0.3*sin(2*PI*(220+110*floor(mod(t*2\\,4)))*t)*exp(-5*mod(t\\,0.5))':s=48000:d=${seconds}`;
  return [
    "-f",
    "lavfi",
    "-i",
    video,
    "-f",
    "lavfi",
    "-i",
    audio,
    "-map",
    "0:v",
    "-map",
    "1:a",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-profile:v",
    "high",
    "-level:v",
    "4.0",
    "-b:v",
    "5000k",
    "-maxrate",
    "5500k",
    "-bufsize",
    "10000k",
    "-g",
    String(2 * FPS),
    "-threads",
    "2",
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-ac",
    "2",
    "-map_metadata",
    "-1",
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    file,
  ];
}

export async function buildBenchClip({ seconds = 60, log = console.log }: { seconds?: number; log?: (line: string) => void } = {}): Promise<{
  dir: string;
  source: string;
  result: PackResult;
}> {
  if (!Number.isInteger(seconds) || seconds < 60 || seconds > 3600) throw new RangeError(`the bench clip is 60–3600 whole seconds, not ${seconds}`);
  await mkdir(BENCH_DIR, { recursive: true });
  const key = createHash("sha256")
    .update(JSON.stringify([FFMPEG_VERSION, sourceArgs(seconds, "")]))
    .digest("hex")
    .slice(0, 12);
  const sourceFile = path.join(BENCH_DIR, `source-1080p-${seconds}s-${key}.mp4`);
  if (!existsSync(sourceFile)) {
    const started = performance.now();
    const tmp = `${sourceFile}.tmp-${process.pid}`;
    try {
      await runFfmpeg(sourceArgs(seconds, tmp));
      await rename(tmp, sourceFile);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    log(`bench: generated the ${seconds} s 1080p source in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const source = await fileSource(sourceFile, { width: WIDTH, height: HEIGHT, fps: FPS, duration: seconds });
  // One pack per length: the video bench (60 s) and the 一起看 bench (longer) do not repack each other's.
  const dir = path.join(BENCH_DIR, seconds === 60 ? "pack" : `pack-${seconds}s`);
  const { result, packed } = await packIfNeeded(source, {
    outDir: dir,
    rungs: LADDER,
    subtitleLines: ["「基准测试片段」", "1080p 源，约 5 Mbit/s，", "四档码率。"],
    progressiveHeight: 1080,
    threads: 0,
  });
  if (packed) log(`bench: packed in ${result.seconds} s`);
  await writeFile(
    path.join(BENCH_DIR, "source.json"),
    JSON.stringify({ file: path.basename(sourceFile), bytes: (await readFile(sourceFile)).length, seconds }, null, 2) + "\n",
  );
  for (const r of result.renditions) {
    log(
      `bench: ${String(r.height).padStart(4)}p ${r.codecs.join(",")}  average ${(r.averageBandwidth / 1e6).toFixed(2)} Mbit/s, ` +
        `peak 2 s segment ${(r.bandwidth / 1e6).toFixed(2)} Mbit/s, ${r.segments} segments, ${(r.bytes / 1e6).toFixed(1)} MB`,
    );
  }
  return { dir, source: sourceFile, result };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--seconds");
  buildBenchClip({ seconds: at > 0 ? Number(process.argv[at + 1]) : 60 }).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
