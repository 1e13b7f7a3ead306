import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, DESKTOP, browserForFile, listingShows, newPage, PHONE, screenshot, waitForHydration } from "./browser";
import { newVisitor, visit } from "./visitors";

const browser = browserForFile();

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

describe("browsing the catalogue in Chromium", () => {
  it("home shows hero, tiles with counts and the three sections, without console errors", async () => {
    const { context, page, log } = await visit(browser(), "/");
    await expect(page.title()).resolves.toBe("免费高清影视在线观看 - 影视站");
    expect(await page.locator(".hero-actions a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual([
      "/category/电影",
      "/category/电视剧",
      "/ranking",
    ]);
    const tiles = await page.locator(".category-tile").allInnerTexts();
    expect(tiles).toHaveLength(4);
    for (const tile of tiles) expect(tile).toMatch(/\d+ 部作品/);
    // 热门推荐, 最新更新, 高分推荐 (the 今日更新 row of the 追剧周表 is tests/e2e/schedule.test.ts's).
    const sections = page.locator(".home-section:not(.home-today)");
    await expect(sections.count()).resolves.toBe(3);
    expect(await sections.nth(0).locator(".video-card").count()).toBe(8);
    expect(await sections.nth(1).locator(".video-card").count()).toBe(12);
    expect(await sections.nth(2).locator(".video-card").count()).toBe(8);
    await expect(page.locator(".why-us").isVisible()).resolves.toBe(true);
    await screenshot(page, "home-desktop");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("home at phone width", async () => {
    const { context, page, log } = await visit(browser(), "/", { viewport: PHONE });
    await screenshot(page, "home-phone");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("category filters, sort, view toggle and pagination update the URL and reset the page", async () => {
    const { context, page, log } = await visit(browser(), "/category/all");
    await expect(page.locator(".video-card").count()).resolves.toBe(12);
    // page 2 through the pager
    await page.getByRole("link", { name: "第 2 页" }).click();
    await listingShows(page, /page=2/);
    await page.locator(".pagination [aria-current=page]", { hasText: "2" }).waitFor();
    // changing the sort resets to page 1
    await page.locator("select[name=sort]").selectOption("rating");
    await listingShows(page, (url) => url.searchParams.get("sort") === "rating");
    expect(query(page).get("page")).toBeNull();
    await page.locator(".pagination [aria-current=page]", { hasText: "1" }).waitFor();
    const ratings = await page.locator(".video-card .rating").allInnerTexts();
    const values = ratings.map((r) => Number(r.replace(/[^\d.]/g, "")));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    // rating filter 9+
    await page.locator("select[name=rating]").selectOption("9");
    await listingShows(page, (url) => url.searchParams.get("rating") === "9");
    const filtered = (await page.locator(".video-card .rating").allInnerTexts()).map((r) => Number(r.replace(/[^\d.]/g, "")));
    expect(filtered.length).toBeGreaterThan(0);
    for (const v of filtered) expect(v).toBeGreaterThanOrEqual(9);
    // year filter keeps working
    await page.locator("select[name=year]").selectOption("2025");
    await listingShows(page, (url) => url.searchParams.get("year") === "2025");
    // list view
    await page.getByRole("link", { name: "列表" }).click();
    await listingShows(page, (url) => url.searchParams.get("view") === "list");
    await page.locator(".video-list").waitFor();
    await screenshot(page, "category-list-desktop");
    // back and forward follow the URL
    await page.goBack();
    await listingShows(page, (url) => url.searchParams.get("view") === null);
    await page.locator(".video-grid").waitFor();
    await page.goForward();
    await listingShows(page, (url) => url.searchParams.get("view") === "list");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("a filter that matches nothing shows the empty message", async () => {
    const { context, page } = await visit(browser(), "/category/短剧?rating=9");
    await expect(page.getByText("暂无符合条件的视频").isVisible()).resolves.toBe(true);
    await expect(page.getByText("请尝试调整筛选条件").isVisible()).resolves.toBe(true);
    await context.close();
  });

  it("header search goes to /search only for non-empty text, and the search filters work", async () => {
    const { context, page, log } = await visit(browser(), "/");
    const box = page.getByRole("combobox", { name: "搜索视频" });
    await box.fill("   ");
    await box.press("Enter");
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe("/");
    await box.fill(" 自然 ");
    await box.press("Enter");
    await page.waitForURL((url) => url.pathname === "/search");
    expect(query(page).get("q")).toBe("自然");
    await page.getByRole("heading", { level: 1, name: /自然/ }).waitFor();
    const total = await page.locator(".video-card").count();
    expect(total).toBeGreaterThan(0);
    await page.locator("select[name=category]").selectOption("纪录片");
    await page.waitForURL((url) => url.searchParams.get("category") === "纪录片");
    const chips = await page.locator(".video-card").evaluateAll((cards) => cards.length);
    expect(chips).toBeGreaterThan(0);
    await page.locator("select[name=sort]").selectOption("title");
    await page.waitForURL((url) => url.searchParams.get("sort") === "title");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("search with no match and with only spaces", async () => {
    const { context, page } = await visit(browser(), "/search?q=zzzzqqqq");
    await expect(page.getByText("未找到相关结果").isVisible()).resolves.toBe(true);
    await page.goto(baseURL() + "/search?q=%20%20");
    await expect(page.getByText("开始搜索").isVisible()).resolves.toBe(true);
    await expect(page.locator(".video-card").count()).resolves.toBe(0);
    await context.close();
  });

  it("an injected query is shown as text, never run", async () => {
    const attack = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
    const { context, page, log } = await visit(browser(), "/search?q=" + encodeURIComponent(attack));
    await expect(page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    await expect(page.locator(".search-term").innerText()).resolves.toBe(attack);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("mobile menu opens and closes with the keyboard and reports aria-expanded", async () => {
    const { context, page, log } = await visit(browser(), "/", { viewport: PHONE });
    const toggle = page.getByRole("button", { name: "打开菜单" });
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("false");
    await expect(page.locator(".main-nav").isVisible()).resolves.toBe(false);
    await toggle.focus();
    await page.keyboard.press("Enter");
    const close = page.getByRole("button", { name: "关闭菜单" });
    await expect(close.getAttribute("aria-expanded")).resolves.toBe("true");
    await expect(page.locator(".main-nav").isVisible()).resolves.toBe(true);
    await screenshot(page, "menu-open-phone");
    await page.keyboard.press("Space");
    await expect(page.getByRole("button", { name: "打开菜单" }).getAttribute("aria-expanded")).resolves.toBe("false");
    // a link in the open menu navigates and closes it
    await page.getByRole("button", { name: "打开菜单" }).click();
    await page.locator(".main-nav").getByRole("link", { name: "综艺" }).click();
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === "/category/综艺");
    await expect(page.getByRole("button", { name: "打开菜单" }).getAttribute("aria-expanded")).resolves.toBe("false");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("info pages and the unknown info page", async () => {
    const { context, page, log } = await visit(browser(), "/info/help");
    await expect(page.locator("h1").innerText()).resolves.toBe("帮助中心");
    await page.locator(".info-nav").getByRole("link", { name: "联系我们" }).click();
    await page.waitForURL(/\/info\/contact$/);
    await page.getByRole("heading", { level: 1, name: "联系我们" }).waitFor();
    await screenshot(page, "info-contact-desktop");
    const res = await page.goto(baseURL() + "/info/unknown");
    expect(res?.status()).toBe(404);
    await expect(page.getByText("页面未找到").first().isVisible()).resolves.toBe(true);
    expect(log.errors.filter((e) => !e.includes("404"))).toEqual([]);
    await context.close();
  });

  it("unknown paths and unknown videos are 404 pages with a link home", async () => {
    const { context, page } = await visit(browser(), "/");
    let res = await page.goto(baseURL() + "/no/such/page");
    expect(res?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "404 页面未找到" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "404-phone");
    res = await page.goto(baseURL() + "/video/video_404");
    expect(res?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByText("抱歉，您要查看的视频不存在或已被删除。").isVisible()).resolves.toBe(true);
    await page.getByRole("link", { name: "返回首页" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await context.close();
  });

  it("/latest and /top-rated are real listing pages", async () => {
    const { context, page, log } = await visit(browser(), "/latest");
    await expect(page.locator("h1").innerText()).resolves.toBe("最新更新");
    await expect(page.locator(".video-card").count()).resolves.toBe(12);
    await page.goto(baseURL() + "/top-rated");
    await waitForHydration(page);
    await expect(page.locator("h1").innerText()).resolves.toBe("高分推荐");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("a broken cover is replaced by the fallback logo", async () => {
    const context = await newVisitor(browser(), { viewport: DESKTOP });
    await context.route(/\/\d+\.webp$/, (route) => route.fulfill({ status: 404, body: "" }));
    const { page } = await newPage(context);
    await page.goto(baseURL() + "/category/all");
    await waitForHydration(page);
    await page.waitForFunction(() => document.querySelectorAll("img.is-fallback").length >= 4);
    const src = await page.locator(".video-card img").first().getAttribute("src");
    expect(src).toBe("/fallback-cover.svg");
    await context.close();
  });

  it("reading works without JavaScript: links and the listing state are in the URL", async () => {
    const context = await newVisitor(browser(), { viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseURL() + "/category/all?sort=title&page=2");
    await expect(page.locator(".video-card").count()).resolves.toBe(12);
    await page.getByRole("link", { name: "第 3 页" }).click();
    await page.waitForURL(/page=3/);
    expect(query(page).get("sort")).toBe("title");
    await page.getByRole("button", { name: "应用筛选" }).waitFor();
    await context.close();
  });
});
