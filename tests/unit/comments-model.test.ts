// 评论区's pure rules (shared/comments/model.ts): a comment's text and a nickname as stored, page
// and id parameters, and the 最热 score.
import { describe, expect, it } from "vitest";
import { checkCommentText, checkNickname, hotScore, MAX_COMMENT_CHARS, parseCommentId, parsePage, parseSort } from "../../shared/comments/model";

describe("checkCommentText", () => {
  it("trims, drops invisible characters, keeps at most one empty line", () => {
    expect(checkCommentText("  你好\u200b世界\r\n\r\n\r\n\r\n再见  ")).toEqual({ ok: true, text: "你好世界\n\n再见" });
    expect(checkCommentText("👨‍👩‍👧 好看")).toEqual({ ok: true, text: "👨‍👩‍👧 好看" });
  });

  it("refuses empty, too long, control characters and blocked words (folded)", () => {
    expect(checkCommentText(" \u200b ")).toEqual({ ok: false, code: "empty" });
    expect(checkCommentText(42)).toEqual({ ok: false, code: "empty" });
    expect(checkCommentText("字".repeat(MAX_COMMENT_CHARS)).ok).toBe(true);
    expect(checkCommentText("字".repeat(MAX_COMMENT_CHARS + 1))).toEqual({ ok: false, code: "tooLong" });
    expect(checkCommentText("a\u202eb")).toEqual({ ok: false, code: "control" });
    expect(checkCommentText("a\u0007b")).toEqual({ ok: false, code: "control" });
    expect(checkCommentText("加 微 信 聊", ["加微信"])).toEqual({ ok: false, code: "blocked" });
  });
});

describe("checkNickname", () => {
  it("one line of 1–20 characters without blocked words", () => {
    expect(checkNickname("  小  明  ")).toEqual({ ok: true, text: "小 明" });
    expect(checkNickname("")).toEqual({ ok: false, code: "nicknameEmpty" });
    expect(checkNickname("长".repeat(21))).toEqual({ ok: false, code: "nicknameTooLong" });
    expect(checkNickname("a\nb")).toEqual({ ok: false, code: "nicknameControl" });
    expect(checkNickname("我是博彩", ["博彩"])).toEqual({ ok: false, code: "nicknameBlocked" });
  });
});

describe("parameters", () => {
  it("pages, ids and sorts from a query", () => {
    expect([parsePage(undefined), parsePage("2"), parsePage("0"), parsePage("x"), parsePage("999")]).toEqual([1, 2, 1, 1, 500]);
    expect([parseCommentId("12"), parseCommentId(12), parseCommentId("012"), parseCommentId("-1"), parseCommentId(null)]).toEqual([12, 12, null, null, null]);
    expect([parseSort("new"), parseSort("hot"), parseSort("x")]).toEqual(["new", "hot", "hot"]);
  });
});

describe("hotScore", () => {
  it("likes and replies count, age wears them down", () => {
    const now = 100 * 3_600_000;
    // A reply counts as two likes.
    expect(hotScore(2, 0, now, now)).toBe(hotScore(0, 1, now, now));
    expect(hotScore(0, 1, now, now)).toBeGreaterThan(hotScore(1, 0, now, now));
    expect(hotScore(10, 0, now - 24 * 3_600_000, now)).toBeLessThan(hotScore(0, 0, now, now));
    expect(hotScore(0, 0, now + 1000, now)).toBe(0.5);
  });
});
