import { describe, it, expect } from "vitest";
import { MAIN_CATEGORIES, categoryDisplayName, getVideo, normaliseMediaPath, rawVideos, videoNumber, videos, type Video } from "../../scripts/catalogue/titles";

const SUB_TYPES = ["网络剧", "短剧", "微电影", "动画"] as const;
const CJK = /\p{Script=Han}/u;
const pad3 = (n: number) => String(n).padStart(3, "0");
const chars = (s: string) => [...s].length;

/** "HH:MM:SS" or "MM:SS" → seconds. */
function seconds(duration: string): number {
  return duration.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/** Films and 微电影 use HH:MM:SS; episodic kinds (电视剧, 综艺, 纪录片, 网络剧, 短剧) use MM:SS. */
function isFilm(video: Video): boolean {
  return video.category.includes("电影") || video.category.includes("微电影");
}

function mainCategoriesOf(video: Video): string[] {
  return video.category.filter((c) => (MAIN_CATEGORIES as readonly string[]).includes(c));
}

describe("rawVideos", () => {
  it("has exactly 50 videos with ids video_001 … video_050 in order", () => {
    expect(rawVideos).toHaveLength(50);
    rawVideos.forEach((video, i) => expect(video.id).toBe(`video_${pad3(i + 1)}`));
  });

  it("has distinct natural Chinese titles of 2–12 characters", () => {
    for (const { title } of rawVideos) {
      expect(chars(title), title).toBeGreaterThanOrEqual(2);
      expect(chars(title), title).toBeLessThanOrEqual(12);
      expect(title.trim()).toBe(title);
      expect(CJK.test(title), title).toBe(true);
    }
    expect(new Set(rawVideos.map((v) => v.title)).size).toBe(50);
  });

  it("has Chinese descriptions of 40–120 characters in one or two sentences", () => {
    for (const { id, description } of rawVideos) {
      const n = chars(description);
      expect(n, id).toBeGreaterThanOrEqual(40);
      expect(n, id).toBeLessThanOrEqual(120);
      expect(description, id).toMatch(/[。！？]$/);
      const sentences = description.match(/[。！？]/g) ?? [];
      expect(sentences.length, id).toBeGreaterThanOrEqual(1);
      expect(sentences.length, id).toBeLessThanOrEqual(2);
      const han = [...description].filter((c) => CJK.test(c)).length;
      expect(han / n, id).toBeGreaterThan(0.7);
    }
    expect(new Set(rawVideos.map((v) => v.description)).size).toBe(50);
  });

  it("has 3–6 distinct short tags per video", () => {
    for (const { id, tags } of rawVideos) {
      expect(tags.length, id).toBeGreaterThanOrEqual(3);
      expect(tags.length, id).toBeLessThanOrEqual(6);
      expect(new Set(tags).size, id).toBe(tags.length);
      for (const tag of tags) {
        expect(chars(tag), `${id} ${tag}`).toBeGreaterThanOrEqual(1);
        expect(chars(tag), `${id} ${tag}`).toBeLessThanOrEqual(4);
        expect(tag.trim()).toBe(tag);
      }
    }
  });

  it("is all from 2025", () => {
    for (const video of rawVideos) expect(video.year, video.id).toBe(2025);
  });

  it("has one-decimal ratings within 8.1–9.3 with a spread of values", () => {
    const counts = new Map<number, number>();
    for (const { id, rating } of rawVideos) {
      expect(Number.isFinite(rating), id).toBe(true);
      expect(Math.round(rating * 10) / 10, id).toBe(rating);
      expect(rating, id).toBeGreaterThanOrEqual(8.1);
      expect(rating, id).toBeLessThanOrEqual(9.3);
      counts.set(rating, (counts.get(rating) ?? 0) + 1);
    }
    expect(rawVideos.filter((v) => v.rating >= 9.0).length).toBeGreaterThanOrEqual(3);
    expect(rawVideos.filter((v) => v.rating <= 8.4).length).toBeGreaterThanOrEqual(3);
    expect(counts.size).toBeGreaterThanOrEqual(10);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(6);
  });

  it("uses HH:MM:SS for films and MM:SS for episodes, within the allowed ranges", () => {
    for (const video of rawVideos) {
      const { id, duration, category } = video;
      if (isFilm(video)) {
        expect(duration, id).toMatch(/^\d{2}:[0-5]\d:[0-5]\d$/);
        const [min, max] = category.includes("微电影") ? ["00:18:20", "00:35:00"] : ["01:20:00", "02:50:00"];
        expect(seconds(duration), id).toBeGreaterThanOrEqual(seconds(min));
        expect(seconds(duration), id).toBeLessThanOrEqual(seconds(max));
      } else {
        expect(duration, id).toMatch(/^[0-5]\d:[0-5]\d$/);
        const [min, max] = category.includes("短剧") ? ["08:30", "15:00"] : ["20:00", "59:59"];
        expect(seconds(duration), id).toBeGreaterThanOrEqual(seconds(min));
        expect(seconds(duration), id).toBeLessThanOrEqual(seconds(max));
      }
    }
    expect(rawVideos.some((v) => /^\d{2}:\d{2}:\d{2}$/.test(v.duration))).toBe(true);
    expect(rawVideos.some((v) => /^\d{2}:\d{2}$/.test(v.duration))).toBe(true);
  });

  it("has 2–4 distinct categories led by a main category or sub-type", () => {
    const leaders: readonly string[] = [...MAIN_CATEGORIES, ...SUB_TYPES];
    for (const { id, category } of rawVideos) {
      expect(category.length, id).toBeGreaterThanOrEqual(2);
      expect(category.length, id).toBeLessThanOrEqual(4);
      expect(new Set(category).size, id).toBe(category.length);
      expect(leaders, id).toContain(category[0]);
      for (const name of category) expect(name.trim().length, id).toBeGreaterThan(0);
    }
  });

  it("has at least 8 videos in each main category", () => {
    for (const main of MAIN_CATEGORIES) {
      const count = rawVideos.filter((v) => v.category.includes(main)).length;
      expect(count, main).toBeGreaterThanOrEqual(8);
    }
  });

  it("has at least 3 videos in two main categories", () => {
    const double = rawVideos.filter((v) => mainCategoriesOf(v).length >= 2);
    expect(double.length).toBeGreaterThanOrEqual(3);
  });

  it("uses each sub-type at least twice", () => {
    for (const sub of SUB_TYPES) {
      expect(rawVideos.filter((v) => v.category.includes(sub)).length, sub).toBeGreaterThanOrEqual(2);
    }
  });

  it("counts the same for a main category whether matched exactly or by substring (listing rule, spec §9)", () => {
    for (const main of MAIN_CATEGORIES) {
      const exact = rawVideos.filter((v) => v.category.includes(main)).length;
      const substring = rawVideos.filter((v) => v.category.some((c) => c.toLowerCase().includes(main))).length;
      expect(substring, main).toBe(exact);
    }
  });

  it("numbers cover images and video files after the id", () => {
    for (const video of rawVideos) {
      const n = videoNumber(video);
      expect(video.coverImage).toBe(`${n}.webp`);
      expect(video.videoFile).toMatch(new RegExp(`^/?${n}\\.mp4$`));
    }
  });

  it("writes some raw video files with a leading slash and the rest without", () => {
    const withSlash = rawVideos.filter((v) => v.videoFile.startsWith("/")).length;
    expect(withSlash).toBeGreaterThanOrEqual(3);
    expect(withSlash).toBeLessThanOrEqual(8);
    expect(rawVideos.length - withSlash).toBeGreaterThan(0);
  });
});

describe("videos (normalised)", () => {
  it("is rawVideos in the same order with exactly one leading slash on videoFile", () => {
    expect(videos).toHaveLength(rawVideos.length);
    videos.forEach((video, i) => {
      const raw = rawVideos[i];
      expect(video.id).toBe(raw.id);
      expect(video.videoFile).toBe(`/${videoNumber(video)}.mp4`);
      expect({ ...video, videoFile: raw.videoFile }).toEqual(raw);
    });
  });

  it("does not mutate the raw data", () => {
    expect(rawVideos.some((v) => !v.videoFile.startsWith("/"))).toBe(true);
  });
});

describe("normaliseMediaPath", () => {
  it.each([
    ["1.mp4", "/1.mp4"],
    ["/1.mp4", "/1.mp4"],
    ["//1.mp4", "/1.mp4"],
    ["///12.mp4", "/12.mp4"],
    ["media/3.mp4", "/media/3.mp4"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseMediaPath(input)).toBe(expected);
  });
});

describe("getVideo", () => {
  it("finds a video by id", () => {
    expect(getVideo("video_001")?.id).toBe("video_001");
    expect(getVideo("video_050")).toBe(videos[49]);
    expect(getVideo("video_007")?.videoFile).toBe("/7.mp4");
  });

  it("returns undefined for unknown ids", () => {
    for (const id of ["video_000", "video_051", "", "VIDEO_001", "video_1", "toString", "__proto__"]) {
      expect(getVideo(id), id).toBeUndefined();
    }
  });
});

describe("categoryDisplayName", () => {
  it.each([
    ["all", "全部视频"],
    ["电影", "电影大全"],
    ["电视剧", "电视剧"],
    ["综艺", "综艺节目"],
    ["纪录片", "纪录片"],
    ["动画", "动画片"],
    ["微电影", "微电影"],
    ["网络剧", "网络剧"],
  ])("%s → %s", (name, display) => {
    expect(categoryDisplayName(name)).toBe(display);
  });

  it("returns any other name as given", () => {
    for (const name of ["悬疑", "短剧", "科幻", "ALL", "", "toString", "constructor"]) {
      expect(categoryDisplayName(name)).toBe(name);
    }
  });
});

describe("MAIN_CATEGORIES and videoNumber", () => {
  it("lists the four main categories in header order", () => {
    expect([...MAIN_CATEGORIES]).toEqual(["电影", "电视剧", "综艺", "纪录片"]);
  });

  it("extracts the number from the id", () => {
    expect(videoNumber(videos[0])).toBe(1);
    expect(videoNumber(getVideo("video_007")!)).toBe(7);
    expect(videoNumber(videos[49])).toBe(50);
  });
});
