import { describe, expect, it } from "vitest";
import {
  lineOrigins,
  nextLine,
  playLines,
  shouldLeaveLine,
  startLine,
  switchedNotice,
  FAILING_STALL_MS,
  STALL_SWITCH_MS,
  type LineHealth,
} from "../../shared/playback/lines";
import { validateCatalogue, formatProblem } from "../../shared/catalogue/schema";
import type { Video } from "../../shared/catalogue/types";
import { getVideo } from "../../scripts/catalogue/titles";

const base = {
  id: "video_900",
  title: "测试",
  description: "简介",
  category: ["电影"],
  tags: [],
  year: 2025,
  rating: 8,
  duration: "01:00:00",
  coverImage: "/900.webp",
  videoFile: "/900.mp4",
};

describe("线路: the lines of a title or episode", () => {
  it("the site's own stream first, then mirrors of the same /stream/ tree, then external URLs; names default to 线路N", () => {
    const film: Video = {
      ...base,
      lines: [{ url: "https://v.example.com/a/film.mp4?sig=1" }, { name: "大陆CDN", mirror: "https://cdn.example.cn/ys" }, { mirror: "/mirror" }],
    };
    expect(playLines(film)).toEqual([
      { index: 0, name: "线路1", kind: "hls", src: "/stream/900/master.m3u8", origin: null },
      { index: 1, name: "大陆CDN", kind: "hls", src: "https://cdn.example.cn/ys/stream/900/master.m3u8", origin: "https://cdn.example.cn" },
      { index: 2, name: "线路3", kind: "hls", src: "/mirror/stream/900/master.m3u8", origin: null },
      { index: 3, name: "线路4", kind: "mp4", src: "https://v.example.com/a/film.mp4?sig=1", origin: "https://v.example.com" },
    ]);
    expect(lineOrigins(film)).toEqual(["https://cdn.example.cn", "https://v.example.com"]);
  });

  it("a series: the title's mirrors for every episode (its own media number), each episode's own external lines after them", () => {
    const series: Video = {
      ...base,
      lines: [{ mirror: "https://m.example.net" }],
      episodes: [
        { videoFile: "/900.mp4", duration: "40:00", lines: [{ url: "https://e.example.org/1.m3u8" }] },
        { videoFile: "/90002.mp4", duration: "40:00" },
      ],
    };
    expect(playLines(series, 1).map((l) => l.src)).toEqual([
      "/stream/900/master.m3u8",
      "https://m.example.net/stream/900/master.m3u8",
      "https://e.example.org/1.m3u8",
    ]);
    expect(playLines(series, 2).map((l) => l.src)).toEqual(["/stream/90002/master.m3u8", "https://m.example.net/stream/90002/master.m3u8"]);
    expect(playLines(series, 3)).toEqual([]);
    expect(lineOrigins(series).sort()).toEqual(["https://e.example.org", "https://m.example.net"]);
  });

  it("the catalogue file's line rules", () => {
    const problems = (entry: unknown) => {
      const r = validateCatalogue([entry]);
      return r.ok ? [] : r.problems.map(formatProblem);
    };
    expect(problems({ ...base, lines: [{ mirror: "/mirror" }, { url: "https://x.example/v.m3u8" }] })).toEqual([]);
    expect(problems({ ...base, lines: [{ mirror: "/mirror", url: "https://x.example/v.m3u8" }] })).toEqual([
      `video_900 lines.0: 须有 "mirror" 或 "url"（二者只能有一个）`,
    ]);
    expect(problems({ ...base, lines: [{ url: "ftp://x.example/v.m3u8" }] })).toEqual(["video_900 lines.0.url: 应为 .m3u8 或 .mp4 文件的 http(s) 地址"]);
    expect(problems({ ...base, lines: [{ mirror: "https://cdn.example.cn/" }] })[0]).toMatch(/lines\.0\.mirror: 应为主机和路径/);
    expect(problems({ ...base, episodes: [{ videoFile: "900.mp4", duration: "10:00" }], lines: [{ url: "https://x.example/v.m3u8" }] })).toEqual([
      "video_900 lines.0.url: 剧集的外部地址应写在该集的线路里（episodes.N.lines）",
    ]);
    expect(problems({ ...base, subtitles: ["zh-CN", "fr"] })[0]).toMatch(/subtitles\.1: 只能是 zh-CN、zh-TW、en/);
  });

  it("starts on the remembered line while the title still has it", () => {
    const lines = playLines({ ...base, lines: [{ mirror: "/mirror" }] });
    expect(startLine(lines, null)).toBe(0);
    expect(startLine(lines, 1)).toBe(1);
    expect(startLine(lines, 2)).toBe(0);
    expect(startLine(lines, -1)).toBe(0);
  });

  it("fails over to the next line that has not failed, wrapping round, until none is left", () => {
    expect(nextLine(3, 0, new Set([0]))).toBe(1);
    expect(nextLine(3, 1, new Set([0, 1]))).toBe(2);
    expect(nextLine(3, 2, new Set([2]))).toBe(0);
    expect(nextLine(3, 2, new Set([0, 1, 2]))).toBeNull();
    expect(nextLine(1, 0, new Set([0]))).toBeNull();
  });

  it("leaves a line on a fatal error, on a stall while its requests fail, or on a long stall; never offline or with no line left", () => {
    const healthy: LineHealth = { fatal: false, stalledMs: 0, networkErrors: 0, online: true, hasNext: true };
    expect(shouldLeaveLine(healthy)).toBe(false);
    expect(shouldLeaveLine({ ...healthy, fatal: true })).toBe(true);
    expect(shouldLeaveLine({ ...healthy, fatal: true, hasNext: false })).toBe(false);
    // Failing requests but the buffer still plays: hls.js retries, nobody sees a thing.
    expect(shouldLeaveLine({ ...healthy, networkErrors: 3 })).toBe(false);
    expect(shouldLeaveLine({ ...healthy, networkErrors: 1, stalledMs: FAILING_STALL_MS - 1 })).toBe(false);
    expect(shouldLeaveLine({ ...healthy, networkErrors: 1, stalledMs: FAILING_STALL_MS })).toBe(true);
    expect(shouldLeaveLine({ ...healthy, stalledMs: STALL_SWITCH_MS - 1 })).toBe(false);
    expect(shouldLeaveLine({ ...healthy, stalledMs: STALL_SWITCH_MS })).toBe(true);
    expect(shouldLeaveLine({ ...healthy, stalledMs: STALL_SWITCH_MS * 10, networkErrors: 5, online: false })).toBe(false);
  });

  it("the notice names the line", () => {
    expect(switchedNotice(playLines({ ...base, lines: [{ mirror: "/mirror" }] })[1])).toBe("已切换到线路2");
  });

  it("the built-in catalogue shows both features: a title with a second line the local site serves, one with subtitles in two languages", () => {
    const video = getVideo("video_001") as Video;
    expect(playLines(video).map((l) => l.src)).toEqual(["/stream/1/master.m3u8", "/mirror/stream/1/master.m3u8"]);
    expect(video.subtitles).toEqual(["zh-CN", "en"]);
  });
});
