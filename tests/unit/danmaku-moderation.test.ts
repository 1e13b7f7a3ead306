// 弹幕管理's pure rules (shared/danmaku/moderation.ts): mute lengths and the muted poster's
// message in Beijing time, comment references of the forms, and the list's filters.
import { describe, expect, it } from "vitest";
import { danmakuListQuery, muteHolds, muteMessage, muteUntil, parseCommentRef } from "../../shared/danmaku/moderation";

const NOW = Date.parse("2026-11-27T07:00:00Z");

describe("mutes", () => {
  it("last 1, 7 or 30 days or for good; anything else is refused", () => {
    expect(muteUntil("1", NOW)).toBe(NOW + 86_400_000);
    expect(muteUntil("7", NOW)).toBe(NOW + 7 * 86_400_000);
    expect(muteUntil(30, NOW)).toBe(NOW + 30 * 86_400_000);
    expect(muteUntil("forever", NOW)).toBeNull();
    for (const bad of ["2", "0", "", "-1", null, undefined, {}, "1.5"]) expect(muteUntil(bad, NOW), JSON.stringify(bad)).toBeUndefined();
  });

  it("tell the poster until when in Beijing time, or that it is for good", () => {
    expect(muteMessage(Date.parse("2026-12-04T07:30:00Z"))).toBe("你已被禁言至2026-12-04 15:30（北京时间）");
    expect(muteMessage(Date.parse("2026-12-31T16:05:00Z"))).toBe("你已被禁言至2027-01-01 00:05（北京时间）");
    expect(muteMessage(null)).toBe("你已被永久禁言");
  });

  it("hold until their time has come; for good always", () => {
    expect(muteHolds(NOW + 1, NOW)).toBe(true);
    expect(muteHolds(NOW, NOW)).toBe(false);
    expect(muteHolds(null, NOW)).toBe(true);
  });
});

describe("comment references", () => {
  it("are a room key and a positive id", () => {
    expect(parseCommentRef("video_001:12")).toEqual({ room: "video_001", id: 12 });
    expect(parseCommentRef("video_001~3:1")).toEqual({ room: "video_001~3", id: 1 });
    for (const bad of ["video_001:0", "video_001:x", ":1", "video_001", "video_001~0:1", "../x:1", "video_001:1.5", 5, null]) {
      expect(parseCommentRef(bad), String(bad)).toBeNull();
    }
  });
});

describe("the list's filters", () => {
  it("keep what is well formed and drop the rest", () => {
    const q = (values: Record<string, string>) => danmakuListQuery((name) => values[name]);
    expect(q({ title: " 武冈 ", episode: "3", user: "A@Example.com", text: "好", from: "2026-11-01", to: "2026-11-30", before: "40" })).toEqual({
      title: "武冈",
      episode: "3",
      user: "a@example.com",
      text: "好",
      from: "2026-11-01",
      to: "2026-11-30",
      before: 40,
    });
    expect(q({ episode: "0", from: "yesterday", to: "2026-1-1", before: "-3" })).toMatchObject({ episode: "", from: "", to: "", before: null });
  });
});
