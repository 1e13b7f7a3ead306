import { describe, expect, it } from "vitest";
import { getVideo } from "../../scripts/catalogue/titles";
import type { Video } from "../../shared/catalogue/types";
import { periodDays, parsePeriod } from "../../shared/ranking";
import { typeIdOf } from "../../worker/feeds/categories";
import { cdata, episodeNames, parseProvideRequest, playLists, remarksOf, titleIdOf, vodTime, xmlText } from "../../worker/feeds/maccms";
import { isEnded } from "../../worker/feeds/source";

const ORIGIN = "https://site.test";
const film = getVideo("video_001")!;
const series = getVideo("video_003")!;
const variety = getVideo("video_004")!;

describe("vod_play_url building", () => {
  it("a film: one 正片 per source, the master playlist first and the MP4 second, then each other 线路 as its own source", () => {
    expect(playLists(film, ORIGIN)).toEqual({
      from: "m3u8$$$mp4$$$line2m3u8",
      url: `正片$${ORIGIN}/stream/1/master.m3u8$$$正片$${ORIGIN}/1.mp4$$$正片$${ORIGIN}/mirror/stream/1/master.m3u8`,
      server: "no$$$no$$$no",
      note: "$$$$$$",
    });
  });

  it("线路: mirrors for every episode, external URLs as they are, only the kinds from= asks for", () => {
    const withLines: Video = {
      ...series,
      lines: [{ mirror: "https://cdn.example.cn" }],
      episodes: series.episodes!.map((e, i) => (i === 1 ? { ...e, lines: [{ url: "https://v.example.com/2.mp4" }] } : e)),
    };
    const lists = playLists(withLines, ORIGIN);
    expect(lists.from).toBe("m3u8$$$mp4$$$line2m3u8$$$line3mp4");
    const [, , mirror, external] = lists.url.split("$$$");
    expect(mirror.split("#")[1]).toBe("第02集$https://cdn.example.cn/stream/10302/master.m3u8");
    expect(external).toBe("第02集$https://v.example.com/2.mp4");
    expect(playLists(withLines, ORIGIN, ["mp4"]).from).toBe("mp4$$$line3mp4");
  });

  it("a series: every episode in order, joined with #, in each source", () => {
    const [hls, mp4] = playLists(series, ORIGIN).url.split("$$$");
    expect(hls.split("#")).toEqual([`第01集$${ORIGIN}/stream/3/master.m3u8`, ...[2, 3, 4, 5, 6].map((n) => `第0${n}集$${ORIGIN}/stream/1030${n}/master.m3u8`)]);
    expect(mp4.split("#")[5]).toBe(`第06集$${ORIGIN}/10306.mp4`);
  });

  it("episode names: given names kept, numbers padded to the episode count, separators made harmless", () => {
    expect(episodeNames(variety)[1]).toBe("第2期：意外来客");
    const long: Video = { ...series, episodes: Array.from({ length: 120 }, (_, i) => ({ videoFile: `${20000 + i}.mp4`, duration: "10:00" })) };
    expect(episodeNames(long).slice(0, 2)).toEqual(["第001集", "第002集"]);
    const tricky: Video = { ...series, episodes: [{ name: "A$B#C", videoFile: "3.mp4", duration: "10:00" }] };
    const { url } = playLists(tricky, ORIGIN, ["mp4"]);
    expect(url).toBe(`A＄B＃C$${ORIGIN}/3.mp4`);
    expect(url.split("$")).toHaveLength(2);
  });

  it("from= keeps only the sources asked for", () => {
    expect(playLists(film, ORIGIN, ["mp4"])).toMatchObject({ from: "mp4", url: `正片$${ORIGIN}/1.mp4`, server: "no" });
  });
});

describe("provide request parsing", () => {
  const parse = (query: string, atXml = false) => parseProvideRequest(new URLSearchParams(query), atXml);

  it("defaults: list mode, JSON, page 1 of 20; the bare call is marked", () => {
    expect(parse("")).toMatchObject({ mode: "list", format: "json", page: 1, pageSize: 20, bare: true, sources: ["m3u8", "mp4"] });
    expect(parse("ac=list").bare).toBe(false);
  });

  it("ac=detail and ac=videolist are full rows; at=xml or the path form give XML", () => {
    expect(parse("ac=detail").mode).toBe("detail");
    expect(parse("ac=videolist").mode).toBe("detail");
    expect(parse("at=xml").format).toBe("xml");
    expect(parse("", true).format).toBe("xml");
  });

  it("pagesize is clamped to 1–100; malformed numbers are ignored as MacCMS does", () => {
    expect(parse("pagesize=500").pageSize).toBe(100);
    expect(parse("pagesize=0").pageSize).toBe(20);
    expect(parse("pagesize=7&pg=3")).toMatchObject({ pageSize: 7, page: 3 });
    expect(parse("pg=abc&t=x&h=-1")).toMatchObject({ page: 1, typeId: undefined, hours: undefined });
  });

  it("ids to title ids, year ranges (either order), isend, wd trimmed, from", () => {
    expect(parse("ids=1,%2012,x,0").ids).toEqual(["video_001", "video_012"]);
    expect(titleIdOf(1234)).toBe("video_1234");
    expect(parse("year=2022-2018")).toMatchObject({ yearFrom: 2018, yearTo: 2022 });
    expect(parse("year=2020")).toMatchObject({ yearFrom: 2020, yearTo: 2020 });
    expect(parse("year=twenty").yearFrom).toBeUndefined();
    expect(parse("isend=1").ended).toBe(true);
    expect(parse("isend=0").ended).toBe(false);
    expect(parse("isend=2").ended).toBeUndefined();
    expect(parse("wd=%20%E9%9B%BE%E6%B8%AF%20").keyword).toBe("雾港");
    expect(parse("from=MP4,flv").sources).toEqual(["mp4"]);
    expect(parse("from=flv").sources).toEqual(["m3u8", "mp4"]);
  });
});

describe("row values", () => {
  it("vod_time is China Standard Time, Y-m-d H:i:s", () => {
    expect(vodTime(Date.UTC(2025, 0, 1, 16, 30, 5))).toBe("2025-01-02 00:30:05");
  });

  it("remarks and ended follow the status and the episode count", () => {
    expect(remarksOf(film)).toBe("HD");
    expect(remarksOf({ ...series, status: undefined })).toBe("全6集");
    expect(remarksOf({ ...series, status: undefined, totalEpisodes: 20 })).toBe("更新至6集");
    expect(isEnded(film)).toBe(true);
    expect(isEnded(getVideo("video_007")!)).toBe(false);
  });

  it("category ids: a sub-type before its main category, 其他 when none is known", () => {
    expect(typeIdOf(film)).toBe(1);
    expect(typeIdOf(getVideo("video_015")!)).toBe(7);
    expect(typeIdOf({ ...film, category: ["悬疑"] })).toBe(9);
  });

  it("XML text is escaped, control characters dropped, and CDATA cannot be closed early", () => {
    expect(xmlText(`a<b>&"'\u0001`)).toBe("a&#60;b&#62;&#38;&#34;&#39;");
    expect(cdata("x]]>y")).toBe("<![CDATA[x]]]]><![CDATA[>y]]>");
  });
});

describe("ranking periods", () => {
  it("day, week and month end today (UTC); anything else is the day", () => {
    const now = Date.UTC(2026, 2, 10, 23, 59);
    expect(periodDays("day", now)).toEqual({ from: "2026-03-10", to: "2026-03-10" });
    expect(periodDays("week", now)).toEqual({ from: "2026-03-04", to: "2026-03-10" });
    expect(periodDays("month", now)).toEqual({ from: "2026-02-09", to: "2026-03-10" });
    expect(parsePeriod("year")).toBe("day");
    expect(parsePeriod(null)).toBe("day");
  });
});
