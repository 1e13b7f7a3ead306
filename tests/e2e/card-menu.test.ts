// 稍后再看 and 追剧 from a video card (docs/decisions/0097-card-menu.md): the card's 更多 menu (a
// button for mouse and keyboard, a long press for touch) adds to the lists the title page uses —
// the browser's while signed out, the account's while signed in — and /library shows them.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations } from "./axe";
import { baseURL, browserForFile } from "./browser";
import { go, newVisitor, signUpViaApi } from "./visitors";

const browser = browserForFile();

const laterSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "稍后再看", exact: true }) });
const followsSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "我的追剧" }) });

/** The first card of the home page whose 更多 button says it is a series (data-episodes) or not. */
async function firstCard(page: Page, series: boolean) {
  const card = page.locator("article.video-card", { has: page.locator(`.video-card-more${series ? "[data-episodes]" : ":not([data-episodes])"}`) }).first();
  const title = (await card.locator(".video-card-title").textContent()) ?? "";
  return { card, title, more: card.locator(".video-card-more") };
}

describe("the 更多 menu of a video card", () => {
  it("adds to 稍后再看 signed out by keyboard and mouse, says the state, and /library lists it", async () => {
    const context = await newVisitor(browser());
    const page = await context.newPage();
    await go(page, "/");
    const { card, title, more } = await firstCard(page, false);
    const size = async () => {
      const box = await card.boundingBox();
      return { width: box?.width, height: box?.height };
    };
    const before = await size();

    await more.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu", { name: `「${title}」的更多操作` });
    await menu.waitFor();
    expect(await more.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("稍后再看");
    expect(await axeViolations(page)).toEqual([]);
    expect(await size()).toEqual(before); // the card kept its size
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    expect(await more.getAttribute("aria-expanded")).toBe("false");
    expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);

    await more.click();
    await menu.getByRole("menuitem", { name: "稍后再看" }).click();
    await page.getByRole("status").filter({ hasText: "已加入稍后再看" }).waitFor();
    await more.click();
    await menu.getByRole("menuitem", { name: "移出稍后再看" }).waitFor();
    await menu.getByText("已在稍后再看").waitFor();
    await page.keyboard.press("Escape");

    await go(page, "/library");
    await laterSection(page).getByText(title).waitFor();
    await context.close();
  });

  it("adds to 稍后再看 and 追剧 signed in by a long press, kept on the account", async () => {
    const context = await newVisitor(browser(), { hasTouch: true, isMobile: true, viewport: { width: 360, height: 740 } });
    await signUpViaApi(context, "card-menu");
    const page = await context.newPage();
    // The account's lists are read at load; a change made before they arrive would not be sent.
    const accountLists = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/lists");
    await go(page, "/");
    await accountLists;
    const { card, title, more } = await firstCard(page, true);
    await card.scrollIntoViewIfNeeded();
    const box = await card.locator(".video-card-cover").boundingBox();
    if (!box) throw new Error("no cover");
    const touch = await context.newCDPSession(page);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
    const menu = page.getByRole("menu", { name: `「${title}」的更多操作` });
    await menu.waitFor();
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    expect(new URL(page.url()).pathname).toBe("/"); // the long press did not open the title
    await menu.getByRole("menuitem", { name: "追剧" }).tap();
    await page.getByRole("status").filter({ hasText: "已加入追剧" }).waitFor();
    await more.tap();
    await menu.getByRole("menuitem", { name: "稍后再看" }).tap();
    await page.getByRole("status").filter({ hasText: "已加入稍后再看" }).waitFor();

    const id = await more.getAttribute("data-id");
    await expect
      .poll(async () => {
        const answer = (await (await context.request.get(baseURL() + "/api/lists")).json()) as {
          lists: { follows: Array<{ id: string }>; watchLater: Array<{ id: string }> };
        };
        return [answer.lists.follows.map((i) => i.id), answer.lists.watchLater.map((i) => i.id)];
      })
      .toEqual([[id], [id]]);
    await go(page, "/library");
    await laterSection(page).getByText(title).waitFor();
    await followsSection(page).getByText(title).waitFor();
    await context.close();
  });
});
