// The pure rules of a 弹幕 room's socket shards (shared/danmaku/shards.ts).
import { describe, expect, it } from "vitest";
import type { DanmakuComment, ServerMessage } from "../../shared/danmaku/model";
import { chooseShard, framesFor, lowestId, shardName } from "../../shared/danmaku/shards";

const comment = (id: number): DanmakuComment => ({ id, time: 1, text: `c${id}`, mode: "scroll", color: "#ffffff", author: "a", created: 0 });
const live = (id: number): ServerMessage => ({ type: "comment", comment: comment(id) });

describe("chooseShard", () => {
  it("opens shard 0 first, fills the least loaded (lowest index among equals), and opens the lowest free index when all are full", () => {
    expect(chooseShard(new Map(), 2)).toBe(0);
    expect(chooseShard(new Map([[0, 1]]), 2)).toBe(0);
    expect(chooseShard(new Map([[0, 2]]), 2)).toBe(1);
    expect(
      chooseShard(
        new Map([
          [0, 2],
          [1, 1],
          [2, 0],
        ]),
        2,
      ),
    ).toBe(2);
    expect(
      chooseShard(
        new Map([
          [1, 1],
          [0, 1],
        ]),
        2,
      ),
    ).toBe(0);
    expect(
      chooseShard(
        new Map([
          [0, 2],
          [2, 2],
        ]),
        2,
      ),
    ).toBe(1);
    // A count above the size (a stale one) is simply full.
    expect(chooseShard(new Map([[0, 9]]), 2)).toBe(1);
  });

  it("names a shard after its room and index", () => {
    expect(shardName("video_007~3", 4)).toBe("video_007~3#4");
  });
});

describe("framesFor", () => {
  it("sends a run of comments as one frame, a single one as before, and keeps deletes in their place", () => {
    const del: ServerMessage = { type: "delete", ids: [1] };
    expect(framesFor([live(1)], 0)).toEqual([live(1)]);
    expect(framesFor([live(1), live(2), del, live(3)], 0)).toEqual([{ type: "comments", comments: [comment(1), comment(2)] }, del, live(3)]);
  });

  it("leaves out what the socket's hello covered", () => {
    expect(framesFor([live(4), live(5), live(6)], 5)).toEqual([live(6)]);
    expect(framesFor([live(4), live(5)], 5)).toEqual([]);
    expect(lowestId([{ type: "delete", ids: [1] }, live(7), live(5)])).toBe(5);
    expect(lowestId([{ type: "delete", ids: [1] }])).toBe(Number.POSITIVE_INFINITY);
  });
});
