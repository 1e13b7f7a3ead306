// 评分's pure rules (shared/ratings.ts): which scores are valid, their star rows and words, the
// average and the threshold from which the viewers' average counts.
import { describe, expect, it } from "vitest";
import {
  averageOf,
  isRatingScore,
  NO_RATINGS,
  RATING_MIN_COUNT,
  scoreLabel,
  starRowOf,
  starShares,
  starsOf,
  summaryOf,
  viewerScore,
} from "../../shared/ratings";

describe("shared/ratings", () => {
  it("accepts whole scores from 1 to 10 only", () => {
    for (const ok of [1, 5, 10]) expect(isRatingScore(ok)).toBe(true);
    for (const bad of [0, 11, 7.5, "8", null, undefined, NaN, -3]) expect(isRatingScore(bad)).toBe(false);
  });

  it("shows 10 points as 5 stars with halves, with Douban's words", () => {
    expect([1, 2, 3, 8, 9, 10].map(starRowOf)).toEqual([1, 1, 2, 4, 5, 5]);
    expect([1, 7, 8.3, 8.8, 10].map(starsOf)).toEqual([0.5, 3.5, 4, 4.5, 5]);
    expect(scoreLabel(8)).toBe("4星 推荐");
    expect(scoreLabel(1)).toBe("0.5星 很差");
    expect(scoreLabel(10)).toBe("5星 力荐");
  });

  it("averages to one decimal and counts the viewers' average from RATING_MIN_COUNT ratings on", () => {
    expect(averageOf(98, 10)).toBe(9.8);
    expect(averageOf(20, 3)).toBe(6.7);
    expect(averageOf(0, 0)).toBeNull();
    const totals = { count: RATING_MIN_COUNT - 1, sum: 90, s1: 0, s2: 0, s3: 0, s4: 0, s5: 9 };
    expect(viewerScore(summaryOf(totals))).toBeNull();
    expect(viewerScore(summaryOf({ ...totals, count: RATING_MIN_COUNT, sum: 98, s4: 1 }))).toBe(9.8);
    expect(summaryOf(null)).toBe(NO_RATINGS);
    expect(starShares(summaryOf({ count: 4, sum: 26, s1: 0, s2: 1, s3: 0, s4: 2, s5: 1 }))).toEqual([25, 50, 0, 25, 0]);
  });
});
