// 片头 / 片尾 in the player (shared/playback/markers.ts): an episode's own markers over the title's,
// the intro and outro windows, a resume that never lands inside a skipped intro, and the schema.
import { describe, expect, it } from "vitest";
import { validateCatalogue } from "../../shared/catalogue/schema";
import { episodeMarkers, inIntro, inOutro, resumeTarget } from "../../shared/playback/markers";
import { videos } from "../../scripts/catalogue/titles";

const series = videos.find((v) => v.id === "video_019");
if (!series) throw new Error("video_019 is the catalogue's series with markers");

describe("片头 / 片尾", () => {
  it("an episode's own marker overrides the title's, the other stays the title's", () => {
    expect(episodeMarkers(series, 1)).toEqual({ intro: { start: 0, end: 2.5 }, outro: { start: 10, end: 12 } });
    expect(episodeMarkers(series, 2)).toEqual({ intro: { start: 0, end: 2.5 }, outro: { start: 4, end: 6 } });
    const film = videos.find((v) => !v.episodes && !v.intro);
    expect(film && episodeMarkers(film, 1)).toEqual({ intro: null, outro: null });
  });

  it("offers the skip inside the intro but not in its last half second, and counts the outro to its end", () => {
    const intro = { start: 10, end: 90 };
    expect([9.9, 10, 89.4, 89.6, 90].map((t) => inIntro(t, intro))).toEqual([false, true, true, false, false]);
    expect(inIntro(0, null)).toBe(false);
    const outro = { start: 1300, end: 1380 };
    expect([1299, 1300, 1379, 1380].map((t) => inOutro(t, outro))).toEqual([false, true, true, false]);
  });

  it("resumes at the intro's end for a viewer who skips intros, elsewhere where they stopped", () => {
    const intro = { start: 10, end: 90 };
    expect(resumeTarget(40, intro, true)).toBe(90);
    expect(resumeTarget(40, intro, false)).toBe(40);
    expect(resumeTarget(300, intro, true)).toBe(300);
    expect(resumeTarget(5, intro, true)).toBe(5);
    expect(resumeTarget(40, null, true)).toBe(40);
  });

  it("the schema refuses a marker that ends before it starts, negative times and unknown fields", () => {
    const result = validateCatalogue([
      { ...series, intro: { start: 90, end: 10 } },
      {
        ...series,
        id: "video_903",
        videoFile: "903.mp4",
        coverImage: "903.webp",
        episodes: undefined,
        totalEpisodes: undefined,
        outro: { start: -1, end: 5, at: 1 },
      },
    ]);
    const problems = result.ok ? [] : result.problems.map((p) => `${p.entry} ${p.field}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining(["video_019 intro: 结束时间必须晚于开始时间", "video_903 outro.start: 不能小于0", "video_903 outro.at: 不是已知的字段"]),
    );
  });
});
