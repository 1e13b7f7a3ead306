// 投屏 (shared/playback/cast.ts, decision 0105): which way a browser casts, what URL the screen gets, the notices.
import { describe, expect, it } from "vitest";
import { castFailureText, castSource, castWayOf } from "../../shared/playback/cast";

const PAGE = "https://yingshi.example/video/video_001";

describe("the way to a screen", () => {
  it("AirPlay where Safari has its picker (also next to `remote`), the Remote Playback API elsewhere, none without either", () => {
    expect(castWayOf({ airplay: true, remotePlayback: true })).toBe("airplay");
    expect(castWayOf({ airplay: true, remotePlayback: false })).toBe("airplay");
    expect(castWayOf({ airplay: false, remotePlayback: true })).toBe("remote");
    expect(castWayOf({ airplay: false, remotePlayback: false })).toBeNull();
  });
});

describe("what the screen gets", () => {
  it("the element's own http(s) source as it is, absolute (native HLS, the MP4, a 线路 of another host)", () => {
    expect(castSource("https://yingshi.example/stream/1/master.m3u8", "/1.mp4", PAGE)).toEqual({
      url: "https://yingshi.example/stream/1/master.m3u8",
      switchToProgressive: false,
    });
    expect(castSource("/1.mp4", "/1.mp4", PAGE)).toEqual({ url: "https://yingshi.example/1.mp4", switchToProgressive: false });
    expect(castSource("https://cdn.example/v/1/index.m3u8", "/1.mp4", PAGE).url).toBe("https://cdn.example/v/1/index.m3u8");
  });

  it("for a blob: of hls.js (or no source yet) the site's progressive MP4 as an absolute URL, after a switch", () => {
    for (const current of ["blob:https://yingshi.example/5b1c2d3e-0000-4000-8000-000000000000", ""]) {
      expect(castSource(current, "/10302.mp4", PAGE), current).toEqual({ url: "https://yingshi.example/10302.mp4", switchToProgressive: true });
    }
  });
});

describe("notices", () => {
  it("none when the viewer closed the picker; no device; anything else", () => {
    expect(castFailureText("NotAllowedError")).toBeNull();
    expect(castFailureText("AbortError")).toBeNull();
    expect(castFailureText("NotFoundError")).toBe("未找到可投屏的设备");
    expect(castFailureText("NotSupportedError")).toBe("暂时无法投屏，请稍后再试");
  });
});
