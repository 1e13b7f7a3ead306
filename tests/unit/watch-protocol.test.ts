// 一起看's pure rules (shared/watch/protocol.ts): the room's position on the server clock, the
// controls as sent and as applied, the host's hand-over, nicknames, room codes and the drift
// corrections a member's player applies.
import { describe, expect, it } from "vitest";
import {
  applyControl,
  checkNickname,
  clockOffset,
  correctionFor,
  DRIFT_SEEK,
  isRoomCode,
  MAX_RATE_NUDGE,
  ROOM_RATES,
  DRIFT_SETTLED,
  DRIFT_TOLERANCE,
  MAX_SEEK_LEAD,
  nextHost,
  nextSeekLatency,
  parseControl,
  positionAt,
  roomCodeFrom,
  seekTarget,
  type RoomState,
} from "../../shared/watch/protocol";

const state: RoomState = { videoId: "video_007", title: "剧", episode: 2, episodeCount: 12, position: 10, playing: true, rate: 1, updatedAt: 1_000_000 };

describe("the room's position", () => {
  it("advances at the room's rate while playing, stands still while paused", () => {
    expect(positionAt(state, 1_004_000)).toBe(14);
    expect(positionAt({ ...state, rate: 1.5 }, 1_004_000)).toBe(16);
    expect(positionAt({ ...state, playing: false }, 1_004_000)).toBe(10);
    // A clock behind the update never moves it back.
    expect(positionAt(state, 999_000)).toBe(10);
  });

  it("applies controls at the server's time", () => {
    expect(applyControl(state, { type: "pause" }, 1_002_000)).toMatchObject({ playing: false, position: 12, updatedAt: 1_002_000 });
    expect(applyControl(state, { type: "pause", position: 11.5 }, 1_002_000)).toMatchObject({ playing: false, position: 11.5 });
    expect(applyControl({ ...state, playing: false }, { type: "play" }, 1_009_000)).toMatchObject({ playing: true, position: 10 });
    expect(applyControl(state, { type: "seek", position: 300 }, 1_002_000)).toMatchObject({ playing: true, position: 300 });
    expect(applyControl(state, { type: "rate", rate: 2 }, 1_002_000)).toMatchObject({ rate: 2, position: 12 });
    expect(applyControl(state, { type: "episode", episode: 3 }, 1_002_000)).toMatchObject({ episode: 3, position: 0, playing: true });
  });

  it("parses controls as sent and refuses anything malformed", () => {
    expect(parseControl({ type: "seek", position: 5 })).toEqual({ type: "seek", position: 5 });
    expect(parseControl({ type: "play" })).toEqual({ type: "play" });
    expect(parseControl({ type: "rate", rate: 1.25 })).toEqual({ type: "rate", rate: 1.25 });
    for (const bad of [
      null,
      1,
      {},
      { type: "seek" },
      { type: "seek", position: Number.NaN },
      { type: "seek", position: 1e9 },
      { type: "rate", rate: 7 },
      { type: "episode", episode: 0 },
      { type: "pause", position: "1" },
    ])
      expect(parseControl(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe("the host", () => {
  it("stays with a host who is still there; passes to the member who joined first otherwise", () => {
    expect(nextHost("a", "b", ["a", "b", "c"])).toBe("a");
    expect(nextHost("a", "a", ["a", "b", "c"])).toBe("b");
    expect(nextHost("a", "a", ["a"])).toBeNull();
    expect(nextHost(null, "x", ["c", "d"])).toBe("c");
  });
});

describe("nicknames and codes", () => {
  it("trims nicknames, drops invisible characters and refuses empty, long and control-character ones", () => {
    expect(checkNickname(" 小\u200b明 ")).toEqual({ ok: true, nickname: "小明" });
    expect(checkNickname("😀".repeat(16))).toMatchObject({ ok: true });
    expect(checkNickname("😀".repeat(17))).toEqual({ ok: false, code: "nicknameTooLong" });
    expect(checkNickname("\u200b")).toEqual({ ok: false, code: "noNickname" });
    expect(checkNickname("a\nb")).toEqual({ ok: false, code: "nicknameBad" });
    expect(checkNickname(undefined)).toEqual({ ok: false, code: "noNickname" });
  });

  it("makes 8-character codes of its alphabet", () => {
    const code = roomCodeFrom(new Uint8Array([0, 1, 2, 30, 31, 200, 255, 77]));
    expect(isRoomCode(code)).toBe(true);
    expect(isRoomCode("ABCDEFGH")).toBe(false);
    expect(isRoomCode("2345678")).toBe(false);
    expect(isRoomCode("2345678l")).toBe(false);
  });
});

describe("drift corrections", () => {
  it("leaves a member alone when close, nudges the rate when a little off, seeks when far off", () => {
    expect(correctionFor(10.05, 10, 1)).toEqual({ kind: "none", rate: 1 });
    const behind = correctionFor(9.7, 10, 1);
    expect(behind.kind).toBe("rate");
    expect(behind.rate).toBeGreaterThan(1);
    expect(behind.rate).toBeLessThanOrEqual(1 + MAX_RATE_NUDGE);
    const ahead = correctionFor(11, 10, 1.5);
    expect(ahead.kind).toBe("rate");
    expect(ahead.rate).toBeLessThan(1.5);
    expect(ahead.rate).toBeGreaterThanOrEqual(1.5 * (1 - MAX_RATE_NUDGE));
    expect(correctionFor(10 - DRIFT_SEEK - 0.1, 10, 1)).toEqual({ kind: "seek", to: 10, rate: 1 });
  });

  it("a rate correction is never one of the rates a viewer picks (the sync would send it to the room as theirs)", () => {
    for (const roomRate of ROOM_RATES)
      for (let drift = -DRIFT_SEEK + 0.01; drift < DRIFT_SEEK; drift += 0.01) {
        const correction = correctionFor(10 + drift, 10, roomRate);
        if (correction.kind !== "rate") continue;
        expect((ROOM_RATES as readonly number[]).includes(correction.rate), `room ${roomRate}×, drift ${drift.toFixed(2)} s → ${correction.rate}`).toBe(false);
        // Still the right way, and within the nudge.
        expect(Math.sign(correction.rate - roomRate)).toBe(-Math.sign(drift));
        expect(Math.abs(correction.rate - roomRate)).toBeLessThanOrEqual(roomRate * MAX_RATE_NUDGE + 0.001);
      }
  });

  it("a rate correction under way goes on until the gap is all but closed, not only under the tolerance", () => {
    const within = 10 - (DRIFT_TOLERANCE + DRIFT_SETTLED) / 2;
    expect(correctionFor(within, 10, 1)).toEqual({ kind: "none", rate: 1 });
    const still = correctionFor(within, 10, 1, true);
    expect(still.kind).toBe("rate");
    expect(still.rate).toBeGreaterThan(1);
    expect(correctionFor(10 + DRIFT_SETTLED / 2, 10, 1, true)).toEqual({ kind: "none", rate: 1 });
  });

  it("aims a seek while playing ahead of the room by the member's seek time, unless the media is there already", () => {
    // Held media: the room's position itself.
    expect(seekTarget(40, 1, 3, true, 150)).toBe(40);
    // To fetch: as far ahead as the room moves while the member's seek takes, at the room's rate.
    expect(seekTarget(40, 1, 3, false, 150)).toBe(43);
    expect(seekTarget(40, 1.5, 2, false, 150)).toBe(43);
    // Never more than MAX_SEEK_LEAD ahead, never past the end.
    expect(seekTarget(40, 1, 60, false, 150)).toBe(40 + MAX_SEEK_LEAD);
    expect(seekTarget(148, 1, 3, false, 150)).toBe(149.5);
    expect(seekTarget(40, 1, 3, false, Number.NaN)).toBe(43);
  });

  it("learns the seek time from the seeks measured, smoothed and bounded", () => {
    expect(nextSeekLatency(0, 2.4)).toBe(2.4);
    expect(nextSeekLatency(2, 4)).toBe(3);
    expect(nextSeekLatency(2, -1)).toBe(1);
    expect(nextSeekLatency(0, 99)).toBe(MAX_SEEK_LEAD);
  });

  it("reads the server's clock from a ping's round trip", () => {
    expect(clockOffset(1000, 5100, 1200)).toEqual({ offset: 4000, rtt: 200 });
  });
});
