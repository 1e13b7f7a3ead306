import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import type { Video } from "../../shared/catalogue/types";
import { TITLE_PINYIN } from "../../shared/search/generated/pinyin-keys";
import { MAX_QUERY_LENGTH, normaliseQuery, searchQuery } from "../../shared/search/index";
import { createSearchEngine, resultCategories, searchDoc, sortSearchResults } from "../reference/search-engine";
import { fold, foldText, queryTerms } from "../../shared/search/normalise";
import { matchPinyin } from "../../shared/search/pinyin-match";
import { rankDocs, TIER, type SearchDoc } from "../../shared/search/rank";
import { toSimplified } from "../../shared/search/t2s";
import { pinyinKey } from "../../scripts/search-keys";

const v = (id: string, over: Partial<Video> = {}): Video => ({
  id,
  title: "标题",
  description: "简介",
  category: ["电影"],
  tags: ["高分"],
  year: 2025,
  rating: 8.5,
  duration: "45:00",
  coverImage: "1.webp",
  videoFile: "/1.mp4",
  ...over,
});

const engine = createSearchEngine(videos, TITLE_PINYIN, toSimplified);
const search = (q: string, extra: Record<string, string> = {}) => engine.run(new URLSearchParams({ q, ...extra }));
const titleOf = (id: string) => videos.find((x) => x.id === id)?.title;

describe("folding", () => {
  it.each([
    ["ＷＧＬＸ", "wglx"],
    ["WuGang", "wugang"],
    ["开麦吧，邻居", "开麦吧邻居"],
    ["「雾港」！", "雾港"],
    ["Space 旅人 2", "space旅人2"],
    ["霧港來信", "霧港來信"],
  ])("%s folds to %s", (input, folded) => {
    expect(foldText(input).text).toBe(folded);
  });
  it("the fast paths give the same result as NFKC + lower case + letters and digits only", () => {
    const reference = (text: string) => [...text].flatMap((cp) => [...cp.normalize("NFKC").toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c))).join("");
    const anyCodePoint = fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((cp) => cp < 0xd800 || cp > 0xdfff)
      .map((cp) => String.fromCodePoint(cp));
    const pieces = fc.constantFrom("雾", "港", "A", "z", "9", " ", "，", "Ｗ", "ｇ", "①", "ﬁ", "É", "e\u0301", "·", "𠀀", "！", "\u3000", "Ⅻ", "ß");
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, anyCodePoint), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(fold(text)).toBe(reference(text));
        expect(foldText(text).text).toBe(reference(text));
      }),
    );
  });
  it("maps traditional characters to simplified with the generated table", () => {
    expect(foldText("霧港來信", toSimplified).text).toBe("雾港来信");
    expect(foldText("電視劇", toSimplified).text).toBe("电视剧");
    expect(toSimplified("a")).toBe("a");
  });
  it("keeps where each folded character came from", () => {
    const f = foldText("开麦吧，邻居");
    expect(f.chars).toEqual(["开", "麦", "吧", "邻", "居"]);
    expect(f.starts).toEqual([0, 1, 2, 4, 5]);
  });
  it("splits terms on any white space, full-width included", () => {
    expect(queryTerms("来信　雾港  雾港")).toEqual(["来信", "雾港"]);
    expect(queryTerms("，。 ！")).toEqual([]);
  });
  it("trims and cuts long queries", () => {
    expect(normaliseQuery("  家  ")).toBe("家");
    expect([...normaliseQuery("长".repeat(500))]).toHaveLength(MAX_QUERY_LENGTH);
  });
});

describe("build-time pinyin keys", () => {
  it("follow word-level readings of polyphones", () => {
    expect(pinyinKey("银河护卫队·重生")).toEqual(["yin", "he", "hu", "wei", "dui", "chong", "sheng"]);
    expect(pinyinKey("重庆行长")).toEqual(["chong", "qing", "hang", "zhang"]);
    expect(pinyinKey("Ｓpace旅人")).toEqual(["s", "p", "a", "c", "e", "lv", "ren"]);
  });
  it("exist for every title, one syllable per folded character", () => {
    for (const video of videos) expect(TITLE_PINYIN[video.id].split(" ")).toHaveLength(foldText(video.title).chars.length);
  });
});

describe("pinyin matching", () => {
  const title = foldText("雾港来信").chars;
  const keys = ["wu", "gang", "lai", "xin"];
  it.each([
    ["wglx", 0, 4],
    ["wugang", 0, 2],
    ["wugan", 0, 2],
    ["wu港", 0, 2],
    ["wgangl", 0, 3],
    ["laixin", 2, 4],
    ["lx", 2, 4],
    ["雾g", 0, 2],
  ])("%s matches characters %i–%i", (term, start, end) => {
    expect(matchPinyin(title, keys, term)).toEqual({ start, end });
  });
  it.each(["wglxx", "gw", "xinl", "wuu"])("%s does not match", (term) => {
    expect(matchPinyin(title, keys, term)).toBeNull();
  });
  it("accepts u for ü", () => {
    expect(matchPinyin(["旅", "人"], ["lv", "ren"], "luren")).toEqual({ start: 0, end: 2 });
    expect(matchPinyin(["旅", "人"], ["lv", "ren"], "lvr")).toEqual({ start: 0, end: 2 });
  });
});

describe("search over the catalogue (issue 14)", () => {
  it.each(["雾港", "wglx", "WGLX", "ＷＧＬＸ", "wugang", "wu gang", "wu港", "霧港", "霧港來信", "雾 港", "来信 雾港", "「雾港」！"])(
    "%s lists 雾港来信 first",
    (q) => {
      const r = search(q);
      expect(r.total).toBeGreaterThan(0);
      expect(titleOf(r.ids[0])).toBe("雾港来信");
    },
  );
  it("every term must match", () => {
    expect(search("雾港 星海").total).toBe(0);
    expect(search("悬疑 年代").ids).toContain("video_001");
  });
  it("marks the matched part of the title", () => {
    expect(search("来信").marks.video_001).toEqual([[2, 4]]);
    expect(search("wglx").marks.video_001).toEqual([[0, 4]]);
    expect(search("来信 雾港").marks.video_001).toEqual([[0, 4]]);
    // a match in the description only marks nothing
    const byDescription = search("邮差");
    expect(byDescription.ids).toContain("video_001");
    expect(byDescription.marks.video_001).toBeUndefined();
  });
  it("whitespace-only or missing queries give no results and no recommendations", () => {
    for (const q of [null, "", "   ", "\t\n"]) {
      const r = engine.run(new URLSearchParams(q === null ? "" : `q=${encodeURIComponent(q)}`));
      expect(r.state.q).toBe("");
      expect(r.total).toBe(0);
      expect(r.ids).toEqual([]);
      expect(r.recommended).toEqual([]);
    }
  });
  it("no results: 热门推荐 are the best-rated titles", () => {
    const r = search("zzzzqqqq");
    expect(r.total).toBe(0);
    expect(r.recommended).toHaveLength(8);
    const ratings = r.recommended.map((id) => videos.find((x) => x.id === id)?.rating ?? 0);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });
  it("the category filter is exact and offers the categories of the matches", () => {
    const all = search("自然");
    expect(all.total).toBeGreaterThan(0);
    const cat = all.categories[0];
    const filtered = search("自然", { category: cat });
    expect(filtered.total).toBeLessThanOrEqual(all.total);
    expect(filtered.state.category).toBe(cat);
    expect(search("自然", { category: "不存在" }).state.category).toBeNull();
  });
  it("paginates 12 per page", () => {
    const broad = search("的");
    expect(broad.ids.length).toBeLessThanOrEqual(12);
    expect(broad.pageCount).toBe(Math.max(1, Math.ceil(broad.total / 12)));
  });
  it("suggests up to 8 titles, pinyin included, and 热门搜索 for an empty box", () => {
    const s = engine.suggest("wg");
    expect(s.items.length).toBeGreaterThan(0);
    expect(s.items.length).toBeLessThanOrEqual(8);
    expect(s.items[0]).toMatchObject({ id: "video_001", title: "雾港来信", cover: "/1.webp", marks: [[0, 2]] });
    const empty = engine.suggest("  ");
    expect(empty.items).toEqual([]);
    expect(empty.hot).toHaveLength(8);
    expect(engine.suggest("的").items).toHaveLength(8);
  });
});

describe("relevance ranking", () => {
  const keyed = (video: Video): SearchDoc => searchDoc(video, pinyinKey(video.title).join(" "), toSimplified);
  const rank = (docs: SearchDoc[], q: string) => rankDocs(docs, queryTerms(q, toSimplified)).map((r) => [r.doc.id, r.match.tier]);

  it("exact title > prefix > contains > tag/category > description; ties in catalogue order", () => {
    const docs = [
      keyed(v("description", { title: "甲", description: "一段关于星光的故事" })),
      keyed(v("tag", { title: "乙", tags: ["星光"] })),
      keyed(v("contains-1", { title: "追逐星光" })),
      keyed(v("category", { title: "丙", category: ["星光"] })),
      keyed(v("prefix", { title: "星光大道" })),
      keyed(v("contains-2", { title: "那片星光" })),
      keyed(v("exact", { title: "星光" })),
      keyed(v("none", { title: "丁" })),
    ];
    expect(rank(docs, "星光")).toEqual([
      ["exact", TIER.exactTitle],
      ["prefix", TIER.titlePrefix],
      ["contains-1", TIER.titleContains],
      ["contains-2", TIER.titleContains],
      ["tag", TIER.tagOrCategory],
      ["category", TIER.tagOrCategory],
      ["description", TIER.description],
    ]);
  });
  it("title text > pinyin from the start > pinyin inside > alias/people > tag > description", () => {
    const withAlias: SearchDoc = { ...keyed(v("alias", { title: "戊" })), names: [{ folded: foldText("小光"), syllables: ["xiao", "guang"] }] };
    const docs = [
      keyed(v("description", { title: "甲", description: "xg 版本" })),
      keyed(v("pinyin-inside", { title: "追星光" })),
      withAlias,
      keyed(v("pinyin-start", { title: "星光" })),
      keyed(v("tag", { title: "乙", tags: ["XG"] })),
      keyed(v("title-text", { title: "XG 传奇" })),
    ];
    expect(rank(docs, "xg")).toEqual([
      ["title-text", TIER.titlePrefix],
      ["pinyin-start", TIER.pinyinPrefix],
      ["pinyin-inside", TIER.pinyinContains],
      ["alias", TIER.aliasOrPerson],
      ["tag", TIER.tagOrCategory],
      ["description", TIER.description],
    ]);
  });
  it("several terms: the weakest term decides, unless the terms written together match better", () => {
    const docs = [keyed(v("a", { title: "雾港来信", tags: ["悬疑"] })), keyed(v("b", { title: "港口", description: "雾" }))];
    expect(rank(docs, "雾 港")).toEqual([
      ["a", TIER.titlePrefix],
      ["b", TIER.description],
    ]);
    expect(rank(docs, "来信 悬疑")).toEqual([["a", TIER.tagOrCategory]]);
  });
});

describe("search results", () => {
  it("relevance keeps ranked order; other sorts reorder", () => {
    const list = [v("a", { rating: 8.2, title: "乙" }), v("b", { rating: 9.1, title: "甲", year: 2025 }), v("c", { rating: 8.7, year: 2024 })];
    expect(sortSearchResults(list, "relevance").map((x) => x.id)).toEqual(["a", "b", "c"]);
    expect(sortSearchResults(list, "rating").map((x) => x.id)).toEqual(["b", "c", "a"]);
    expect(sortSearchResults(list, "year").map((x) => x.id)).toEqual(["a", "b", "c"]);
  });
  it("result categories are most frequent first", () => {
    expect(resultCategories([v("a", { category: ["电影", "科幻"] }), v("b", { category: ["科幻"] })])).toEqual(["科幻", "电影"]);
  });
  it("search URLs keep the query and reset the page on changes", () => {
    const state = { q: "家 人", category: null, sort: "relevance" as const, page: 3 };
    expect(searchQuery(state, { sort: "rating" })).toBe("?q=%E5%AE%B6+%E4%BA%BA&sort=rating");
    expect(searchQuery(state, { page: 2 })).toBe("?q=%E5%AE%B6+%E4%BA%BA&page=2");
  });
});
