import { describe, expect, it } from "vitest";
import { AAC_LC_CODEC, avcCodec, writeMasterPlaylist, writeMediaPlaylist, type HlsVariant } from "../../shared/stream/hls";
import { parseAttributes, parseMasterPlaylist, parseMediaPlaylist, PlaylistError } from "../../shared/stream/hls-parse";

const SUBS = { groupId: "subs", name: "中文", language: "zh-CN", isDefault: false, autoselect: true, uri: "subtitles-zh-CN.m3u8" };

const variant = (height: number, bandwidth: number): HlsVariant => ({
  bandwidth,
  averageBandwidth: Math.round(bandwidth * 0.8),
  width: (height * 16) / 9,
  height,
  codecs: [height > 360 ? "avc1.64001f" : "avc1.4d401e", AAC_LC_CODEC],
  frameRate: 25,
  subtitles: "subs",
  uri: `${height}p.m3u8`,
});

describe("master playlist", () => {
  it("lists variants lowest bandwidth first with every attribute, and the zh-CN subtitles", () => {
    const text = writeMasterPlaylist({ variants: [variant(720, 2_300_000), variant(270, 380_000), variant(360, 720_000)], subtitles: [SUBS] });
    const lines = text.trim().split("\n");
    expect(lines.slice(0, 3)).toEqual(["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]);
    expect(lines).toContain('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="中文",LANGUAGE="zh-CN",DEFAULT=NO,AUTOSELECT=YES,URI="subtitles-zh-CN.m3u8"');
    expect(lines.filter((l) => !l.startsWith("#"))).toEqual(["270p.m3u8", "360p.m3u8", "720p.m3u8"]);
    expect(lines).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=380000,AVERAGE-BANDWIDTH=304000,RESOLUTION=480x270,CODECS="avc1.4d401e,mp4a.40.2",FRAME-RATE=25.000,SUBTITLES="subs"',
    );
  });

  it("parses back what it writes", () => {
    const variants = [variant(270, 380_000), variant(360, 720_000), variant(720, 2_300_000)];
    const parsed = parseMasterPlaylist(writeMasterPlaylist({ variants, subtitles: [SUBS] }));
    expect(parsed.version).toBe(7);
    expect(parsed.independentSegments).toBe(true);
    expect(parsed.variants).toEqual(variants);
    expect(parsed.subtitles).toEqual([SUBS]);
  });

  it("parses other writers' masters: CRLF, attribute order, quoted commas, unknown tags", () => {
    const text = [
      "#EXTM3U",
      "#EXT-X-VERSION:6",
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",URI="a.m3u8"',
      '#EXT-X-STREAM-INF:CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,BANDWIDTH=5000000,CLOSED-CAPTIONS=NONE',
      "hi/index.m3u8",
      "#EXT-X-STREAM-INF:BANDWIDTH=400000",
      "lo.m3u8",
      "",
    ].join("\r\n");
    const parsed = parseMasterPlaylist(text);
    expect(parsed.subtitles).toEqual([]);
    expect(parsed.variants.map((v) => [v.uri, v.bandwidth, v.width, v.height, v.codecs])).toEqual([
      ["hi/index.m3u8", 5_000_000, 1920, 1080, ["avc1.640028", "mp4a.40.2"]],
      ["lo.m3u8", 400_000, 0, 0, []],
    ]);
  });

  it("rejects what is not a master playlist", () => {
    expect(() => parseMasterPlaylist("<html>")).toThrow(PlaylistError);
    expect(() => parseMasterPlaylist("#EXTM3U\n#EXT-X-VERSION:7\n")).toThrow(/without variants/);
    expect(() => parseMasterPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8\n")).toThrow(/BANDWIDTH/);
    expect(() => parseMasterPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n")).toThrow(/without a URI/);
    expect(() => parseMasterPlaylist(writeMediaPlaylist({ segments: [{ duration: 2, uri: "a.m4s" }] }))).toThrow(/media playlist/);
  });

  it("refuses to write a broken master", () => {
    expect(() => writeMasterPlaylist({ variants: [] })).toThrow(RangeError);
    expect(() => writeMasterPlaylist({ variants: [{ ...variant(270, 1), subtitles: "nope" }] })).toThrow(/subtitle group/);
    expect(() => writeMasterPlaylist({ variants: [{ ...variant(270, 0) }], subtitles: [SUBS] })).toThrow(/BANDWIDTH/);
    expect(() => writeMasterPlaylist({ variants: [{ ...variant(270, 1), uri: "a\n#EXT-X-ENDLIST" }], subtitles: [SUBS] })).toThrow(/URI/);
  });
});

describe("media playlist", () => {
  const segments = [
    { duration: 2, uri: "360p-0123abcd-00000.m4s" },
    { duration: 2, uri: "360p-0123abcd-00001.m4s" },
    { duration: 1.04, uri: "360p-0123abcd-00002.m4s" },
  ];

  it("writes a VOD CMAF playlist with the map, the tags and the end", () => {
    const text = writeMediaPlaylist({ segments, map: "360p-0123abcd-init.mp4" });
    expect(text).toBe(
      [
        "#EXTM3U",
        "#EXT-X-VERSION:7",
        "#EXT-X-TARGETDURATION:2",
        "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PLAYLIST-TYPE:VOD",
        "#EXT-X-INDEPENDENT-SEGMENTS",
        '#EXT-X-MAP:URI="360p-0123abcd-init.mp4"',
        "#EXTINF:2.0,",
        "360p-0123abcd-00000.m4s",
        "#EXTINF:2.0,",
        "360p-0123abcd-00001.m4s",
        "#EXTINF:1.04,",
        "360p-0123abcd-00002.m4s",
        "#EXT-X-ENDLIST",
        "",
      ].join("\n"),
    );
  });

  it("rounds the target duration to the nearest second of the longest segment", () => {
    const parsed = parseMediaPlaylist(writeMediaPlaylist({ segments: [{ duration: 60.48, uri: "subtitles-zh-CN.vtt" }] }));
    expect(parsed.targetDuration).toBe(60);
    expect(parsed.map).toBeNull();
  });

  it("parses back what it writes", () => {
    const parsed = parseMediaPlaylist(writeMediaPlaylist({ segments, map: "360p-0123abcd-init.mp4" }));
    expect(parsed).toEqual({
      version: 7,
      targetDuration: 2,
      mediaSequence: 0,
      playlistType: "VOD",
      independentSegments: true,
      map: "360p-0123abcd-init.mp4",
      segments,
      endList: true,
    });
  });

  it("rejects broken media playlists", () => {
    expect(() => parseMediaPlaylist("")).toThrow(PlaylistError);
    expect(() => parseMediaPlaylist("#EXTM3U\n#EXTINF:2,\na.m4s\n")).toThrow(/TARGETDURATION/);
    expect(() => parseMediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:2\na.m4s\n")).toThrow(/without EXTINF/);
    expect(() => parseMediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:x,\na.m4s\n")).toThrow(/EXTINF/);
    expect(() => parseMediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n")).toThrow(/without a segment/);
    expect(() => parseMediaPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n")).toThrow(/master/);
    expect(() => writeMediaPlaylist({ segments: [] })).toThrow(RangeError);
    expect(() => writeMediaPlaylist({ segments: [{ duration: 0, uri: "a" }] })).toThrow(RangeError);
  });
});

describe("attributes and codecs", () => {
  it("keeps commas inside quoted values", () => {
    expect([...parseAttributes('CODECS="avc1.4d401e,mp4a.40.2",BANDWIDTH=1,NAME="a b"')]).toEqual([
      ["CODECS", "avc1.4d401e,mp4a.40.2"],
      ["BANDWIDTH", "1"],
      ["NAME", "a b"],
    ]);
    expect(() => parseAttributes('BANDWIDTH=1,CODECS="unterminated')).toThrow(PlaylistError);
  });

  it("writes avc1.PPCCLL from the avcC bytes", () => {
    expect(avcCodec(0x4d, 0x40, 0x1e)).toBe("avc1.4d401e");
    expect(avcCodec(100, 0, 40)).toBe("avc1.640028");
    expect(() => avcCodec(256, 0, 0)).toThrow(RangeError);
  });
});
