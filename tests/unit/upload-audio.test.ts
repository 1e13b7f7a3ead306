// The browser packer's refusal of audio that is not AAC (shared/upload/audio.ts,
// docs/decisions/0082-browser-upload-audio.md): the codec by the name an operator knows, its codec
// string when it says more, and what to do — convert the audio to AAC first, or use the CLI.
import { describe, expect, it } from "vitest";
import { audioCodecName, notAacProblem } from "../../shared/upload/audio";

const HINT = "请在电脑上用命令行打包：npm run catalogue -- add <文件>";

describe("notAacProblem", () => {
  it("names the codec and says how to go on", () => {
    const text = notAacProblem("opus", "opus", HINT);
    expect(text).toMatch(/^这个文件的音频是 Opus；/);
    expect(text).toContain("ffmpeg -i 原文件 -c:v copy -c:a aac");
    expect(text).toContain("或在电脑上用命令行打包：npm run catalogue -- add <文件>");
  });

  it("adds the codec string when it says more than the id", () => {
    expect(notAacProblem("mp3", "mp4a.6B", HINT)).toMatch(/^这个文件的音频是 MP3（mp4a\.6B）；/);
  });

  it("PCM, unknown and missing ids", () => {
    expect(audioCodecName("pcm-s16")).toBe("PCM（未压缩）");
    expect(audioCodecName("eac3")).toBe("E-AC-3（杜比数字+）");
    expect(audioCodecName("xyz")).toBe("xyz");
    expect(audioCodecName(null)).toBe("未知编码");
  });
});
