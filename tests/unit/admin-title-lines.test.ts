import { describe, expect, it } from "vitest";
import { entryFromForm, formOfEntry, keepUnshownFields, linesFromText, linesToText } from "../../shared/admin/title-form";
import { validateCatalogue, type TitleEntry } from "../../shared/catalogue/schema";
import { getVideo } from "../../scripts/catalogue/titles";

describe("视频管理's 线路 field and what the form does not show", () => {
  it("one line a row, 名称 | 地址 or 地址: a media file's URL is an external line, anything else a mirror", () => {
    expect(linesFromText("  \n")).toBeUndefined();
    expect(linesFromText("大陆CDN | https://cdn.example.cn\n/mirror\nhttps://v.example.com/a.m3u8?sig=1\n备用 | https://v.example.com/b.mp4")).toEqual([
      { name: "大陆CDN", mirror: "https://cdn.example.cn" },
      { mirror: "/mirror" },
      { url: "https://v.example.com/a.m3u8?sig=1" },
      { name: "备用", url: "https://v.example.com/b.mp4" },
    ]);
    const lines = [{ name: "线路2", mirror: "/mirror" }, { url: "https://v.example.com/b.mp4" }];
    expect(linesFromText(linesToText({ lines }))).toEqual(lines);
  });

  it("the form round-trips a title's lines, and a save keeps its 字幕 and each episode's own lines and 字幕 (matched by video file)", () => {
    const film = getVideo("video_001") as TitleEntry;
    const values = formOfEntry(film, "published", 0);
    expect(values.lines).toBe("线路2 | /mirror");
    const formed = entryFromForm((n) => values[n] ?? "");
    expect(formed.lines).toEqual(film.lines);
    expect(formed.subtitles).toBeUndefined(); // not a form field…
    expect(keepUnshownFields(formed, film).subtitles).toEqual(["zh-CN", "en"]); // …kept from the saved entry
    const valid = validateCatalogue([keepUnshownFields(formed, film)]);
    expect(valid.ok).toBe(true);

    const series = getVideo("video_003") as TitleEntry;
    const saved: TitleEntry = {
      ...series,
      episodes: series.episodes!.map((e, i) => (i === 1 ? { ...e, subtitles: ["en" as const], lines: [{ url: "https://v.example.com/2.mp4" }] } : e)),
    };
    const reordered = { ...entryFromForm((n) => formOfEntry(saved, "published", 0)[n] ?? "") };
    const episodes = reordered.episodes as Array<Record<string, unknown>>;
    reordered.episodes = [episodes[0], episodes[2], episodes[1], ...episodes.slice(3)];
    const kept = keepUnshownFields(reordered, saved).episodes as Array<Record<string, unknown>>;
    expect(kept[2]).toMatchObject({
      videoFile: saved.episodes![1].videoFile.replace(/^\//, ""),
      subtitles: ["en"],
      lines: [{ url: "https://v.example.com/2.mp4" }],
    });
    expect(kept[1].subtitles).toBeUndefined();
  });
});
