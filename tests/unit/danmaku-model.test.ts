import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TITLE_ID_PATTERN } from "../../shared/catalogue/title-ids";
import { DEFAULT_BLOCKED_WORDS } from "../../shared/danmaku/blocked-words";
import {
  checkDraft,
  containsBlockedWord,
  DANMAKU_COLORS,
  isDarkColor,
  MIN_GAP_MS,
  modeOfDplayerType,
  normaliseColor,
  parseWordList,
  rateCheck,
  MAX_EPISODE,
  parseRoomKey,
  roomKey,
  toDplayerItem,
  visibleText,
  WINDOW_MAX,
  WINDOW_MS,
} from "../../shared/danmaku/model";
import { toSimplified } from "../../shared/search/t2s";

describe("checkDraft", () => {
  it("trims, rounds the time to 0.1 s and fills the default mode and colour", () => {
    expect(checkDraft({ text: "  好看  ", time: 3.14159 })).toEqual({ ok: true, draft: { text: "好看", time: 3.1, mode: "scroll", color: "#ffffff" } });
    expect(checkDraft({ text: "x", time: "7.25", mode: "top", color: 0xfe0302 })).toEqual({
      ok: true,
      draft: { text: "x", time: 7.3, mode: "top", color: "#fe0302" },
    });
  });
  it("counts characters, not UTF-16 units", () => {
    expect(checkDraft({ text: "😀".repeat(100), time: 0 }).ok).toBe(true);
    expect(checkDraft({ text: "😀".repeat(101), time: 0 })).toEqual({ ok: false, code: "tooLong" });
  });
  it("refuses control characters and bidi overrides, bad times, modes and colours", () => {
    expect(checkDraft({ text: "a\nb", time: 0 })).toEqual({ ok: false, code: "control" });
    expect(checkDraft({ text: "a\u202eb", time: 0 })).toEqual({ ok: false, code: "control" });
    expect(checkDraft({ text: "a", time: Number.NaN })).toEqual({ ok: false, code: "badTime" });
    expect(checkDraft({ text: "a", time: 1, mode: "left" })).toEqual({ ok: false, code: "badMode" });
    expect(checkDraft({ text: "a", time: 1, color: "red" })).toEqual({ ok: false, code: "badColor" });
    expect(checkDraft(null)).toEqual({ ok: false, code: "badRequest" });
  });
  it("never throws on any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => typeof checkDraft(value).ok === "boolean"));
  });
});

describe("blocked words", () => {
  it("match across width, case and white space", () => {
    expect(containsBlockedWord("买 ＡＤ 啦", ["ad"])).toBe(true);
    expect(containsBlockedWord("正常弹幕", ["ad", ""])).toBe(false);
    expect(parseWordList("甲, 乙\n丙，丁,, ")).toEqual(["甲", "乙", "丙", "丁"]);
  });
  it("a word of only symbols is still matched (a viewer's own list: 😡, ???)", () => {
    expect(containsBlockedWord("太气人了😡", ["😡"])).toBe(true);
    expect(containsBlockedWord("啊？？？", ["???"])).toBe(true);
    expect(containsBlockedWord("好看", ["😡", "???"])).toBe(false);
  });
});

/** Characters that show nothing: zero-width, format (Cf), variation selectors, combining grapheme joiner, Hangul fillers, tags. */
const INVISIBLES = [
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\u00ad",
  "\ufeff",
  "\u180e",
  "\u034f",
  "\ufe0f",
  "\ufe00",
  "\u3164",
  "\uffa0",
  "\u115f",
  "\u1160",
  "\u{e0041}",
  "\u{e0100}",
  "\u2061",
  "\u061c",
  "\u{1d173}",
];
const invisible = fc.constantFrom(...INVISIBLES);
/** A blocked word with invisible characters put anywhere in it, and text around it. */
const hiddenWord = fc
  .tuple(
    fc.constantFrom(...DEFAULT_BLOCKED_WORDS),
    fc.array(fc.array(invisible, { maxLength: 3 }), { minLength: 8, maxLength: 8 }),
    fc.constantFrom("", "你", "看 "),
  )
  .map(([word, gaps, around]) => around + [...word].map((c, i) => gaps[i].join("") + c).join("") + gaps[7].join("") + around);

describe("blocked words through invisible characters, width and traditional forms", () => {
  it("any blocked word with invisible characters inserted anywhere is refused", () => {
    expect(checkDraft({ text: "傻\u200b逼", time: 0 }, DEFAULT_BLOCKED_WORDS, toSimplified)).toEqual({ ok: false, code: "blocked" });
    expect(checkDraft({ text: "加\u00ad微\u2060信", time: 0 }, DEFAULT_BLOCKED_WORDS, toSimplified)).toEqual({ ok: false, code: "blocked" });
    fc.assert(
      fc.property(hiddenWord, (text) => {
        expect(containsBlockedWord(text, DEFAULT_BLOCKED_WORDS)).toBe(true);
        expect(checkDraft({ text, time: 0 }, DEFAULT_BLOCKED_WORDS, toSimplified)).toEqual({ ok: false, code: "blocked" });
      }),
    );
  });
  it("full-width, upper-case, punctuated and traditional variants are refused", () => {
    const check = (text: string, words: readonly string[] = DEFAULT_BLOCKED_WORDS) => checkDraft({ text, time: 0 }, words, toSimplified);
    for (const text of ["草泥馬", "約炮", "代開發票", "賭博網站", "加微信", "去·死", "操 你 妈"])
      expect(check(text), text).toEqual({ ok: false, code: "blocked" });
    for (const text of ["ＡＤ", "Ａ\u200bd", "买ad啦", "a.d"]) expect(check(text, ["ad"]), text).toEqual({ ok: false, code: "blocked" });
    // The words may be written in any of these forms too.
    expect(check("加微信", ["加 微\u200b信"])).toEqual({ ok: false, code: "blocked" });
    expect(check("约炮", ["約炮"])).toEqual({ ok: false, code: "blocked" });
    // A configured Latin word, written with any mix of full-width and upper-case letters and invisible characters.
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]{2,8}$/),
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.array(invisible, { maxLength: 2 })), { minLength: 8, maxLength: 8 }),
        (word, forms) => {
          const text = [...word]
            .map((c, i) => {
              const [wide, upper, gap] = forms[i];
              const letter = upper ? c.toUpperCase() : c;
              return gap.join("") + (wide ? String.fromCharCode(letter.charCodeAt(0) + 0xfee0) : letter);
            })
            .join("");
          expect(check(`看${text}啦`, [word])).toEqual({ ok: false, code: "blocked" });
        },
      ),
    );
  });
  it("ordinary comments pass, traditional ones too", () => {
    for (const text of ["前方高能", "這部劇太好看了", "ＷＯＷ", "哈哈哈 233"])
      expect(checkDraft({ text, time: 0 }, DEFAULT_BLOCKED_WORDS, toSimplified).ok, text).toBe(true);
  });
});

describe("invisible characters", () => {
  it("text made only of them is empty", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(invisible, fc.constant(" ")), { minLength: 1, maxLength: 20 }), (chars) => {
        expect(checkDraft({ text: chars.join(""), time: 0 })).toEqual({ ok: false, code: "empty" });
      }),
    );
  });
  it("are dropped from the stored text, except inside emoji sequences", () => {
    expect(checkDraft({ text: "好\u200b看\u2060！\u3164", time: 0 })).toMatchObject({ ok: true, draft: { text: "好看！" } });
    expect(visibleText("\u200b 好看 \u200b")).toBe("好看");
    // Family (ZWJ sequence), red heart (VS16), heart on fire, keycap: unchanged.
    for (const emoji of ["👨\u200d👩\u200d👧", "❤\ufe0f", "❤\ufe0f\u200d🔥", "1\ufe0f\u20e3", "👍🏻"]) expect(visibleText(`好${emoji}`)).toBe(`好${emoji}`);
    // A joiner or selector that joins no emoji goes.
    expect(visibleText("好\u200d看\ufe0f")).toBe("好看");
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...INVISIBLES, "好", "a", " ", "👨", "❤") }), fc.string({ unit: "binary" }), (mixed, any) => {
        const visible = visibleText(mixed + any);
        expect(visibleText(visible)).toBe(visible);
        expect(
          [...visible].filter(
            (c) => ["\u200b", "\u2060", "\u00ad", "\u3164", "\u115f", "\u1160", "\uffa0", "\u034f"].includes(c) || (/\p{Cf}/u.test(c) && c !== "\u200d"),
          ),
        ).toEqual([]);
      }),
    );
  });
  it("the bidi overrides are still refused as control characters", () => {
    expect(checkDraft({ text: "a\u202eb", time: 0 })).toEqual({ ok: false, code: "control" });
    expect(checkDraft({ text: "\u2066好", time: 0 })).toEqual({ ok: false, code: "control" });
  });
});

describe("rateCheck", () => {
  it("wants 2 s between posts and at most 30 per 10 minutes", () => {
    expect(rateCheck([], 0)).toEqual({ ok: true });
    expect(rateCheck([1000], 2000)).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(rateCheck([1000], 1000 + MIN_GAP_MS)).toEqual({ ok: true });
    const full = Array.from({ length: WINDOW_MAX }, (_, i) => i * 10_000);
    const now = full.at(-1)! + MIN_GAP_MS;
    expect(rateCheck(full, now)).toEqual({ ok: false, retryAfterMs: WINDOW_MS - now });
    expect(rateCheck(full, WINDOW_MS + 1)).toEqual({ ok: true });
  });
  it("never allows two posts closer than MIN_GAP_MS", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000_000)), fc.nat(1_000_000), (recent, now) => {
        const result = rateCheck(recent, now);
        if (result.ok) expect(recent.every((t) => t > now || now - t >= MIN_GAP_MS || t <= now - WINDOW_MS)).toBe(true);
        else expect(result.retryAfterMs).toBeGreaterThan(0);
      }),
    );
  });
});

describe("DPlayer mapping and rooms", () => {
  it("maps modes and colours both ways", () => {
    expect(modeOfDplayerType(2)).toBe("bottom");
    expect(modeOfDplayerType("1")).toBe("top");
    expect(modeOfDplayerType(3)).toBeNull();
    expect(normaliseColor("#FFD302")).toBe("#ffd302");
    // Any colour, not only the palette's: DPlayer's red and MacCMS's strings (decisions/0042).
    expect(normaliseColor(15024726)).toBe("#e54256");
    expect(normaliseColor(0)).toBe("#000000");
    expect(normaliseColor("#D500F9")).toBe("#d500f9");
    for (const bad of ["#fff", "d500f9", 0x1000000, -1, 2.5, "15024726"]) expect(normaliseColor(bad)).toBeNull();
  });
  it("calls a colour dark only where the black outline cannot carry it: never a palette colour or one of DPlayer's", () => {
    for (const color of [...DANMAKU_COLORS, "#e54256", "#ffe133", "#64dd17", "#39ccff", "#d500f9"] as const) expect(isDarkColor(color), color).toBe(false);
    for (const color of ["#000000", "#102030", "#333333", "#000080", "#400000"] as const) expect(isDarkColor(color), color).toBe(true);
    expect(toDplayerItem({ id: 1, time: 1.5, text: "t", mode: "top", color: "#00cd00", author: "u", created: 0 })).toEqual([1.5, 1, 0x00cd00, "u", "t"]);
  });
  it("keys a room per episode: the video id for episode 1, {videoId}~{n} after, and reads keys back", () => {
    expect(roomKey("video_001")).toBe("video_001");
    expect(roomKey("video_001", 1)).toBe("video_001");
    expect(roomKey("video_001", 12)).toBe("video_001~12");
    expect(encodeURIComponent(roomKey("video_001", 12))).toBe("video_001~12");
    expect(parseRoomKey("video_001")).toEqual({ videoId: "video_001", episode: 1 });
    expect(parseRoomKey("video_001~1")).toEqual({ videoId: "video_001", episode: 1 });
    expect(parseRoomKey("video_001~9999")).toEqual({ videoId: "video_001", episode: 9999 });
    for (const bad of [
      "",
      "video_001~",
      "video_001~0",
      "video_001~01",
      "video_001~10000",
      "video_001~1.5",
      "video_001~-2",
      "video_001~2~3",
      "~2",
      "video 001",
      "video_001:2",
      "../x",
      "a".repeat(65),
      // Not a title id (shared/catalogue/title-ids.ts): no title can have this room.
      "video-001",
      "video_01",
      "Video_001",
    ])
      expect(parseRoomKey(bad), bad).toBeNull();
    fc.assert(
      fc.property(fc.stringMatching(TITLE_ID_PATTERN), fc.integer({ min: 1, max: MAX_EPISODE }), (videoId, episode) => {
        expect(parseRoomKey(roomKey(videoId, episode))).toEqual({ videoId, episode });
      }),
    );
  });
});

describe("sample danmaku", async () => {
  const { sampleComments, durationSeconds, SAMPLES_PER_VIDEO } = await import("../../shared/danmaku/samples");
  it("are valid comments, the same every time, half in the first 20 s and none past the running time", () => {
    const running = durationSeconds("02:08:40");
    expect(running).toBe(7720);
    const a = sampleComments("video_001", running, 0);
    expect(a).toHaveLength(SAMPLES_PER_VIDEO);
    expect(sampleComments("video_001", running, 0)).toEqual(a);
    expect(sampleComments("video_002", running, 0)).not.toEqual(a);
    for (const c of a) expect(checkDraft(c)).toMatchObject({ ok: true, draft: { text: c.text, time: c.time } });
    expect(a.filter((c) => c.time <= 21).length).toBeGreaterThanOrEqual(SAMPLES_PER_VIDEO / 2);
    expect(Math.max(...a.map((c) => c.time))).toBeLessThanOrEqual(running);
    expect(durationSeconds("bad")).toBe(0);
  });
});
