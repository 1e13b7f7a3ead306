import { describe, expect, it } from "vitest";
import { convertSubtitles, detectSubtitleFormat, subtitlesToVtt } from "../../shared/stream/subtitle-convert";
import { masterWithSubtitles, subtitleLanguagesOf, timestampMapOf } from "../../shared/stream/subtitle-tracks";
import { parseMasterPlaylist } from "../../shared/stream/hls-parse";
import { parseStreamPath } from "../../shared/stream/contract";
import { parseVtt } from "../../shared/stream/webvtt";
import type { Video } from "../../shared/catalogue/types";

const SRT = "\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n<i>你好</i>，世界\r\n第二行\r\n\r\n2\r\n00:00:04,000 --> 00:00:05,000\r\n{\\an8}A & B <3\r\n\r\n";

const ASS = `[Script Info]
Title: 测试
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize
Style: Default,Arial,20

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:02.50,0:00:04.00,Default,,0,0,0,,{\\b1\\c&H00FFFF&}大家好，{\\i1}欢迎{\\i0}\\N第二行
Comment: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,不显示
Dialogue: 0,0:00:00.50,0:00:01.25,Default,,0,0,0,,Hello,\\hworld
`;

const VTT = `WEBVTT

intro
00:00.500 --> 00:02.000 align:start line:0
<v 旁白>开场 <b>白</b>

00:00:03.000 --> 00:00:04.000
二
`;

describe("subtitle conversion to WebVTT", () => {
  it("tells the three formats apart by content", () => {
    expect(detectSubtitleFormat(SRT)).toBe("srt");
    expect(detectSubtitleFormat(ASS)).toBe("ass");
    expect(detectSubtitleFormat(VTT)).toBe("vtt");
    expect(detectSubtitleFormat("just some text")).toBeNull();
  });

  it("SRT: keeps times (comma milliseconds) and text, drops tags, escapes & and <", () => {
    const result = convertSubtitles(SRT);
    expect(result).toEqual({
      ok: true,
      format: "srt",
      cues: [
        { start: 1, end: 3.5, text: "你好，世界\n第二行" },
        { start: 4, end: 5, text: "A &amp; B &lt;3" },
      ],
    });
  });

  it("ASS: Dialogue lines by the Format line, override blocks dropped, \\N as a new line, Comment skipped, sorted by start", () => {
    const result = convertSubtitles(ASS);
    if (!result.ok) throw new Error(result.message);
    expect(result.format).toBe("ass");
    expect(result.cues).toEqual([
      { start: 0.5, end: 1.25, text: "Hello, world" },
      { start: 2.5, end: 4, text: "大家好，欢迎\n第二行" },
    ]);
  });

  it("WebVTT: cue settings, identifiers and markup dropped, times kept", () => {
    const result = convertSubtitles(VTT);
    if (!result.ok) throw new Error(result.message);
    expect(result.cues).toEqual([
      { start: 0.5, end: 2, text: "开场 白" },
      { start: 3, end: 4, text: "二" },
    ]);
  });

  it("writes a WebVTT file that parses back to the same cues, with the stream's X-TIMESTAMP-MAP", () => {
    const result = convertSubtitles(SRT);
    if (!result.ok) throw new Error(result.message);
    const vtt = subtitlesToVtt(result.cues, ["X-TIMESTAMP-MAP=MPEGTS:7200,LOCAL:00:00:00.000"]);
    expect(timestampMapOf(vtt)).toBe("X-TIMESTAMP-MAP=MPEGTS:7200,LOCAL:00:00:00.000");
    expect(parseVtt(vtt).cues).toEqual(result.cues);
  });

  it("refuses what it cannot convert with a Chinese message", () => {
    expect(convertSubtitles("   \n")).toEqual({ ok: false, message: "字幕文件是空的" });
    expect(convertSubtitles("hello")).toEqual({ ok: false, message: "无法识别的字幕格式：请上传 SRT、ASS 或 WebVTT 文件" });
    const backwards = convertSubtitles("1\n00:00:05,000 --> 00:00:04,000\n倒了\n");
    expect(backwards.ok ? "" : backwards.message).toMatch(/^第 1 条字幕的结束时间不晚于开始时间/);
    const badClock = convertSubtitles("1\n00:00:01,000 --> 00:00:02,000\n好\n\n2\n00:00:03,000 --> 00:99:04,000\n坏\n");
    expect(badClock.ok ? "" : badClock.message).toMatch(/^第 2 条字幕的时间无法识别/);
    expect(convertSubtitles("WEBVTT\n\nNOTE only a note\n")).toEqual({ ok: false, message: "WebVTT 文件里没有可显示的字幕" });
    expect(convertSubtitles("[Script Info]\nTitle: x\n[Events]\nFormat: Start, End, Text\n")).toEqual({
      ok: false,
      message: "ASS 文件的 [Events] 部分没有对白（Dialogue）",
    });
  });
});

const MASTER = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="中文",LANGUAGE="zh-CN",DEFAULT=NO,AUTOSELECT=YES,URI="subtitles-zh-CN.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=480x270,CODECS="avc1.4d401e,mp4a.40.2",SUBTITLES="subs"
270p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=700000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2",FRAME-RATE=24.000
360p.m3u8
`;

describe("subtitle languages in the master playlist", () => {
  it("lists each language once with its name, in the menu's order, every variant in the group; nothing else changes", () => {
    const text = masterWithSubtitles(MASTER, ["en", "zh-CN", "zh-TW"]);
    const master = parseMasterPlaylist(text);
    expect(master.subtitles.map((s) => [s.name, s.language, s.uri])).toEqual([
      ["简体中文", "zh-CN", "subtitles-zh-CN.m3u8"],
      ["繁體中文", "zh-TW", "subtitles-zh-TW.m3u8"],
      ["English", "en", "subtitles-en.m3u8"],
    ]);
    expect(master.variants.map((v) => [v.uri, v.subtitles, v.frameRate])).toEqual([
      ["270p.m3u8", "subs", undefined],
      ["360p.m3u8", "subs", 24],
    ]);
    for (const s of master.subtitles) expect(parseStreamPath(`/stream/7/${s.uri}`)?.kind).toBe("subtitle-playlist");
    expect(masterWithSubtitles(text, ["en", "zh-CN", "zh-TW"])).toBe(text);
  });

  it("without languages, no subtitle group at all", () => {
    const master = parseMasterPlaylist(masterWithSubtitles(MASTER, []));
    expect(master.subtitles).toEqual([]);
    expect(master.variants.every((v) => v.subtitles === undefined)).toBe(true);
  });

  it("an entry's languages: the episode's own, else the title's for episode 1, else zh-CN", () => {
    const single = { subtitles: ["en", "zh-CN"] } as Pick<Video, "subtitles" | "episodes">;
    expect(subtitleLanguagesOf(single)).toEqual(["zh-CN", "en"]);
    expect(subtitleLanguagesOf({})).toEqual(["zh-CN"]);
    const series = {
      subtitles: ["zh-TW"],
      episodes: [
        { videoFile: "/1.mp4", duration: "10:00" },
        { videoFile: "/2.mp4", duration: "10:00", subtitles: [] },
        { videoFile: "/3.mp4", duration: "10:00" },
      ],
    } as Pick<Video, "subtitles" | "episodes">;
    expect([1, 2, 3].map((e) => subtitleLanguagesOf(series, e))).toEqual([["zh-TW"], [], ["zh-CN"]]);
  });
});
