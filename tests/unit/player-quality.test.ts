import { describe, expect, it } from "vitest";
import { chooseEngine, FAST_LINK_MBPS, isFastLink } from "../../shared/playback/engine-choice";
import {
  autoLabel,
  choiceLabel,
  levelForChoice,
  levelForLink,
  levelLabel,
  LINK_SHARE,
  nearestHeight,
  qualityName,
  type Level,
} from "../../shared/playback/quality";

const level = (height: number, bandwidth: number): Level => ({ height, bandwidth, url: `/stream/1/${height}p.m3u8` });
const LADDER = [level(270, 420_000), level(360, 850_000), level(720, 2_600_000), level(1080, 5_300_000)];

describe("清晰度 labels (the names Chinese video sites use)", () => {
  it("names each usual height", () => {
    expect([2160, 1080, 720, 480, 360, 270, 240].map(levelLabel)).toEqual([
      "2160P 超清 4K",
      "1080P 高清",
      "720P 清晰",
      "480P 标清",
      "360P 流畅",
      "270P 极速",
      "240P 极速",
    ]);
    expect(qualityName(1440)).toBe("高清");
  });

  it("automatic shows the height in use once known", () => {
    expect(autoLabel(null)).toBe("自动");
    expect(autoLabel(720)).toBe("自动(720P)");
    expect(choiceLabel("auto")).toBe("自动");
    expect(choiceLabel(360)).toBe("360P");
  });
});

describe("levelForLink (a room member on the browser's own HLS)", () => {
  it("plays the highest rendition whose peak takes at most LINK_SHARE of the link", () => {
    // Slow 4G as Chromium estimates it: 1.6 Mbit/s leaves 1.12 for the video — 360P (0.85), not 720P (2.6).
    expect(levelForLink(LADDER, 1.6)?.height).toBe(360);
    expect(levelForLink(LADDER, 2_600_000 / LINK_SHARE / 1e6)?.height).toBe(720);
    expect(levelForLink(LADDER, 2_599_000 / LINK_SHARE / 1e6)?.height).toBe(360);
  });

  it("falls back to the lowest rendition on a link slower than all of them", () => {
    expect(levelForLink(LADDER, 0.3)?.height).toBe(270);
  });

  it("leaves automatic alone where the top rendition fits, or there is no estimate or no ladder", () => {
    expect(levelForLink(LADDER, 10)).toBeNull();
    expect(levelForLink(LADDER, undefined)).toBeNull();
    expect(levelForLink(LADDER, 0)).toBeNull();
    expect(levelForLink([], 1.6)).toBeNull();
  });
});

describe("levelForChoice", () => {
  it("plays the chosen height, else the best one below it, else the lowest", () => {
    expect(levelForChoice(LADDER, 720)?.height).toBe(720);
    expect(levelForChoice(LADDER, 1080)?.height).toBe(1080);
    expect(levelForChoice(LADDER.slice(0, 3), 1080)?.height).toBe(720); // a 720p title, 1080P remembered
    expect(levelForChoice(LADDER, 480)?.height).toBe(360);
    expect(levelForChoice(LADDER, 144)?.height).toBe(270);
  });

  it("is null for automatic and for a title without renditions", () => {
    expect(levelForChoice(LADDER, "auto")).toBeNull();
    expect(levelForChoice([], 720)).toBeNull();
  });
});

describe("nearestHeight", () => {
  it("maps a decoded picture height to the nearest rendition", () => {
    expect(nearestHeight(LADDER, 720)).toBe(720);
    expect(nearestHeight(LADDER, 272)).toBe(270);
    expect(nearestHeight(LADDER, 0)).toBeNull();
    expect(nearestHeight([], 480)).toBe(480);
  });
});

describe("chooseEngine", () => {
  it("prefers the browser's own HLS, then hls.js over MSE, then the MP4", () => {
    expect(chooseEngine({ nativeHls: true, mse: true })).toBe("native");
    expect(chooseEngine({ nativeHls: false, mse: true })).toBe("hlsjs");
    expect(chooseEngine({ nativeHls: false, mse: false })).toBe("progressive");
  });

  it("plays with hls.js where the browser has both and its own estimate of the link is fast", () => {
    expect(chooseEngine({ nativeHls: true, mse: true, fastLink: true })).toBe("hlsjs");
    expect(chooseEngine({ nativeHls: true, mse: true, fastLink: false })).toBe("native");
    expect(chooseEngine({ nativeHls: true, mse: false, fastLink: true })).toBe("native");
    expect(chooseEngine({ nativeHls: true, mse: true, fastLink: true }, "native")).toBe("native");
  });

  it("counts a link as fast from FAST_LINK_MBPS of estimate, never with data saving or without an estimate", () => {
    expect(isFastLink({ downlink: FAST_LINK_MBPS })).toBe(true);
    expect(isFastLink({ downlink: 10 })).toBe(true);
    expect(isFastLink({ downlink: FAST_LINK_MBPS - 0.1 })).toBe(false);
    expect(isFastLink({ downlink: 10, saveData: true })).toBe(false);
    expect(isFastLink({})).toBe(false);
    expect(isFastLink(undefined)).toBe(false);
  });

  it("honours a forced engine only where it can run", () => {
    expect(chooseEngine({ nativeHls: true, mse: true }, "hlsjs")).toBe("hlsjs");
    expect(chooseEngine({ nativeHls: false, mse: true }, "native")).toBe("hlsjs");
    expect(chooseEngine({ nativeHls: true, mse: false }, "hlsjs")).toBe("native");
    expect(chooseEngine({ nativeHls: true, mse: true }, "progressive")).toBe("progressive");
    expect(chooseEngine({ nativeHls: true, mse: true }, "bogus")).toBe("native");
  });
});
