import { describe, expect, it } from "vitest";
import { nearestShareFrame, shareFrameCount, shareFrameName, shareImagePath } from "../../shared/stream/share-frames";
import { streamFileKind } from "../../shared/stream/contract";

describe("link-preview frames of a ?t= link", () => {
  it("has one frame at every 10 s below the end", () => {
    expect(shareFrameCount(7720)).toBe(772);
    expect(shareFrameCount(7721)).toBe(773);
    expect(shareFrameCount(3)).toBe(1);
    expect(shareFrameCount(0)).toBe(1);
  });

  it("chooses the nearest frame, the last one past the end", () => {
    expect(nearestShareFrame(1, 120)).toBe(0);
    expect(nearestShareFrame(4, 120)).toBe(0);
    expect(nearestShareFrame(5, 120)).toBe(1);
    expect(nearestShareFrame(123, 7720)).toBe(12);
    expect(nearestShareFrame(126, 7720)).toBe(13);
    expect(nearestShareFrame(118, 120)).toBe(11); // 12 would be at 120 s, the end
    expect(nearestShareFrame(86_400, 7720)).toBe(771);
  });

  it("names frames within the stream contract and links the route", () => {
    expect(shareFrameName(12)).toBe("frame-00012.jpg");
    expect(streamFileKind(shareFrameName(771))).toBe("frame");
    expect(streamFileKind("frame-12.jpg")).toBeNull();
    expect(shareImagePath("video_001", 123, null)).toBe("/share-image/video_001?t=123");
    expect(shareImagePath("video_003", 600, 2)).toBe("/share-image/video_003?t=600&e=2");
  });
});
