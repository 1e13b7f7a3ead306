// 评分 in Chromium (docs/decisions/0115-viewer-ratings.md): signed out, the page shows the
// viewers' average and asks to 登录; signed in, a viewer rates with the mouse (a half star) or the
// keyboard (Space, then the arrow keys: the player's shortcuts stay out of the way), sees the
// average and count change, removes the score; the panel has no axe violations.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations } from "./axe";
import { browserForFile, PHONE } from "./browser";
import { go, newVisitor, signUpViaApi } from "./visitors";

const browser = browserForFile();
const TITLE = "/video/video_012";

const panel = (page: Page) => page.locator("section.rating-panel");
const viewers = (page: Page) => page.getByTestId("viewer-rating");
/** The stars are interactive once the panel's chunk has hydrated the server's HTML. */
const stars = (page: Page) => panel(page).getByRole("group", { name: "我的评分" });

async function ratedPage(tag: string, viewport: { width: number; height: number } = PHONE) {
  const context = await newVisitor(browser(), { viewport });
  await signUpViaApi(context, tag);
  const page = await context.newPage();
  await go(page, TITLE);
  await stars(page).waitFor();
  return { context, page };
}

describe("评分", () => {
  it("signed out: the average and count without a way to rate, and a 登录 link", async () => {
    const context = await newVisitor(browser(), { viewport: PHONE });
    const page = await context.newPage();
    await go(page, TITLE);
    await expect.poll(() => viewers(page).textContent()).toMatch(/观众评分.*人评分/);
    await panel(page).getByRole("link", { name: "登录" }).waitFor();
    expect(await panel(page).getByRole("radio").count()).toBe(0);
    expect(await panel(page).getByRole("progressbar").count()).toBe(5);
    await context.close();
  });

  it("the panel's chunk fails to load: a line says so, and the page's library still arrives", async () => {
    const context = await newVisitor(browser(), { viewport: PHONE });
    await context.addInitScript(() => localStorage.setItem("yingshi:library", JSON.stringify({ favourites: ["video_012"], history: [] })));
    const page = await context.newPage();
    await page.route(/\/assets\/RatingPanel-[\w-]+\.js$/, (route) => route.abort());
    await go(page, TITLE);
    await panel(page).getByRole("alert").filter({ hasText: "评分加载失败，请刷新页面重试" }).waitFor();
    // The page's updates waited for the panel, and go on once it has given up.
    await page.waitForFunction(() => document.querySelector(".video-actions button[aria-pressed]")?.getAttribute("aria-pressed") === "true");
    await context.close();
  });

  it("rates with a click and with the keyboard: the average and count follow; the score can be removed", async () => {
    const first = await ratedPage("rate-click");
    const before = Number((/(\d+)人评分/.exec((await viewers(first.page).textContent()) ?? "") ?? [])[1] ?? NaN);
    expect(before).toBe(0);
    // The fourth star's right half: 8 points, 4 stars.
    await stars(first.page).locator("label.rating-half").nth(7).click();
    await panel(first.page).getByRole("status").filter({ hasText: "已评分：4星 推荐" }).waitFor();
    await expect.poll(() => viewers(first.page).textContent()).toBe("观众评分8.01人评分");
    expect(await stars(first.page).getByRole("radio", { name: "4星（8分）" }).isChecked()).toBe(true);
    // The panel's own elements (the rest of the page is tests/e2e/a11y.test.ts's).
    expect((await axeViolations(first.page)).filter((line) => line.includes("rating"))).toEqual([]);

    // Another viewer, on a desktop, with the keyboard only.
    const second = await ratedPage("rate-keys", { width: 1280, height: 900 });
    await expect.poll(() => viewers(second.page).textContent()).toBe("观众评分8.01人评分");
    await stars(second.page).getByRole("radio", { name: "0.5星（1分）" }).focus();
    await second.page.keyboard.press("Space");
    for (let i = 0; i < 3; i++) await second.page.keyboard.press("ArrowRight");
    expect(await stars(second.page).getByRole("radio", { name: "2星（4分）" }).isChecked()).toBe(true);
    await panel(second.page).getByRole("status").filter({ hasText: "已评分：2星 较差" }).waitFor();
    await expect.poll(() => viewers(second.page).textContent()).toBe("观众评分6.02人评分");
    // The arrow keys rated: they did not seek the player.
    expect(await second.page.$eval("video.player-video", (v) => (v as HTMLVideoElement).currentTime)).toBeLessThan(5);
    await second.context.close();

    // The first viewer's next visit shows both ratings and its own score; it removes it.
    await go(first.page, TITLE);
    await stars(first.page).waitFor();
    await expect.poll(() => stars(first.page).getByRole("radio", { name: "4星（8分）" }).isChecked()).toBe(true);
    await expect.poll(() => viewers(first.page).textContent()).toBe("观众评分6.02人评分");
    await panel(first.page).getByRole("button", { name: "删除评分" }).click();
    await panel(first.page).getByRole("status").filter({ hasText: "已删除评分" }).waitFor();
    await expect.poll(() => viewers(first.page).textContent()).toBe("观众评分4.01人评分");
    await first.context.close();
  });
});
