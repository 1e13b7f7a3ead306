/** Runs the ffmpeg binary of @ffmpeg-installer/ffmpeg (a 2018 static build: libx264, AAC, libwebp, mjpeg). */
import { spawn } from "node:child_process";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";

export const FFMPEG_PATH: string = ffmpegInstaller.path;
/** Part of every cache key: a different ffmpeg makes different bytes. */
export const FFMPEG_VERSION: string = ffmpegInstaller.version;

const COMMON = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"];

/** Runs ffmpeg with the given arguments; rejects with the tail of its stderr when it fails. */
export function runFfmpeg(args: readonly string[], options: { cwd?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG_PATH, [...COMMON, ...args], { stdio: ["ignore", "ignore", "pipe"], cwd: options.cwd });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code ?? signal}:\n${stderr}`))));
  });
}
