// What the browser packer does with a source's audio (shared/upload/audio.ts,
// docs/decisions/0082-browser-upload-audio.md): AAC copied, other decodable audio encoded to AAC,
// silence for a file without audio, a Chinese refusal for audio this browser cannot decode; the
// AAC bitrates are the CLI's, one encode per distinct bitrate.
import { describe, expect, it } from "vitest";
import { LADDER, laddersFor } from "../../shared/stream/ladder";
import { audioBitrates, audioCodecName, audioPlan, audioPlanText, undecodableAudioProblem } from "../../shared/upload/audio";

const HINT = "请在电脑上用命令行打包：npm run catalogue -- add <文件>";

describe("audioPlan", () => {
  it("copies AAC, whether or not this browser decodes it", () => {
    expect(audioPlan({ codec: "aac", parameter: "mp4a.40.2", decodable: true }, HINT)).toEqual({ kind: "copy" });
    expect(audioPlan({ codec: "aac", parameter: "mp4a.40.5", decodable: false }, HINT)).toEqual({ kind: "copy" });
  });

  it("encodes any other audio this browser decodes, naming it as operators know it", () => {
    expect(audioPlan({ codec: "opus", parameter: "opus", decodable: true }, HINT)).toEqual({ kind: "encode", from: "Opus" });
    expect(audioPlan({ codec: "mp3", parameter: "mp4a.6B", decodable: true }, HINT)).toEqual({ kind: "encode", from: "MP3" });
    expect(audioPlan({ codec: "pcm-s16", parameter: "pcm-s16", decodable: true }, HINT)).toEqual({ kind: "encode", from: "PCM（未压缩）" });
  });

  it("adds silence to a file without audio", () => {
    expect(audioPlan(null, HINT)).toEqual({ kind: "silence" });
  });

  it("refuses audio this browser cannot decode, naming the codec and how to go on", () => {
    const plan = audioPlan({ codec: "ac3", parameter: "ac-3", decodable: false }, HINT);
    expect(plan.kind).toBe("refuse");
    const text = plan.kind === "refuse" ? plan.problem : "";
    expect(text).toMatch(/^这个文件的音频是 AC-3（杜比数字）（ac-3）；此浏览器无法解码这种音频/);
    expect(text).toContain("ffmpeg -i 原文件 -c:v copy -c:a aac");
    expect(text).toContain("或在电脑上用命令行打包：npm run catalogue -- add <文件>");
  });
});

describe("audioBitrates", () => {
  it("the CLI's per-rung bitrates, each distinct one once", () => {
    expect(LADDER.map((r) => r.audioKbps)).toEqual([48, 96, 96, 128]);
    expect(audioBitrates(laddersFor(1080))).toEqual([48, 96, 128]);
    expect(audioBitrates(laddersFor(720))).toEqual([48, 96]);
    expect(audioBitrates(laddersFor(360))).toEqual([48, 96]);
    expect(audioBitrates(laddersFor(200))).toEqual([48]);
  });
});

describe("audioPlanText", () => {
  const rungs = laddersFor(360);
  it("says in short what happens to the audio", () => {
    expect(audioPlanText({ kind: "copy" }, rungs)).toBe("AAC 直接复制");
    expect(audioPlanText({ kind: "encode", from: "Opus" }, rungs)).toBe("Opus → AAC 重新编码（48/96 kbit/s）");
    expect(audioPlanText({ kind: "silence" }, rungs)).toBe("无音轨 → 静音 AAC（48/96 kbit/s）");
    expect(audioPlanText({ kind: "refuse", problem: "…" }, rungs)).toBe("此浏览器无法解码，不能上传");
  });
});

describe("undecodableAudioProblem", () => {
  it("adds the codec string when it says more than the id", () => {
    expect(undecodableAudioProblem("mp3", "mp4a.6B", HINT)).toMatch(/^这个文件的音频是 MP3（mp4a\.6B）；/);
    expect(undecodableAudioProblem("opus", "opus", HINT)).toMatch(/^这个文件的音频是 Opus；/);
  });

  it("PCM, unknown and missing ids", () => {
    expect(audioCodecName("pcm-s16")).toBe("PCM（未压缩）");
    expect(audioCodecName("eac3")).toBe("E-AC-3（杜比数字+）");
    expect(audioCodecName("xyz")).toBe("xyz");
    expect(audioCodecName(null)).toBe("未知编码");
  });
});
