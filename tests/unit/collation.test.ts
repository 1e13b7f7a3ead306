import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import { compareTitles } from "../../shared/collation";
import { sortVideos } from "../reference/listing";
import { sortSearchResults } from "../reference/search-engine";

describe("title collation (shared/collation.ts)", () => {
  it("orders Chinese by pinyin, not by code point", () => {
    // Code points: 上 U+4E0A < 北 U+5317 < 天 U+5929; pinyin: bei < shang < tian.
    expect(["天津", "上海", "北京"].sort(compareTitles)).toEqual(["北京", "上海", "天津"]);
    expect(["天津", "上海", "北京"].sort()).not.toEqual(["北京", "上海", "天津"]);
    expect(compareTitles("雾港来信", "雾港来信")).toBe(0);
  });

  it("listings and search sort titles the same way", () => {
    const byListing = sortVideos(videos, "title").map((v) => v.title);
    const bySearch = sortSearchResults(videos, "title").map((v) => v.title);
    expect(bySearch).toEqual(byListing);
    for (let i = 1; i < byListing.length; i++) expect(compareTitles(byListing[i - 1], byListing[i])).toBeLessThanOrEqual(0);
  });
});
