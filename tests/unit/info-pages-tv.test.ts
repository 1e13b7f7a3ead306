// The help page's 在电视上看 (投屏 and TV boxes, decisions 0105/0106): the address a TV box needs,
// pictures that are the site's own files at their real size, and the links to it from 关于我们 and 使用指南.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INFO_PAGES, TV_HELP_PATH } from "../../shared/content/info-pages";

const PUBLIC = path.resolve(import.meta.dirname, "../../public");

/** Width and height of a baseline or progressive JPEG (its SOF marker). */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1];
    if (marker === 0xc0 || marker === 0xc2) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error("no SOF marker");
}

const tv = INFO_PAGES.help.sections.find((section) => section.id === "tv");

describe("在电视上看", () => {
  it("is a section of 帮助中心 that names both ways and the TV box's address", () => {
    expect(TV_HELP_PATH).toBe("/info/help#tv");
    expect(tv?.address).toBe("/tvbox.json");
    const text = tv?.paragraphs.join("\n") ?? "";
    for (const words of ["投屏", "Chromecast", "AirPlay", "TVBox", "影视仓", "配置地址"]) expect(text, words).toContain(words);
  });

  it("shows screenshots from public/, each at the size its img declares", () => {
    expect(tv?.figures?.length).toBeGreaterThanOrEqual(2);
    for (const figure of tv?.figures ?? []) {
      expect(figure.src).toMatch(/^\/help\/[a-z-]+\.jpg$/);
      const file = path.join(PUBLIC, figure.src);
      expect(fs.existsSync(file), figure.src).toBe(true);
      expect(jpegSize(fs.readFileSync(file)), figure.src).toEqual({ width: figure.width, height: figure.height });
      expect(figure.alt.length).toBeGreaterThan(4);
    }
  });

  it("关于我们 and 使用指南 link to it", () => {
    for (const page of [INFO_PAGES.about, INFO_PAGES.guide]) {
      expect(
        page.sections.flatMap((section) => section.links ?? []).map((link) => link.to),
        page.title,
      ).toContain(TV_HELP_PATH);
    }
  });
});
