import type { BrowserContext, Page } from "playwright-core";
import { TITLE_ID_PATTERN } from "../../shared/catalogue/title-ids";
import { describe, expect, it } from "vitest";
import { PLAYER, baseURL, browserForFile, media, newPage, open, waitForHydration, waitPlaying } from "./browser";

/**
 * Series in Chromium against `wrangler dev`: the 选集 grid, 上一集/下一集 and their keys, ended →
 * next episode, resume per episode and the home page's 继续观看. video_003 槐树巷的春天 has 6
 * episodes: episode 1 is media 3, episode N is media 1030N (6 s placeholder clips).
 */

const browser = browserForFile();

const SERIES = "video_003";
const pathname = (page: Page) => new URL(page.url()).pathname;
const source = (page: Page) => page.getAttribute(`${PLAYER} source`, "src");
const current = (page: Page) => page.locator('.episode-link[aria-current="page"]').textContent();

/** The page shows episode n: URL, media, the grid's mark, and the player plays it. */
async function showsEpisode(page: Page, n: number): Promise<void> {
  await page.waitForURL((url) => url.pathname === `/video/${SERIES}/${n}`);
  await page.waitForFunction(
    (src) => document.querySelector("video.player-video source")?.getAttribute("src") === src,
    n === 1 ? "/stream/3/master.m3u8" : `/stream/1030${n}/master.m3u8`,
  );
  expect(await current(page)).toBe(String(n));
  await waitPlaying(page, 0.2);
}

async function storedHistory(page: Page): Promise<Array<{ id: string; episode?: number; position: number }>> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem("yingshi:library") ?? "{}") as { history?: [] }).history ?? []);
}

describe("series and episodes", () => {
  it("选集 switches the episode and the URL; 上一集/下一集 and the keys N / P too", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${SERIES}`);
    expect(await current(page)).toBe("1");
    await page.locator(".episode-link", { hasText: /^3$/ }).click();
    await showsEpisode(page, 3);
    expect(await page.textContent("h1")).toBe("槐树巷的春天");
    expect(await page.title()).toContain("第3集");
    await page.getByRole("link", { name: "下一集" }).click();
    await showsEpisode(page, 4);
    await page.keyboard.press("p");
    await showsEpisode(page, 3);
    await page.keyboard.press("n");
    await showsEpisode(page, 4);
    // 倒序 lists the episodes from the last one.
    await page.getByRole("button", { name: /正序/ }).click();
    expect(await page.locator(".episode-link").allTextContents()).toEqual(["6", "5", "4", "3", "2", "1"]);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("the 选集 grid and 下一集 work without JavaScript", async () => {
    const context = await browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseURL() + `/video/${SERIES}/2`);
    expect(await current(page)).toBe("2");
    await page.locator(".episode-link", { hasText: /^5$/ }).click();
    await page.waitForURL((url) => url.pathname === `/video/${SERIES}/5`);
    expect(await current(page)).toBe("5");
    expect(await source(page)).toBe("/stream/10305/master.m3u8");
    await page.getByRole("link", { name: "下一集" }).click();
    await page.waitForURL((url) => url.pathname === `/video/${SERIES}/6`);
    expect(await current(page)).toBe("6");
    await context.close();
  });

  it("when an episode ends the next one plays; after the last episode another title's page opens", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${SERIES}/5`);
    await waitPlaying(page);
    await media(page, (v) => (v.currentTime = v.duration - 0.5));
    await showsEpisode(page, 6);
    await media(page, (v) => (v.currentTime = v.duration - 0.5));
    await page.waitForURL((url) => !url.pathname.startsWith(`/video/${SERIES}`), { timeout: 15_000 });
    // Any published title: other e2e files publish titles of their own (longer ids) into the same site.
    expect(pathname(page).replace(/^\/video\//, "")).toMatch(TITLE_ID_PATTERN);
    await waitPlaying(page, 0.2);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("each episode keeps its own position, /video/{id} resumes the episode watched last, and 继续观看 appears on the home page with the episode's name", async () => {
    const context: BrowserContext = await browser().newContext();
    const { page, log } = await newPage(context);
    // Nothing watched yet: no 继续观看 row.
    await page.goto(baseURL() + "/");
    await waitForHydration(page);
    expect(await page.locator("#continue-title").count()).toBe(0);

    // Episode 1 (a 12 s clip) paused at 6 s, then episode 2 paused at 2 s.
    await page.goto(baseURL() + `/video/${SERIES}/1`);
    await waitForHydration(page);
    await waitPlaying(page);
    await media(page, (v) => {
      v.currentTime = 6;
      v.pause();
    });
    await page.goto(baseURL() + `/video/${SERIES}/2`);
    await waitForHydration(page);
    await waitPlaying(page);
    await media(page, (v) => {
      v.currentTime = 2;
      v.pause();
    });
    await page.waitForFunction(
      () => (JSON.parse(localStorage.getItem("yingshi:library") ?? "{}") as { history?: Array<{ episode?: number }> }).history?.[0]?.episode === 2,
    );
    const history = await storedHistory(page);
    expect(history.map((h) => [h.id, h.episode ?? 1, Math.round(h.position)])).toEqual([
      [SERIES, 2, 2],
      [SERIES, 1, 6],
    ]);

    // /video/{id} opens the episode watched last.
    await page.goto(baseURL() + `/video/${SERIES}`);
    await page.waitForURL((url) => url.pathname === `/video/${SERIES}/2`);
    await waitPlaying(page);

    // Episode 1 still offers its own position.
    await page.goto(baseURL() + `/video/${SERIES}/1`);
    await waitForHydration(page);
    await expect(page.locator(".player-resume").textContent()).resolves.toBe("从 0:06 继续播放");
    // It autoplays from the start while the offer stands; leaving now keeps 0:06.
    await waitPlaying(page);

    // 继续观看 on the home page: the title, the episode watched last and its position, linking to it.
    await page.goto(baseURL() + "/");
    await waitForHydration(page);
    const item = page.locator(".continue-item").first();
    await item.waitFor();
    expect(await item.locator(".continue-title").textContent()).toBe("槐树巷的春天");
    expect(await item.locator(".continue-meta").textContent()).toBe("第1集 · 看到 0:06");
    expect(await item.getAttribute("href")).toBe(`/video/${SERIES}/1`);

    // A variety show's episode is named the way its 选集 names it.
    await page.evaluate(() => {
      const library = JSON.parse(localStorage.getItem("yingshi:library") ?? "{}") as { history: Array<Record<string, unknown>> };
      library.history.unshift({ id: "video_004", episode: 2, position: 65, duration: 360, updatedAt: Date.now() });
      localStorage.setItem("yingshi:library", JSON.stringify(library));
    });
    await page.reload();
    await waitForHydration(page);
    const variety = page.locator(".continue-item").first();
    await expect.poll(() => variety.locator(".continue-title").textContent()).toBe("声声入夏");
    expect(await variety.locator(".continue-meta").textContent()).toBe("第2期：意外来客 · 看到 1:05");
    expect(await variety.getAttribute("href")).toBe("/video/video_004/2");
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
