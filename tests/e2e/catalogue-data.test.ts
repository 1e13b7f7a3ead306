/**
 * The catalogue is not in the browser: after hydration a navigation fetches that page's loader
 * data (GET /api/page/…) and nothing else of the catalogue; facets work by URL, by the controls
 * and without JavaScript.
 */
import type { BrowserContext, Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, DESKTOP, browserForFile, listingShows, newPage, waitForHydration, waitPlaying } from "./browser";

const browser = browserForFile();

/** A cover image: the file named after a media number (/12.webp). */
const COVER = /^\/\d+\.webp$/;
const NOT_FOUND = /^Failed to load resource: the server responded with a status of 404/;

/**
 * The console's 404s of cover images: titles whose media are not packed locally (MEDIA_TITLES
 * below 50) have no cover, which is not this file's subject. Chromium names the resource only in
 * the message's location, so they are told apart here; every other error (a video's 404, 视频播放失败)
 * stays in the page's log.
 */
function cover404s(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (msg) => {
    const url = msg.location().url;
    if (msg.type() === "error" && NOT_FOUND.test(msg.text()) && url && COVER.test(new URL(url).pathname)) seen.push(`error: ${msg.text()}`);
  });
  return seen;
}

/** The page's console errors but one entry for each cover 404. */
function besidesCover404s(errors: readonly string[], covers: readonly string[]): string[] {
  const rest = [...errors];
  for (const cover of covers) {
    const i = rest.indexOf(cover);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

/**
 * Downloads of `path` (pathname + search) from the site (CDP): requests the browser answered from
 * its own cache are not counted.
 */
async function downloadsOf(context: BrowserContext, page: Page, path: string): Promise<{ count: number }> {
  const cdp = await context.newCDPSession(page);
  const ours = new Set<string>();
  const cached = new Set<string>();
  const counted = { count: 0 };
  cdp.on("Network.requestWillBeSent", (e) => {
    const url = new URL(e.request.url);
    if (decodeURIComponent(url.pathname + url.search) === path) ours.add(e.requestId);
  });
  cdp.on("Network.requestServedFromCache", (e) => cached.add(e.requestId));
  cdp.on("Network.responseReceived", (e) => {
    if (e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker) cached.add(e.requestId);
  });
  cdp.on("Network.loadingFinished", (e) => {
    if (ours.has(e.requestId) && !cached.has(e.requestId)) counted.count++;
  });
  await cdp.send("Network.enable");
  return counted;
}

/** Same-origin requests other than static files and media: what a navigation asks of the worker. */
function dataRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== new URL(baseURL()).origin) return;
    if (/^\/(assets|stream)\/|\.(webp|mp4|svg|png|ico|css|js)$/.test(url.pathname)) return;
    seen.push(decodeURIComponent(url.pathname + url.search));
  });
  return seen;
}

describe("client navigation fetches only the page's data", () => {
  it("listing → next page → detail: one /api/page request each, with card data for what is shown", async () => {
    const context = await browser().newContext({ viewport: DESKTOP, locale: "zh-CN" });
    const { page, log } = await newPage(context);
    const covers = cover404s(page);
    await page.goto(baseURL() + "/category/all");
    await waitForHydration(page);
    const requests = dataRequests(page);

    await page.locator(".pagination a", { hasText: "2" }).first().click();
    await listingShows(page, (url) => url.searchParams.get("page") === "2");
    // The link's data (prefetched on hover as the pointer reached it, then read by the loader) and nothing else.
    expect(new Set(requests.filter((r) => r.startsWith("/api/page/")))).toEqual(new Set(["/api/page/category/all?page=2"]));

    const card = page.locator(".video-card-link").first();
    const href = (await card.getAttribute("href")) ?? "";
    const title = await card.locator(".video-card-title").innerText();
    await card.click();
    await page.waitForURL((url) => url.pathname === href);
    await expect(page.locator("h1.video-title").innerText()).resolves.toBe(title);
    // The title plays (a playback failure would log 视频播放失败, which no filter hides).
    await waitPlaying(page, 0.3);
    expect(new URL(page.url()).pathname).toBe(href);
    const pageData = new Set(requests.filter((r) => r.startsWith("/api/page/")));
    expect(pageData).toContain(`/api/page${href}`);
    // Other page data only for links the pointer passed over (prefetch on intent).
    for (const r of pageData) expect(r).toMatch(/^\/api\/page\/(category\/all\?page=2|video\/video_\d+)$/);
    // Nothing but page data (and the detail page's own 弹幕 and playback calls) was asked for.
    for (const r of requests) expect(r, r).toMatch(/^\/api\/(page|danmaku|plays?)\//);
    expect(besidesCover404s(log.errors, covers)).toEqual([]);
    await context.close();
  });

  it("hovering a link prefetches its data, and the navigation reuses it", async () => {
    const context = await browser().newContext({ viewport: DESKTOP, locale: "zh-CN" });
    const { page, log } = await newPage(context);
    const covers = cover404s(page);
    await page.goto(baseURL() + "/latest");
    await waitForHydration(page);
    const DATA = "/api/page/latest?page=2";
    const requests = dataRequests(page);
    const downloads = await downloadsOf(context, page, DATA);
    const link = page.locator(".pagination a", { hasText: "2" }).first();
    const prefetched = page.waitForResponse((r) => r.url() === baseURL() + DATA);
    await link.hover();
    await (await prefetched).finished();
    expect(requests).toEqual([DATA]);
    await link.click();
    await listingShows(page, (url) => url.searchParams.get("page") === "2");
    // Two reads of the page's data — the prefetch and the navigation's — and nothing else;
    // only the prefetch went to the site: the navigation read its answer from the browser cache.
    expect(requests).toEqual([DATA, DATA]);
    expect(downloads.count).toBe(1);
    expect(besidesCover404s(log.errors, covers)).toEqual([]);
    await context.close();
  });
});

describe("facets", () => {
  it("by the controls: 类型, 地区, 字母 and 最热 change the URL, reset the page and filter the cards", async () => {
    const context = await browser().newContext({ viewport: DESKTOP, locale: "zh-CN" });
    const { page, log } = await newPage(context);
    const covers = cover404s(page);
    await page.goto(baseURL() + "/category/all?page=2");
    await waitForHydration(page);
    const genre = page.locator("#facet-genre + .facet-options a").nth(1);
    const genreName = await genre.innerText();
    await genre.click();
    await listingShows(page, (url) => url.searchParams.get("genre") === genreName && !url.searchParams.has("page"));
    await expect(page.locator("#facet-genre + .facet-options a[aria-current=true]").innerText()).resolves.toBe(genreName);
    const area = page.locator("#facet-area + .facet-options a").nth(1);
    const areaName = await area.innerText();
    await area.click();
    await listingShows(page, (url) => url.searchParams.get("area") === areaName && url.searchParams.get("genre") === genreName);
    await page.locator("#facet-sort + .facet-options a", { hasText: "最热" }).click();
    await listingShows(page, (url) => url.searchParams.get("sort") === "hot");
    await page.locator("#facet-letter + .facet-options a", { hasText: "全部" }).click();
    expect(besidesCover404s(log.errors, covers)).toEqual([]);
    await context.close();
  });

  it("by URL and without JavaScript: the server renders the filtered page and its links", async () => {
    const context = await browser().newContext({ viewport: DESKTOP, locale: "zh-CN", javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseURL() + "/category/all?letter=W");
    const titles = await page.locator(".video-card-title").allInnerTexts();
    expect(titles).toContain("雾港来信");
    await expect(page.locator("#facet-letter + .facet-options a[aria-current=true]").innerText()).resolves.toBe("W");
    // A plain link to another facet value is a full page load that works.
    await page.locator("#facet-letter + .facet-options a", { hasText: "全部" }).click();
    await page.waitForURL((url) => !url.searchParams.has("letter"));
    await page.locator(".video-card-link").first().click();
    await page.waitForURL((url) => url.pathname.startsWith("/video/"));
    await expect(page.locator("h1.video-title").count()).resolves.toBe(1);
    await context.close();
  });
});
