import { describe, expect, it } from "vitest";
import { chosenSubtitleLanguage, subtitleLanguagesOf } from "../../shared/stream/subtitle-languages";

describe("the subtitles the player shows (chosenSubtitleLanguage)", () => {
  const both = subtitleLanguagesOf({ subtitles: ["en", "zh-CN"] });

  it("the remembered language where the media has it", () => {
    expect(both).toEqual(["zh-CN", "en"]);
    expect(chosenSubtitleLanguage(both, { subtitles: true, subtitleLanguage: "en" })).toBe("en");
  });

  it("else the media's first language", () => {
    expect(chosenSubtitleLanguage(both, { subtitles: true, subtitleLanguage: "zh-TW" })).toBe("zh-CN");
    expect(chosenSubtitleLanguage(["en"], { subtitles: true, subtitleLanguage: "zh-CN" })).toBe("en");
  });

  it("none while 字幕 is off, before the preferences are read, or when the media has no subtitles", () => {
    expect(chosenSubtitleLanguage(both, { subtitles: false, subtitleLanguage: "en" })).toBeNull();
    expect(chosenSubtitleLanguage(both, null)).toBeNull();
    expect(chosenSubtitleLanguage([], { subtitles: true, subtitleLanguage: "en" })).toBeNull();
  });
});
