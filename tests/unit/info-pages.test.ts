import { describe, it, expect } from "vitest";
import { INFO_PAGES, INFO_PAGE_TYPES, isInfoPageType, type InfoPage } from "../../shared/content/info-pages";

const TITLES = {
  about: "关于我们",
  contact: "联系我们",
  help: "帮助中心",
  guide: "使用指南",
  privacy: "隐私政策",
  terms: "服务条款",
  copyright: "版权声明",
  disclaimer: "免责声明",
  feedback: "意见反馈",
} as const;

function pageText(page: InfoPage): string {
  return [page.title, page.summary, ...page.sections.flatMap((s) => [s.heading, ...s.paragraphs, ...(s.items ?? [])])].join("\n");
}

const allText = INFO_PAGE_TYPES.map((type) => pageText(INFO_PAGES[type])).join("\n");

describe("INFO_PAGE_TYPES / INFO_PAGES", () => {
  it("lists the nine page types", () => {
    expect([...INFO_PAGE_TYPES]).toEqual(Object.keys(TITLES));
    expect(Object.keys(INFO_PAGES).sort()).toEqual([...INFO_PAGE_TYPES].sort());
  });

  it.each(INFO_PAGE_TYPES.map((type) => [type]))("%s has its title, a summary and 3–6 sections", (type) => {
    const page = INFO_PAGES[type];
    expect(page.type).toBe(type);
    expect(page.title).toBe(TITLES[type]);
    const summaryLength = [...page.summary].length;
    expect(summaryLength).toBeGreaterThanOrEqual(50);
    expect(summaryLength).toBeLessThanOrEqual(120);
    expect(page.sections.length).toBeGreaterThanOrEqual(3);
    expect(page.sections.length).toBeLessThanOrEqual(6);
    for (const section of page.sections) {
      expect(section.heading.trim().length).toBeGreaterThan(0);
      expect(section.paragraphs.length).toBeGreaterThan(0);
      for (const text of [...section.paragraphs, ...(section.items ?? [])]) {
        expect(text.trim().length).toBeGreaterThan(0);
      }
      if (section.items) expect(section.items.length).toBeGreaterThan(0);
    }
  });
});

describe("static-page claims (spec §9)", () => {
  it.each(["24小时内回复", "紧急问题2小时内处理", "3个工作日", "7个工作日", "工作日 9:00–18:00", "9:00", "18:00", "建议带宽 5 Mbps", "5 Mbps"])(
    "mentions %s",
    (claim) => {
      expect(allText).toContain(claim);
    },
  );

  it("lists the player keyboard shortcuts", () => {
    const help = pageText(INFO_PAGES.help);
    for (const text of ["空格键", "K", "播放或暂停", "←", "→", "10 秒", "↑", "↓", "调节音量", "F", "全屏", "M", "静音"]) {
      expect(help, text).toContain(text);
    }
    expect(help).toMatch(/F：[^\n]*全屏/);
    expect(help).toMatch(/M：[^\n]*静音/);
  });

  it("explains on the help page where favourites are kept", () => {
    const favourites = INFO_PAGES.help.sections
      .flatMap((s) => s.paragraphs)
      .filter((p) => p.includes("收藏"))
      .join("");
    expect(favourites).toContain("浏览器");
    expect(favourites).toContain("登录");
    expect(favourites).toContain("账号");
  });

  it("points to the contact details added by the contact page", () => {
    expect(pageText(INFO_PAGES.contact)).toContain("请通过页面下方的联系方式与我们联系");
  });

  it("names the brand and contains no URLs or e-mail addresses", () => {
    expect(allText).toContain("影视站");
    expect(allText).not.toMatch(/https?:\/\//i);
    expect(allText).not.toMatch(/www\./i);
    expect(allText).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  });
});

describe("isInfoPageType", () => {
  it.each(INFO_PAGE_TYPES.map((type) => [type]))("accepts %s", (type) => {
    expect(isInfoPageType(type)).toBe(true);
  });

  it.each([[""], ["About"], ["faq"], ["info"], [" about"], ["toString"], ["constructor"], ["__proto__"]])("rejects %j", (value) => {
    expect(isInfoPageType(value)).toBe(false);
  });
});
