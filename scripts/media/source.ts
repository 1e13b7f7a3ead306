/** What the packer reads: ffmpeg inputs giving one video and one audio stream, and an identity for versions. */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export interface SourceSpec {
  /**
   * ffmpeg input arguments (e.g. ["-i", file], or lavfi graphs). Video and audio come from inputs,
   * not from sources inside -filter_complex, so ffmpeg reads them in step and the muxers get
   * audio and video interleaved (a filter-graph source is starved by the other branch).
   */
  inputs: string[];
  /** Stream specifiers of the video (yuv420p at `fps`) and the audio, e.g. "0:v" and "1:a". */
  video: string;
  audio: string;
  width: number;
  height: number;
  fps: number;
  /** Seconds. */
  duration: number;
  /** Identifies the source bytes for versions and cache keys (a hash of a file, or the generator graph). */
  identity: string;
}

/** SHA-256 of a file's bytes (hex). */
export async function fileHash(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A source file (first video and first audio stream), identified by the hash of its bytes. */
export async function fileSource(file: string, info: { width: number; height: number; fps: number; duration: number }): Promise<SourceSpec> {
  return { inputs: ["-i", file], video: "0:v:0", audio: "0:a:0", ...info, identity: `file-sha256:${await fileHash(file)}` };
}
