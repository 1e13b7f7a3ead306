/**
 * What the browser packer does with a source's audio (docs/decisions/0082-browser-upload-audio.md),
 * to the CLI's contract: AAC is copied; any other audio this browser decodes is encoded to AAC-LC
 * (stereo 48 kHz at each rung's bitrate, shared/stream/ladder.ts), once per distinct bitrate as the
 * CLI does; a file without audio gets silent AAC, as the CLI adds; audio this browser cannot decode
 * is refused, naming the codec as an operator knows it and saying the two ways on — make the audio
 * AAC first (the video copied: seconds of work) or pack with the CLI. Pure.
 */
import type { Rung } from "../stream/ladder";

/** Names of mediabunny's audio codec ids, as operators know them. */
const AUDIO_CODEC_NAMES: Readonly<Record<string, string>> = {
  aac: "AAC",
  opus: "Opus",
  mp3: "MP3",
  vorbis: "Vorbis",
  flac: "FLAC",
  ac3: "AC-3（杜比数字）",
  eac3: "E-AC-3（杜比数字+）",
  dts: "DTS",
  ulaw: "μ-law",
  alaw: "A-law",
};

/** The codec's name (`pcm-*`: PCM; unknown ids as they are; null: 未知编码). */
export function audioCodecName(codec: string | null): string {
  if (codec === null) return "未知编码";
  return AUDIO_CODEC_NAMES[codec] ?? (codec.startsWith("pcm-") ? "PCM（未压缩）" : codec);
}

/** The source's audio track as the probe sees it. */
export interface SourceAudio {
  /** mediabunny's codec id ("aac", "opus", "pcm-s16" …), null when unknown. */
  codec: string | null;
  /** The full codec string (e.g. "mp4a.6B" for MP3 in MP4), null when unknown. */
  parameter: string | null;
  /** Whether this browser can decode it (mediabunny's `canDecode`). */
  decodable: boolean;
}

export type AudioPlan =
  /** The source's AAC packets into every rung and the progressive file (CODECS: the source's own string). */
  | { kind: "copy" }
  /** Decoded and encoded to AAC-LC; `from` the source codec's name. */
  | { kind: "encode"; from: string }
  /** No audio track: silence of the video's length, encoded to AAC-LC. */
  | { kind: "silence" }
  /** This browser cannot decode it: `problem` says so (Chinese) and what to do instead. */
  | { kind: "refuse"; problem: string };

/** What happens to `source`'s audio (null: the file has no audio track); `cliHint` the sentence that points to the CLI. */
export function audioPlan(source: SourceAudio | null, cliHint: string): AudioPlan {
  if (source === null) return { kind: "silence" };
  if (source.codec === "aac") return { kind: "copy" };
  if (!source.decodable) return { kind: "refuse", problem: undecodableAudioProblem(source.codec, source.parameter, cliHint) };
  return { kind: "encode", from: audioCodecName(source.codec) };
}

/** The AAC bitrates (kbit/s) to encode for `rungs`, each once, lowest first: the rungs that share one share its packets. */
export function audioBitrates(rungs: ReadonlyArray<Pick<Rung, "audioKbps">>): number[] {
  return [...new Set(rungs.map((r) => r.audioKbps))].sort((a, b) => a - b);
}

/** The probe's short line on the audio (e.g. "Opus → AAC 重新编码（48/96 kbit/s）"). */
export function audioPlanText(plan: AudioPlan, rungs: ReadonlyArray<Pick<Rung, "audioKbps">>): string {
  const rates = `（${audioBitrates(rungs).join("/")} kbit/s）`;
  switch (plan.kind) {
    case "copy":
      return "AAC 直接复制";
    case "encode":
      return `${plan.from} → AAC 重新编码${rates}`;
    case "silence":
      return `无音轨 → 静音 AAC${rates}`;
    case "refuse":
      return "此浏览器无法解码，不能上传";
  }
}

/**
 * The refusal of audio this browser cannot decode: `codec` the container's codec id, `parameter`
 * its full codec string when it says more, `cliHint` the sentence that points to the CLI.
 */
export function undecodableAudioProblem(codec: string | null, parameter: string | null, cliHint: string): string {
  const detail = parameter && parameter !== codec ? `（${parameter}）` : "";
  return (
    `这个文件的音频是 ${audioCodecName(codec)}${detail}；此浏览器无法解码这种音频，不能把它转成 AAC（iOS/Safari 与 Chromium 都能播放）。` +
    `请先把音频转成 AAC 再上传（视频不变，例如：ffmpeg -i 原文件 -c:v copy -c:a aac -b:a 128k 新文件.mp4），或${cliHint.replace(/^请/, "")}`
  );
}
