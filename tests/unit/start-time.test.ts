// ?t= of a shared moment (shared/playback/start-time.ts): whole seconds only, and the link 从当前时间分享 writes.
import { describe, expect, it } from "vitest";
import { MAX_START_SECONDS, momentUrl, parseStartTime } from "../../shared/playback/start-time";

describe("the t parameter", () => {
  it("reads whole seconds from 1 to a day", () => {
    expect(parseStartTime("90")).toBe(90);
    expect(parseStartTime(String(MAX_START_SECONDS))).toBe(MAX_START_SECONDS);
  });

  it("ignores anything else: absent, 0, negative, fractions, units, too large, too long", () => {
    for (const bad of [null, "", "0", "-5", "1.5", "90s", "1m30s", "86401", "000000090", " 9", "abc"]) expect(parseStartTime(bad), String(bad)).toBeNull();
  });

  it("writes the page's link with the time rounded down, none at the start", () => {
    expect(momentUrl("https://yingshi.test", "/video/video_003/2", 83.9)).toBe("https://yingshi.test/video/video_003/2?t=83");
    expect(momentUrl("https://yingshi.test", "/video/video_001", 0.4)).toBe("https://yingshi.test/video/video_001");
  });
});
