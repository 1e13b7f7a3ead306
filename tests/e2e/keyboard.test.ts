import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, browserForFile, listingShows, waitForHydration } from "./browser";
import { visit } from "./visitors";

/**
 * Keyboard only: every step below is a key press (Tab, Enter, Space, arrows,
 * typing), never a click, and the element that has focus must always show it
 * (an outline or a box-shadow, on an element that is on screen and not transparent).
 */

const browser = browserForFile();

interface Focused {
  tag: string;
  text: string;
  name: string | null;
  href: string | null;
  selector: string;
  outline: string;
  boxShadow: string;
  width: number;
  height: number;
  opacity: number;
  inViewport: boolean;
}

/** What has focus now, and how it is drawn. */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) {
      return {
        tag: "body",
        text: "",
        name: null,
        href: null,
        selector: "body",
        outline: "none",
        boxShadow: "none",
        width: 0,
        height: 0,
        opacity: 1,
        inViewport: false,
      };
    }
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    // the element's own opacity times every ancestor's: a focused control in a faded-out bar is not visible
    let opacity = 1;
    for (let node: Element | null = el; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
    const outline =
      style.outlineStyle === "none" || parseFloat(style.outlineWidth) === 0 ? "none" : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.innerText ?? "").trim().slice(0, 40),
      name: el.getAttribute("aria-label") ?? el.getAttribute("name"),
      href: el.getAttribute("href"),
      selector: el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""),
      outline,
      boxShadow: style.boxShadow,
      width: rect.width,
      height: rect.height,
      opacity,
      inViewport: rect.bottom > 0 && rect.right > 0 && rect.top < window.innerHeight && rect.left < window.innerWidth,
    };
  });
}

/** Focus is visible: drawn (outline or box-shadow), with a size, on screen and opaque. */
function expectVisibleFocus(f: Focused, previous?: Focused): void {
  const label = `${f.selector} ${f.name ?? f.text}`;
  const from = previous ? ` (after ${previous.selector} ${previous.name ?? previous.text} ${previous.href ?? ""})` : "";
  expect(f.tag, `something has focus${from}`).not.toBe("body");
  expect(f.outline !== "none" || f.boxShadow !== "none", `${label} shows focus (outline ${f.outline}, box-shadow ${f.boxShadow})`).toBe(true);
  expect(f.width > 0 && f.height > 0, `${label} has a size`).toBe(true);
  expect(f.inViewport, `${label} is scrolled into view`).toBe(true);
  expect(f.opacity, `${label} is not transparent`).toBeGreaterThan(0.9);
}

/** Presses Tab (checking visible focus at each stop) until `match` holds, at most `limit` times. */
async function tabTo(page: Page, match: (f: Focused) => boolean, limit = 80, key = "Tab"): Promise<Focused> {
  let previous = await focused(page);
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    expectVisibleFocus(f, previous);
    if (match(f)) return f;
    previous = f;
  }
  throw new Error(`no focusable element matched within ${limit} presses of ${key}`);
}

const params = (page: Page) => new URL(page.url()).searchParams;

describe("keyboard only", () => {
  it("home: skip link, logo, search box (type + Enter → /search), then the category links", async () => {
    const { context, page, log } = await visit(browser(), "/");

    // 1. the first Tab lands on the skip link, which shows on screen
    let f = await tabTo(page, () => true, 1);
    expect(f.selector).toBe("a.skip-link");
    expect(f.text).toBe("跳到主要内容");
    // Enter moves focus to <main>: the next Tab is the first link of the page body
    await page.keyboard.press("Enter");
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("main");
    f = await tabTo(page, () => true, 1);
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);

    // 2. from the top again: skip link → logo → search box
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.reload();
    await waitForHydration(page);
    f = await tabTo(page, () => true, 1);
    expect(f.selector).toBe("a.skip-link");
    f = await tabTo(page, () => true, 1);
    expect(f.selector).toContain("header-logo");
    expect(f.href).toBe("/");
    f = await tabTo(page, () => true, 1);
    expect(f.tag).toBe("input");
    expect(f.name).toBe("搜索视频");
    // 3. then the search button and the category links
    f = await tabTo(page, () => true, 1);
    expect(f.text).toBe("搜索");
    const categories: string[] = [];
    for (let i = 0; i < 4; i++) {
      f = await tabTo(page, () => true, 1);
      expect(f.selector).toContain("nav-link");
      categories.push(f.text);
    }
    expect(categories).toEqual(["电影", "电视剧", "综艺", "纪录片"]);
    // Enter on a category link opens it
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === "/category/纪录片");

    // 4. search by keyboard: Tab to the box, type, Enter
    await page.goto(baseURL() + "/");
    await waitForHydration(page);
    await tabTo(page, (x) => x.tag === "input" && x.name === "搜索视频", 5);
    await page.keyboard.type("爱");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "爱");
    await page.getByRole("heading", { level: 1, name: /爱/ }).waitFor();
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("/category/all: the selects change with the arrow keys, the view toggle and pager work with Enter", async () => {
    const { context, page, log } = await visit(browser(), "/category/all");

    // year: Tab to it, ArrowDown picks the first year
    await tabTo(page, (f) => f.tag === "select" && f.name === "year");
    await page.keyboard.press("ArrowDown");
    await listingShows(page, (url) => url.searchParams.get("year") !== null);
    const year = params(page).get("year");
    expect(year).toMatch(/^\d{4}$/);
    await expect.poll(() => page.locator("select[name=year]").inputValue()).toBe(year);
    // focus stays on the select after the page updated
    expect((await focused(page)).name).toBe("year");
    await page.keyboard.press("ArrowUp");
    await listingShows(page, (url) => url.searchParams.get("year") === null);

    // rating: the next control; ArrowDown picks the next threshold, and the list follows it
    let f = await tabTo(page, () => true, 1);
    expect(f.name).toBe("rating");
    await page.keyboard.press("ArrowDown");
    await listingShows(page, (url) => url.searchParams.get("rating") !== null);
    const min = Number(params(page).get("rating"));
    expect(min).toBeGreaterThan(0);
    await page.waitForFunction((min) => {
      const ratings = [...document.querySelectorAll(".video-card .rating")].map((r) => Number(r.textContent?.replace(/[^\d.]/g, "")));
      return ratings.length > 0 && ratings.every((r) => r >= min);
    }, min);

    // sort: ArrowDown picks the next order
    f = await tabTo(page, () => true, 1);
    expect(f.name).toBe("sort");
    const before = await page.locator("select[name=sort]").inputValue();
    await page.keyboard.press("ArrowDown");
    await listingShows(page, (url) => (url.searchParams.get("sort") ?? before) !== before);
    await expect.poll(() => page.locator("select[name=sort]").inputValue()).toBe(params(page).get("sort"));
    // back to the defaults so the pager has pages, still by keyboard
    await page.keyboard.press("ArrowUp");
    await listingShows(page, (url) => url.searchParams.get("sort") === null);
    await tabTo(page, (x) => x.name === "rating", 3, "Shift+Tab");
    await page.keyboard.press("Home");
    await listingShows(page, (url) => url.searchParams.get("rating") === null);

    // view toggle: Enter on 列表, then on 网格
    await tabTo(page, (x) => x.tag === "a" && x.text === "列表");
    await page.keyboard.press("Enter");
    await listingShows(page, (url) => url.searchParams.get("view") === "list");
    await page.locator(".video-list").waitFor();
    await tabTo(page, (x) => x.tag === "a" && x.text === "网格", 3, "Shift+Tab");
    await page.keyboard.press("Enter");
    await listingShows(page, (url) => url.searchParams.get("view") === null);
    await page.locator(".video-grid").waitFor();

    // pagination: Enter on 第 2 页, then on 下一页
    await tabTo(page, (x) => x.name === "第 2 页", 120);
    await page.keyboard.press("Enter");
    await listingShows(page, (url) => url.searchParams.get("page") === "2");
    await expect.poll(() => page.locator(".pagination [aria-current=page]").innerText()).toBe("2");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, (x) => x.text === "下一页", 120);
    await page.keyboard.press("Enter");
    await listingShows(page, (url) => url.searchParams.get("page") === "3");
    await expect.poll(() => page.locator(".pagination [aria-current=page]").innerText()).toBe("3");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("/video/video_001: every player control is reachable with Tab and the play button works with Enter and Space", async () => {
    const { context, page, log } = await visit(browser(), "/video/video_001");
    await page.waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>("video.player-video");
        return !!v && !v.paused && v.currentTime > 0.2;
      },
      undefined,
      { timeout: 20_000 },
    );

    // Tab from the top into the player, then through all of its controls
    await tabTo(page, (f) => f.name === "播放进度");
    const names: string[] = [];
    for (let i = 0; i < 12; i++) {
      const inPlayer = await page.evaluate(() => !!document.activeElement?.closest(".player"));
      if (!inPlayer) break;
      names.push((await focused(page)).name ?? "");
      await tabTo(page, () => true, 1);
    }
    for (const name of ["播放进度", "暂停", "重新播放", "静音", "音量", "全屏"]) expect(names).toContain(name);
    expect(names.some((n) => n.startsWith("字幕："))).toBe(true);
    expect(names.some((n) => n.startsWith("清晰度"))).toBe(true);
    expect(names.some((n) => n.startsWith("倍速"))).toBe(true);

    // back to the play/pause button; Enter pauses, Space plays again
    await tabTo(page, (f) => f.name === "暂停" || f.name === "播放", 12, "Shift+Tab");
    const play = page.locator(".player-controls button").first();
    await expect.poll(() => play.getAttribute("aria-label")).toBe("暂停");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector<HTMLVideoElement>("video.player-video")?.paused === true);
    await expect.poll(() => play.getAttribute("aria-label")).toBe("播放");
    expectVisibleFocus(await focused(page));
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector<HTMLVideoElement>("video.player-video")?.paused === false);
    await expect.poll(() => play.getAttribute("aria-label")).toBe("暂停");

    // while it plays, the controls fade out after a while, but never the one that has keyboard focus
    await page.waitForTimeout(3_800);
    expectVisibleFocus(await focused(page));

    // the speed menu opens with Enter, a rate is chosen with Tab + Enter
    await tabTo(page, (f) => (f.name ?? "").startsWith("倍速"), 12);
    await page.keyboard.press("Enter");
    await page.locator(".player-speed .player-menu-list").waitFor();
    await tabTo(page, (f) => f.text === "1.5×", 8);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector<HTMLVideoElement>("video.player-video")?.playbackRate === 1.5);
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
