// When the player saves the watch position and which one (shared/playback/playback-memory.ts, used
// by shared/player/usePlaybackMemory.ts). Which position is offered back (从 m:ss 继续播放, none
// near the start or the end) is resumePosition's, tested in tests/unit/library.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { playerConfig } from "../../shared/playback/config";
import { canSavePosition, positionToSave, savePositionDue } from "../../shared/playback/playback-memory";

describe("canSavePosition", () => {
  it("saves once the length is known and playback has left 0, unless the player gave up on the video", () => {
    expect(canSavePosition({ currentTime: 12, duration: 100 }, false)).toBe(true);
    expect(canSavePosition({ currentTime: 12, duration: 100 }, true)).toBe(false);
    expect(canSavePosition({ currentTime: 0, duration: 100 }, false)).toBe(false);
    expect(canSavePosition({ currentTime: 12, duration: 0 }, false)).toBe(false);
  });

  it("an unknown length (NaN before the metadata, as <video> reports it) is never saved", () => {
    expect(canSavePosition({ currentTime: 12, duration: NaN }, false)).toBe(false);
    expect(canSavePosition({ currentTime: NaN, duration: 100 }, false)).toBe(false);
  });

  it("a live-like stream of unbounded length still saves (duration Infinity)", () => {
    expect(canSavePosition({ currentTime: 12, duration: Infinity }, false)).toBe(true);
  });
});

describe("savePositionDue", () => {
  const every = playerConfig.saveEverySeconds;

  it(`saves every ${playerConfig.saveEverySeconds} s of playback, and after a seek back as far`, () => {
    expect(savePositionDue(every - 0.01, 0)).toBe(false);
    expect(savePositionDue(every, 0)).toBe(true);
    expect(savePositionDue(40, 40 + every)).toBe(true);
    expect(savePositionDue(40, 42)).toBe(false);
  });

  it("property: due exactly when playback is at least the interval away from the last save, either way", () => {
    const time = fc.double({ min: 0, max: 20_000, noNaN: true });
    fc.assert(
      fc.property(time, time, fc.integer({ min: 1, max: 60 }), (now, last, seconds) => {
        expect(savePositionDue(now, last, seconds)).toBe(Math.abs(now - last) >= seconds);
        expect(savePositionDue(last, now, seconds)).toBe(savePositionDue(now, last, seconds));
      }),
    );
  });
});

describe("positionToSave", () => {
  it("without an offer, where the video is", () => {
    expect(positionToSave(37.5, null)).toBe(37.5);
  });

  it("while 从 m:ss 继续播放 is offered, the autoplay from the start does not overwrite the offered position", () => {
    expect(positionToSave(3, 754)).toBe(754);
  });

  it("past the offered position (the visitor watched on), where the video is", () => {
    expect(positionToSave(800, 754)).toBe(800);
    expect(positionToSave(754, 754)).toBe(754);
  });

  it("property: never before the offered position, and always where the video is once past it", () => {
    const time = fc.double({ min: 0, max: 20_000, noNaN: true });
    fc.assert(
      fc.property(time, fc.option(time, { nil: null }), (now, offered) => {
        const saved = positionToSave(now, offered);
        expect(saved).toBe(offered === null ? now : Math.max(now, offered));
        expect([now, offered]).toContain(saved);
      }),
    );
  });
});
