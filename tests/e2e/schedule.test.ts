// 追剧周表 in Chromium (docs/decisions/0090-serial-schedule.md): /schedule with JavaScript (tabs
// navigate in the page) and without (the tabs are plain links), and the home page's 今日更新 row.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import { chinaWeekday, updatesOn, weekdayName, weekdaysFrom, type Weekday } from "../../shared/schedule";
import { baseURL, browserForFile, PHONE } from "./browser";
import { newVisitor, visit } from "./visitors";

const browser = browserForFile();

const titlesOn = (day: Weekday) =>
  videos
    .filter((v) => updatesOn(v, day))
    .map((v) => v.title)
    .sort();

const cardTitles = async (page: Page) => (await page.locator("main .video-card-title").allInnerTexts()).sort();
const tabs = (page: Page) => page.getByRole("navigation", { name: "星期" }).getByRole("link");

describe("追剧周表", () => {
  it("opens on today's tab and moves between weekdays in the page", async () => {
    const today = chinaWeekday(Date.now());
    const { context, page, log } = await visit(browser(), "/schedule");
    expect(await tabs(page).allInnerTexts()).toEqual(weekdaysFrom(today).map((d, i) => (i === 0 ? `今天 ${weekdayName(d)}` : weekdayName(d))));
    await expect(tabs(page).first().getAttribute("aria-current")).resolves.toBe("page");
    expect(await cardTitles(page)).toEqual(titlesOn(today));

    const next = weekdaysFrom(today)[1];
    const documents: string[] = [];
    page.on("request", (r) => void (r.resourceType() === "document" && documents.push(r.url())));
    await tabs(page).nth(1).click();
    await page.waitForURL((url) => url.searchParams.get("day") === String(next));
    await page.getByRole("heading", { name: `${weekdayName(next)}更新` }).waitFor();
    expect(await cardTitles(page)).toEqual(titlesOn(next));
    await expect(tabs(page).nth(1).getAttribute("aria-current")).resolves.toBe("page");
    expect(documents).toEqual([]); // a navigation of the app, not a new document
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("works without JavaScript: every tab is a link to its day", async () => {
    const context = await newVisitor(browser(), { viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseURL() + "/schedule");
    const today = chinaWeekday(Date.now());
    expect(await cardTitles(page)).toEqual(titlesOn(today));
    const last = weekdaysFrom(today)[6];
    await tabs(page).nth(6).click();
    await page.waitForURL((url) => url.searchParams.get("day") === String(last));
    await page.getByRole("heading", { name: `${weekdayName(last)}更新` }).waitFor();
    expect(await cardTitles(page)).toEqual(titlesOn(last));
    // At 360 px the seven tabs wrap inside the page: nothing scrolls sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });

  it("the home page's 今日更新 lists today's series and leads to the 追剧周表", async () => {
    const today = chinaWeekday(Date.now());
    const { context, page } = await visit(browser(), "/");
    const row = page.locator(".home-today");
    await row.getByRole("heading", { name: `今日更新 · ${weekdayName(today)}` }).waitFor();
    const shown = await row.locator(".video-card-title").allInnerTexts();
    expect(shown).toHaveLength(Math.min(6, titlesOn(today).length));
    for (const title of shown) expect(titlesOn(today)).toContain(title);
    await row.getByRole("link", { name: /追剧周表/ }).click();
    await page.waitForURL((url) => url.pathname === "/schedule");
    await page.getByRole("heading", { name: "今日更新" }).waitFor();
    await context.close();
  });
});
