import { describe, expect, it } from "vitest";
import { getVideo, videos, type Video } from "../../scripts/catalogue/titles";
import {
  afterEnded,
  danmakuRoomId,
  episodeCount,
  episodeMedia,
  episodeRanges,
  episodeStatus,
  nextEpisode,
  orderedRanges,
  parseEpisodeParam,
  previousEpisode,
  rangeEpisodes,
  rangeIndexOf,
  videoPath,
} from "../../shared/episodes";

const series = getVideo("video_003")!; // 6 episodes, 全6集
const film = getVideo("video_001")!;
/** A made-up long series (the built-in ones have at most 12 episodes). */
const long: Video = {
  ...series,
  id: "video_900",
  status: undefined,
  totalEpisodes: 130,
  episodes: Array.from({ length: 120 }, (_, i) => ({ videoFile: i === 0 ? series.videoFile : `${20000 + i}.mp4`, duration: "45:00" })),
};

describe("episodes of a title", () => {
  it("a series has its listed episodes with their own media and cover; a film is one video", () => {
    expect(episodeCount(series)).toBe(6);
    expect(episodeMedia(series, 1)).toEqual({ number: 1, name: "第1集", videoFile: "/3.mp4", coverImage: "/3.webp", duration: "45:00" });
    expect(episodeMedia(series, 2)).toEqual({ number: 2, name: "第2集", videoFile: "/10302.mp4", coverImage: "/10302.webp", duration: "45:00" });
    expect(episodeMedia(series, 7)).toBeNull();
    expect(episodeMedia(series, 0)).toBeNull();
    expect(episodeCount(film)).toBe(1);
    expect(episodeMedia(film, 1)).toMatchObject({ name: film.title, videoFile: "/1.mp4", coverImage: "/1.webp" });
    expect(episodeMedia(film, 2)).toBeNull();
  });

  it("uses the catalogue's episode names (variety shows) and 第N集 otherwise", () => {
    const named = videos.find((v) => v.episodes?.some((e) => e.name));
    if (named) {
      const i = named.episodes!.findIndex((e) => e.name);
      expect(episodeMedia(named, i + 1)!.name).toBe(named.episodes![i].name);
    }
    const withName: Video = { ...series, episodes: [{ ...series.episodes![0], name: "第1期：初次见面" }, ...series.episodes!.slice(1)] };
    expect(episodeMedia(withName, 1)!.name).toBe("第1期：初次见面");
  });

  it("every episode media number of the catalogue is 10000 + title × 100 + N after the first", () => {
    for (const v of videos.filter((x) => x.episodes)) {
      const title = Number(v.id.replace("video_", ""));
      for (let n = 2; n <= episodeCount(v); n++) expect(episodeMedia(v, n)!.videoFile).toBe(`/${10000 + title * 100 + n}.mp4`);
    }
  });

  it("parses an episode URL segment: digits without leading zero, within the series; films have none", () => {
    expect(parseEpisodeParam(series, "1")).toBe(1);
    expect(parseEpisodeParam(series, "6")).toBe(6);
    for (const bad of ["0", "7", "06", "1.0", "-1", "", " 2", "2a", "１", "99999", "1e1"]) expect(parseEpisodeParam(series, bad)).toBeNull();
    expect(parseEpisodeParam(film, "1")).toBeNull();
  });

  it("the next and previous episode, and where playback goes when an episode ends", () => {
    expect(nextEpisode(series, 1)).toBe(2);
    expect(nextEpisode(series, 6)).toBeNull();
    expect(previousEpisode(series, 1)).toBeNull();
    expect(previousEpisode(series, 6)).toBe(5);
    expect(nextEpisode(film, 1)).toBeNull();
    expect(afterEnded(series, 2, "video_010")).toBe("/video/video_003/3");
    expect(afterEnded(series, 6, "video_010")).toBe("/video/video_010");
    expect(afterEnded(film, 1, "video_010")).toBe("/video/video_010");
    expect(videoPath("video_003")).toBe("/video/video_003");
    expect(videoPath("video_003", 1)).toBe("/video/video_003/1");
  });
});

describe("the 选集 grid's ranges and order", () => {
  it("splits long series into tabs of 50 and finds the tab of an episode", () => {
    expect(episodeRanges(6).map((r) => r.label)).toEqual(["1-6"]);
    expect(episodeRanges(50).map((r) => r.label)).toEqual(["1-50"]);
    expect(episodeRanges(51).map((r) => r.label)).toEqual(["1-50", "51-51"]);
    expect(episodeRanges(120).map((r) => r.label)).toEqual(["1-50", "51-100", "101-120"]);
    expect(episodeRanges(episodeCount(long))).toHaveLength(3);
    expect([1, 50, 51, 100, 101, 120].map((n) => rangeIndexOf(n))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(episodeRanges(0)).toEqual([]);
  });

  it("lists a range 正序 or 倒序, and the tabs from the last in 倒序", () => {
    const [first, second, third] = episodeRanges(120);
    expect(rangeEpisodes(first, "asc").slice(0, 3)).toEqual([1, 2, 3]);
    expect(rangeEpisodes(second, "desc").slice(0, 3)).toEqual([100, 99, 98]);
    expect(rangeEpisodes(third, "desc")).toHaveLength(20);
    expect(orderedRanges([first, second, third], "desc").map((r) => r.from)).toEqual([101, 51, 1]);
    expect(orderedRanges([first, second, third], "asc").map((r) => r.from)).toEqual([1, 51, 101]);
  });
});

describe("card status", () => {
  it("the catalogue's status when given, else 更新至N集 / 全N集 from the episodes, nothing for a film without one", () => {
    expect(episodeStatus(series)).toBe("全6集");
    expect(episodeStatus(long)).toBe("更新至120集");
    expect(episodeStatus({ ...long, totalEpisodes: undefined })).toBe("全120集");
    expect(episodeStatus({ ...long, totalEpisodes: 120 })).toBe("全120集");
    expect(episodeStatus({ ...film, status: undefined })).toBeNull();
    expect(episodeStatus(film)).toBe(film.status);
  });
});

describe("弹幕 rooms", () => {
  it("episode 1 and films keep the title's room", () => {
    expect(danmakuRoomId(series, 1)).toBe("video_003");
    expect(danmakuRoomId(film, 1)).toBe("video_001");
  });
});
