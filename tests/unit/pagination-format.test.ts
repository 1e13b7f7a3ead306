import { describe, expect, it } from "vitest";
import { daysSince, durationSeconds, formatDate, formatRating, formatTime, formatViews, isoDuration } from "../../shared/format";
import { serializeForScript } from "../../shared/hydration";
import { pageCount, pageSlice, pageWindow, parsePage } from "../../shared/pagination";
import { pickRandom, randomInt, seededRng } from "../../shared/random";
import { searchHref } from "../../shared/components/Header";

describe("pagination window", () => {
  it("first, middle and last page of many", () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 10)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
  });
  it("fewer than 5 pages", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(4, 4)).toEqual([1, 2, 3, 4]);
  });
  it("counts and slices", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(12)).toBe(1);
    expect(pageCount(13)).toBe(2);
    expect(pageSlice([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
  });
  it("parses page numbers strictly", () => {
    expect(parsePage("3", 5)).toBe(3);
    for (const raw of [null, "abc", "0", "6", "-1", "2.0", " 2", "0002"]) expect(parsePage(raw, 5), String(raw)).toBe(1);
  });
});

describe("formatting", () => {
  it("player time is h:mm:ss or m:ss", () => {
    expect(formatTime(0)).toBe("0:00");
    expect(formatTime(59.9)).toBe("0:59");
    expect(formatTime(754)).toBe("12:34");
    expect(formatTime(3600)).toBe("1:00:00");
    expect(formatTime(8130)).toBe("2:15:30");
    expect(formatTime(Number.NaN)).toBe("0:00");
    expect(formatTime(-5)).toBe("0:00");
  });
  it("catalogue durations to seconds and ISO 8601", () => {
    expect(durationSeconds("02:15:30")).toBe(8130);
    expect(durationSeconds("45:00")).toBe(2700);
    expect(durationSeconds("bad")).toBe(0);
    expect(isoDuration("02:15:30")).toBe("PT2H15M30S");
    expect(isoDuration("45:00")).toBe("PT45M");
    expect(isoDuration("00:00")).toBe("PT0S");
  });
  it("views, ratings and dates", () => {
    expect(formatViews(1234)).toBe("1234");
    expect(formatViews(12345)).toBe("1.2万");
    expect(formatRating(9)).toBe("9.0");
    expect(formatDate("2025-03-04T10:00:00Z")).toBe("2025年3月4日");
    expect(formatDate("nope")).toBe("");
    expect(daysSince("2025-01-01T00:00:00Z", Date.parse("2025-01-01T12:00:00Z"))).toBe(1);
    expect(daysSince("2025-01-01T00:00:00Z", Date.parse("2025-01-11T00:00:00Z"))).toBe(11);
  });
});

describe("random picks", () => {
  it("stay within bounds and are distinct", () => {
    const rng = seededRng(42);
    for (let i = 0; i < 1000; i++) {
      const n = randomInt(1000, 10999, rng);
      expect(n).toBeGreaterThanOrEqual(1000);
      expect(n).toBeLessThanOrEqual(10999);
    }
    const picks = pickRandom([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 8, rng);
    expect(new Set(picks).size).toBe(8);
    expect(pickRandom([1, 2], 8, rng).sort()).toEqual([1, 2]);
  });
});

describe("hydration data escaping", () => {
  it("never contains < > & or line separators, and round-trips", () => {
    const value = { q: "</script><script>alert(1)</script><!-- & \u2028\u2029" };
    const out = serializeForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});

describe("header search", () => {
  it("navigates only for non-empty trimmed text, URL-encoded", () => {
    expect(searchHref("   ")).toBeNull();
    expect(searchHref("")).toBeNull();
    expect(searchHref(" 家 人 ")).toBe("/search?q=%E5%AE%B6%20%E4%BA%BA");
    expect(searchHref("a&b")).toBe("/search?q=a%26b");
  });
});
