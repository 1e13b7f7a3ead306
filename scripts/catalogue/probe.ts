/**
 * Probes a media file with the packaged ffmpeg (`ffmpeg -i`, whose stream summary on stderr is
 * stable): duration, size, the first video stream's codec, size and frame rate, the first audio
 * stream's codec. A file ffmpeg cannot read as video is a ProbeError with a clear message.
 */
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { FFMPEG_PATH } from "../media/ffmpeg";

export class ProbeError extends Error {}

export interface MediaInfo {
  file: string;
  bytes: number;
  /** Seconds. */
  duration: number;
  video: { codec: string; width: number; height: number; fps: number };
  audio: { codec: string } | null;
}

/** Parses the stderr of `ffmpeg -i file` (exported for tests). */
export function parseProbe(stderr: string): Omit<MediaInfo, "file" | "bytes"> | null {
  const d = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const v = /Stream #\d+:\d+[^:]*: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})[^\n]*?, ([\d.]+) (?:fps|tbr)/.exec(stderr);
  if (!d || !v) return null;
  const a = /Stream #\d+:\d+[^:]*: Audio: (\w+)/.exec(stderr);
  const duration = Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]);
  if (!(duration > 0)) return null;
  return {
    duration,
    video: { codec: v[1], width: Number(v[2]), height: Number(v[3]), fps: Number(v[4]) },
    audio: a ? { codec: a[1] } : null,
  };
}

export async function probe(file: string): Promise<MediaInfo> {
  let bytes: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new ProbeError(`${file}: not a file`);
    bytes = s.size;
  } catch (error) {
    if (error instanceof ProbeError) throw error;
    throw new ProbeError(`${file}: cannot be read (${(error as Error).message})`);
  }
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn(FFMPEG_PATH, ["-hide_banner", "-nostdin", "-i", file], { stdio: ["ignore", "ignore", "pipe"] });
    let text = "";
    child.stderr.on("data", (d: Buffer) => (text = (text + d.toString()).slice(0, 64_000)));
    child.on("error", reject);
    child.on("close", () => resolve(text));
  });
  const info = parseProbe(stderr);
  if (!info) throw new ProbeError(`${file}: not a video ffmpeg can read (${stderr.trim().split("\n").pop() ?? "no streams"})`);
  return { file, bytes, ...info };
}
