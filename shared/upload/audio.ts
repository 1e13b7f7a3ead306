/**
 * The browser packer's answer to a source whose audio is not AAC
 * (docs/decisions/0082-browser-upload-audio.md): it copies AAC and converts nothing else, so the
 * page names the codec as an operator knows it, with its codec string, and says the two ways on —
 * make the audio AAC first (the video copied: seconds of work) or pack with the CLI. Pure.
 */

/** Names of mediabunny's audio codec ids, as operators know them. */
const AUDIO_CODEC_NAMES: Readonly<Record<string, string>> = {
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

/**
 * The refusal: `codec` the container's codec id, `parameter` its full codec string (e.g.
 * "mp4a.6B" for MP3 in MP4) when it says more, `cliHint` the sentence that points to the CLI.
 */
export function notAacProblem(codec: string | null, parameter: string | null, cliHint: string): string {
  const detail = parameter && parameter !== codec ? `（${parameter}）` : "";
  return (
    `这个文件的音频是 ${audioCodecName(codec)}${detail}；浏览器打包只直接使用 AAC 音频（iOS/Safari 与 Chromium 都能播放），不转换其他音频。` +
    `请先把音频转成 AAC 再上传（视频不变，例如：ffmpeg -i 原文件 -c:v copy -c:a aac -b:a 128k 新文件.mp4），或${cliHint.replace(/^请/, "")}`
  );
}
