// 追剧 and 稍后再看 rules (shared/series-lists.ts): the 新 badge, merging two browsers' lists,
// the limit, untrusted data, and what a card says of a followed series.
import { describe, expect, it } from "vitest";
import { cardEnded } from "../../shared/catalogue/card";
import {
  addToList,
  EMPTY_LISTS,
  followStatus,
  hasNewEpisode,
  LIST_LIMIT,
  markSeen,
  mergeLists,
  parseLists,
  removeFromList,
  type SeriesLists,
} from "../../shared/series-lists";

describe("the 新 badge", () => {
  it("shows when the series has more episodes than the viewer last saw, not when they are only behind", () => {
    expect(hasNewEpisode({ id: "video_007", addedAt: 1, seenEpisodes: 12 }, 13)).toBe(true);
    // Watched 3 of 12, nothing added since: behind, not new.
    expect(hasNewEpisode({ id: "video_007", addedAt: 1, seenEpisodes: 12 }, 12)).toBe(false);
    // An entry without a count (from before counts) is never 新.
    expect(hasNewEpisode({ id: "video_007", addedAt: 1 }, 13)).toBe(false);
  });

  it("goes once the viewer opens the series (markSeen), and never comes back for a smaller count", () => {
    let lists: SeriesLists = { follows: [{ id: "video_007", addedAt: 1, seenEpisodes: 12 }], watchLater: [] };
    lists = markSeen(lists, "video_007", 13);
    expect(hasNewEpisode(lists.follows[0], 13)).toBe(false);
    expect(markSeen(lists, "video_007", 5)).toBe(lists);
    expect(markSeen(lists, "video_021", 5)).toBe(lists); // not followed: nothing
  });
});

describe("merging and limits", () => {
  it("merges two browsers' lists: each title once, the newest entry, the larger seen count", () => {
    const a: SeriesLists = { follows: [{ id: "video_007", addedAt: 10, seenEpisodes: 11 }], watchLater: [{ id: "video_001", addedAt: 3 }] };
    const b: SeriesLists = {
      follows: [
        { id: "video_007", addedAt: 5, seenEpisodes: 12 },
        { id: "video_021", addedAt: 20 },
      ],
      watchLater: [],
    };
    expect(mergeLists(a, b)).toEqual({
      follows: [
        { id: "video_021", addedAt: 20 },
        { id: "video_007", addedAt: 10, seenEpisodes: 12 },
      ],
      watchLater: [{ id: "video_001", addedAt: 3 }],
    });
    expect(mergeLists(a, EMPTY_LISTS)).toEqual(a);
  });

  it("refuses a title past the limit instead of dropping the oldest; re-adding one already there is fine", () => {
    const full: SeriesLists = { follows: [], watchLater: Array.from({ length: LIST_LIMIT }, (_, i) => ({ id: `video_${100 + i}`, addedAt: i })) };
    expect(addToList(full, "watchLater", { id: "video_999", addedAt: 1 })).toBeNull();
    expect(addToList(full, "watchLater", { id: "video_100", addedAt: 999 })?.watchLater[0]).toEqual({ id: "video_100", addedAt: 999 });
    expect(addToList(full, "follows", { id: "video_999", addedAt: 1 })?.follows).toHaveLength(1);
    expect(removeFromList(full, "watchLater", "video_100").watchLater).toHaveLength(LIST_LIMIT - 1);
  });

  it("reads untrusted data: bad ids, times and counts dropped, duplicates merged, capped", () => {
    const raw = {
      follows: [
        { id: "video_007", addedAt: 1, seenEpisodes: 3 },
        { id: "x", addedAt: 1 },
        { id: "video_008", addedAt: -1 },
        { id: "video_009", addedAt: 2, seenEpisodes: 1.5 },
        null,
      ],
      watchLater: Array.from({ length: LIST_LIMIT + 5 }, (_, i) => ({ id: `video_${1000 + i}`, addedAt: i })),
    };
    const lists = parseLists(raw);
    expect(lists.follows).toEqual([
      { id: "video_009", addedAt: 2 },
      { id: "video_007", addedAt: 1, seenEpisodes: 3 },
    ]);
    expect(lists.watchLater).toHaveLength(LIST_LIMIT);
    expect(lists.watchLater[0].id).toBe(`video_${1000 + LIST_LIMIT + 4}`);
    expect(parseLists("nonsense")).toEqual(EMPTY_LISTS);
  });
});

describe("what 我的追剧 says of a series", () => {
  it("更新至第N集 while 连载, 已完结 once ended — the 连载 state first, then the status and planned episodes", () => {
    const card = { status: null, episodeCount: 5, totalEpisodes: null };
    expect(followStatus(5, cardEnded({ ...card, serial: "ongoing" }))).toBe("更新至第5集");
    expect(followStatus(5, cardEnded({ ...card, serial: "ended" }))).toBe("已完结 · 全5集");
    expect(cardEnded({ ...card, totalEpisodes: 16 })).toBe(false);
    expect(cardEnded({ ...card, status: "更新至5集" })).toBe(false);
    expect(cardEnded(card)).toBe(true);
  });
});
