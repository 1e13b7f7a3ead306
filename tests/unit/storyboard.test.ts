import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  parseStoryboardVtt,
  sheetCount,
  spriteName,
  storyboardCueAt,
  storyboardInterval,
  storyboardLayout,
  tileAt,
  tileCount,
  writeStoryboardVtt,
} from "../../shared/stream/storyboard";
import { subtitleCues, subtitleLines, writeSubtitlePlaylist, writeSubtitlesVtt } from "../../shared/stream/subtitles";
import { formatVttTime, parseVtt, parseVttTime, VttError } from "../../shared/stream/webvtt";
import { parseMediaPlaylist } from "../../shared/stream/hls-parse";
import { streamFileKind } from "../../shared/stream/contract";

describe("storyboard layout", () => {
  it("takes a tile every 2 s for short clips and at most every 10 s for long titles", () => {
    expect(storyboardInterval(4)).toBe(2);
    expect(storyboardInterval(60)).toBe(2);
    expect(storyboardInterval(400)).toBe(2);
    expect(storyboardInterval(600)).toBe(3);
    expect(storyboardInterval(1000)).toBe(5);
    expect(storyboardInterval(45 * 60)).toBe(10);
    expect(storyboardInterval(2 * 3600 + 8 * 60)).toBe(10);
    expect(() => storyboardInterval(0)).toThrow(RangeError);
  });

  it("places tiles row by row in 10×10 sheets of 160×90", () => {
    const layout = storyboardLayout(600, 2);
    expect(layout).toMatchObject({ interval: 2, tileWidth: 160, tileHeight: 90, columns: 10, rows: 10 });
    expect(tileCount(layout)).toBe(300);
    expect(sheetCount(layout)).toBe(3);
    expect(tileAt(layout, 0)).toEqual({ index: 0, sheet: 0, x: 0, y: 0 });
    expect(tileAt(layout, 2.5)).toEqual({ index: 1, sheet: 0, x: 160, y: 0 });
    expect(tileAt(layout, 21)).toEqual({ index: 10, sheet: 0, x: 0, y: 90 });
    expect(tileAt(layout, 199.9)).toEqual({ index: 99, sheet: 0, x: 1440, y: 810 });
    expect(tileAt(layout, 200)).toEqual({ index: 100, sheet: 1, x: 0, y: 0 });
    // Clamped to the title.
    expect(tileAt(layout, -5).index).toBe(0);
    expect(tileAt(layout, 10_000).index).toBe(299);
    expect(tileAt(layout, Number.NaN).index).toBe(0);
  });

  it("counts a partial last interval as a tile", () => {
    expect(tileCount(storyboardLayout(61))).toBe(31);
    expect(tileCount(storyboardLayout(60))).toBe(30);
    expect(tileCount(storyboardLayout(0.5))).toBe(1);
  });
});

describe("storyboard.vtt", () => {
  const layout = storyboardLayout(61);
  const text = writeStoryboardVtt(layout, spriteName("0123abcd"));

  it("writes one cue per tile pointing at the sheet with #xywh, ending at the title's end", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("WEBVTT");
    expect(text).toContain("00:00:00.000 --> 00:00:02.000\nsb-0123abcd-0.jpg#xywh=0,0,160,90\n");
    expect(text).toContain("00:00:22.000 --> 00:00:24.000\nsb-0123abcd-0.jpg#xywh=160,90,160,90\n");
    expect(text.trimEnd().endsWith("00:01:00.000 --> 00:01:01.000\nsb-0123abcd-0.jpg#xywh=0,270,160,90")).toBe(true);
    expect(streamFileKind(spriteName("0123abcd")(3))).toBe("sprite");
  });

  it("parses back into cues, and finds the cue for any time in the title", () => {
    const cues = parseStoryboardVtt(text);
    expect(cues).toHaveLength(31);
    expect(cues[5]).toEqual({ start: 10, end: 12, url: "sb-0123abcd-0.jpg", x: 800, y: 0, w: 160, h: 90 });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 60.999, noNaN: true }), (t) => {
        const cue = storyboardCueAt(cues, t);
        const tile = tileAt(layout, t);
        expect(cue).not.toBeNull();
        expect(cue!.start <= t && t < cue!.end).toBe(true);
        expect([cue!.x, cue!.y]).toEqual([tile.x, tile.y]);
      }),
    );
    expect(storyboardCueAt(cues, 61)).toBeNull();
    expect(storyboardCueAt(cues, -1)).toBeNull();
    expect(storyboardCueAt([], 1)).toBeNull();
  });

  it("rejects cues that are not tiles", () => {
    expect(() => parseStoryboardVtt("WEBVTT\n\n00:00.000 --> 00:02.000\nhello\n")).toThrow(VttError);
    expect(() => parseStoryboardVtt("not vtt")).toThrow(VttError);
  });
});

describe("WebVTT", () => {
  it("formats and parses timestamps", () => {
    expect(formatVttTime(0)).toBe("00:00:00.000");
    expect(formatVttTime(3723.4567)).toBe("01:02:03.457");
    expect(parseVttTime("01:02:03.457")).toBe(3723.457);
    expect(parseVttTime("02:03.000")).toBe(123);
    expect(parseVttTime("1:2:3")).toBeNull();
    expect(() => formatVttTime(-1)).toThrow(RangeError);
  });

  it("parses headers, identifiers, settings and NOTE blocks", () => {
    const file = parseVtt(
      "\uFEFFWEBVTT\r\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\r\n\r\nNOTE hi\r\n\r\nid1\r\n00:01.000 --> 00:02.500 line:90%\r\n一行\r\n二行\r\n",
    );
    expect(file.header).toEqual(["X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000"]);
    expect(file.cues).toEqual([{ start: 1, end: 2.5, text: "一行\n二行" }]);
    expect(() => parseVtt("WEBVTT\n\n00:03.000 --> 00:02.000\nx\n")).toThrow(VttError);
  });
});

describe("zh-CN placeholder subtitles", () => {
  const lines = subtitleLines(
    "雾港来信",
    "一九四七年的雾港，邮差林默意外截下一封没有署名的信，信中预告了三天后的一桩命案。为了阻止悲剧，他循着邮戳走进了这座港城最深的秘密。",
  );

  it("opens with the title and splits the description into short lines", () => {
    expect(lines[0]).toBe("「雾港来信」");
    expect(lines.slice(1).join("")).toBe(
      "一九四七年的雾港，邮差林默意外截下一封没有署名的信，信中预告了三天后的一桩命案。为了阻止悲剧，他循着邮戳走进了这座港城最深的秘密。",
    );
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(36);
  });

  it("writes cues every few seconds over the whole clip with the X-TIMESTAMP-MAP header", () => {
    const text = writeSubtitlesVtt(subtitleCues(lines, 60), 0.08);
    const file = parseVtt(text);
    expect(file.header).toEqual(["X-TIMESTAMP-MAP=MPEGTS:7200,LOCAL:00:00:00.000"]);
    expect(file.cues[0]).toEqual({ start: 0.5, end: 4, text: "「雾港来信」" });
    expect(file.cues.length).toBe(15);
    expect(file.cues.at(-1)!.end).toBeLessThanOrEqual(60);
    for (let i = 1; i < file.cues.length; i++) expect(file.cues[i].start).toBeGreaterThanOrEqual(file.cues[i - 1].end);
  });

  it("has a one-segment playlist covering the whole duration", () => {
    const playlist = parseMediaPlaylist(writeSubtitlePlaylist(60));
    expect(playlist.segments).toEqual([{ duration: 60, uri: "subtitles-zh-CN.vtt" }]);
    expect(playlist.endList).toBe(true);
    expect(playlist.playlistType).toBe("VOD");
  });
});
