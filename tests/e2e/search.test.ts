import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, DESKTOP, browserForFile, PHONE, waitForHydration } from "./browser";
import { newVisitor, visit } from "./visitors";

/** The header's search combobox (issue 14): suggestions as you type, 热门搜索, 搜索历史. */

const browser = browserForFile();

/** The combobox's state as assistive technology sees it. */
async function comboState(page: Page) {
  return page.evaluate(() => {
    const box = document.querySelector<HTMLInputElement>('input[role="combobox"]');
    const id = box?.getAttribute("aria-activedescendant");
    const active = id ? document.getElementById(id) : null;
    const listbox = document.getElementById(box?.getAttribute("aria-controls") ?? "");
    return {
      expanded: box?.getAttribute("aria-expanded"),
      active: active?.textContent ?? null,
      activeSelected: active?.getAttribute("aria-selected") ?? null,
      focused: document.activeElement === box,
      options: listbox && !listbox.closest("[hidden]") ? [...listbox.querySelectorAll('[role="option"]')].map((o) => o.textContent ?? "") : [],
    };
  });
}

const box = (page: Page) => page.getByRole("combobox", { name: "搜索视频" });

describe("search combobox in Chromium", () => {
  it("by keyboard: pinyin initials suggest 雾港来信 first (highlighted), arrows move, Escape closes then clears, Enter opens the video", async () => {
    const { context, page, log } = await visit(browser(), "/");
    await box(page).focus();
    await page.keyboard.type("wg");
    await page.getByRole("option", { name: /雾港来信/ }).waitFor();
    await expect.poll(() => comboState(page)).toMatchObject({ expanded: "true" });
    const state = await comboState(page);
    expect(state.options[0]).toContain("雾港来信");
    expect(await page.locator('[role="option"] mark').first().textContent()).toBe("雾港");
    expect(state.options.length).toBeGreaterThan(1); // 微光工程 (wei guang) too
    expect(state.options.length).toBeLessThanOrEqual(8);

    // React applies a key press in a later frame: poll the state the combobox exposes.
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => comboState(page)).toMatchObject({ active: state.options[0], activeSelected: "true", focused: true });
    await page.keyboard.press("ArrowUp"); // wraps to the last option
    await expect.poll(() => comboState(page)).toMatchObject({ active: state.options[state.options.length - 1], focused: true });

    await page.keyboard.press("Escape");
    await expect.poll(() => comboState(page)).toMatchObject({ expanded: "false", active: null });
    expect(await box(page).inputValue()).toBe("wg");
    await page.keyboard.press("Escape"); // closed: Escape clears the box
    await expect.poll(() => box(page).inputValue()).toBe("");
    await page.keyboard.type("wg");
    await page.getByRole("option", { name: /雾港来信/ }).waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => comboState(page)).toMatchObject({ expanded: "false" });

    await page.keyboard.press("ArrowDown"); // reopens on the first option
    await expect.poll(() => comboState(page)).toMatchObject({ expanded: "true", active: state.options[0] });
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/video/video_001");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("by keyboard: Enter without an active option searches the typed text (traditional characters too)", async () => {
    const { context, page, log } = await visit(browser(), "/");
    await box(page).focus();
    await page.keyboard.type("霧港");
    await page.getByRole("option", { name: /雾港来信/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "霧港");
    await page.getByRole("heading", { level: 1, name: /霧港/ }).waitFor();
    // client-side navigation: results come from the worker, first and highlighted
    const first = page.locator(".video-card-title").first();
    expect(await first.textContent()).toBe("雾港来信");
    expect(await first.locator("mark").textContent()).toBe("雾港");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("by mouse (phone width): tap a suggestion; recent searches persist across pages and reloads, and clear", async () => {
    const { context, page, log } = await visit(browser(), "/", { viewport: PHONE });
    await page.getByRole("button", { name: "打开菜单" }).click();
    await box(page).click();
    // an empty box shows 热门搜索 (no history yet)
    await page.getByText("热门搜索").waitFor();
    await expect.poll(async () => (await comboState(page)).options.length).toBe(8);
    expect(await page.getByText("搜索历史").count()).toBe(0);

    await box(page).fill("wugang");
    await page.getByRole("option", { name: /雾港来信/ }).click();
    await page.waitForURL((url) => url.pathname === "/video/video_001");

    await page.reload();
    await waitForHydration(page);
    await page.getByRole("button", { name: "打开菜单" }).click();
    await box(page).click();
    await page.getByRole("option", { name: "wugang" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("yingshi:search-history"))).toBe('["wugang"]');

    // a history entry searches again
    await page.getByRole("option", { name: "wugang" }).click();
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "wugang");
    // the URL changes a moment before the new page is committed: wait for its heading
    await page.getByRole("heading", { level: 1, name: /wugang/ }).waitFor();
    expect(await page.locator(".video-card-title").first().textContent()).toBe("雾港来信");

    await page.getByRole("button", { name: "打开菜单" }).click();
    await box(page).fill("");
    await page.getByRole("option", { name: "清空搜索历史" }).click();
    await page.getByText("搜索历史").waitFor({ state: "detached" });
    expect(await page.evaluate(() => localStorage.getItem("yingshi:search-history"))).toBeNull();
    await expect.poll(async () => (await comboState(page)).options.length).toBe(8); // 热门搜索 stay
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("without JavaScript the form still submits to /search", async () => {
    const context = await newVisitor(browser(), { viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseURL() + "/");
    await box(page).fill("wglx");
    await box(page).press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "wglx");
    expect(await page.locator(".video-card-title").first().innerHTML()).toBe("<mark>雾港来信</mark>");
    await context.close();
  });
});
