import { describe, expect, it } from "vitest";
import { getVideo, type Video } from "../../scripts/catalogue/titles";
import { episodeMedia } from "../../shared/episodes";
import { streamStartLinkHeader, streamStartPreloads } from "../../shared/playback/stream-start";
import { mediaNumberOf, parseStreamPath, START_RENDITION_HEIGHT, streamStartPaths } from "../../shared/stream/contract";
import { LADDER, laddersFor } from "../../scripts/media/ladder";

/** What a page preloads so that a player's first two playlists do not wait for each other (docs/streaming.md, "Start path"). */

const film = getVideo("video_001")!;
const series = getVideo("video_003")!; // 6 episodes: episode 1 is /3.mp4, episode N is /1030N.mp4

describe("the start path of a stream", () => {
  it("is the master playlist, then the start rendition's media playlist — both names of the stream contract", () => {
    expect(streamStartPaths(12)).toEqual(["/stream/12/master.m3u8", "/stream/12/270p.m3u8"]);
    expect(streamStartPaths(12).map((p) => parseStreamPath(p)?.kind)).toEqual(["master", "media-playlist"]);
  });

  it("starts on the ladder's lowest rung, which every source of 270 lines or more gets", () => {
    expect(LADDER[0].height).toBe(START_RENDITION_HEIGHT);
    expect(Math.min(...LADDER.map((r) => r.height))).toBe(START_RENDITION_HEIGHT);
    for (const height of [270, 360, 480, 720, 1080, 2160]) expect(laddersFor(height)[0].height).toBe(START_RENDITION_HEIGHT);
  });
});

describe("the player page's preloads", () => {
  it("a film: its own master and start playlist, for the native and hls.js engines alike", () => {
    const n = mediaNumberOf(film.videoFile)!;
    for (const engine of [null, "native", "hlsjs", "bogus"]) expect(streamStartPreloads(film, 1, engine)).toEqual(streamStartPaths(n));
  });

  it("an episode: that episode's stream, not the series' first", () => {
    const n2 = mediaNumberOf(episodeMedia(series, 2)!.videoFile)!;
    expect(n2).not.toBe(mediaNumberOf(series.videoFile));
    expect(streamStartPreloads(series, 2, null)).toEqual(streamStartPaths(n2));
    expect(streamStartPreloads(series, 1, null)).toEqual(streamStartPaths(mediaNumberOf(series.videoFile)!));
  });

  it("nothing where the page plays the MP4 (?engine=progressive) or the title has no numbered media", () => {
    expect(streamStartPreloads(film, 1, "progressive")).toEqual([]);
    const elsewhere: Video = { ...film, videoFile: "https://media.example/film.mp4", episodes: undefined };
    expect(streamStartPreloads(elsewhere, 1, null)).toEqual([]);
    expect(streamStartLinkHeader(elsewhere, 1, null)).toBeNull();
    expect(streamStartLinkHeader(film, 1, "progressive")).toBeNull();
  });

  it("as a Link header: both, in order, as fetch preloads with anonymous CORS and high priority (as the player's <link>)", () => {
    const n = mediaNumberOf(film.videoFile)!;
    expect(streamStartLinkHeader(film, 1, null)).toBe(
      `</stream/${n}/master.m3u8>; rel=preload; as=fetch; crossorigin; fetchpriority=high, ` +
        `</stream/${n}/270p.m3u8>; rel=preload; as=fetch; crossorigin; fetchpriority=high`,
    );
  });
});
