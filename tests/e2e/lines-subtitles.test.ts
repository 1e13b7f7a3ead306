import { describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import { DESKTOP, PAGE, N, browserForFile, media, open, screenshot, waitForHydration, waitPlaying } from "./browser";

/**
 * 字幕 in several languages and 线路 with automatic failover (docs/decisions/0085, 0086), in
 * Chromium against `wrangler dev`: the built-in title video_001 has zh-CN and English subtitles
 * and a second line, the same stream served by the site under /mirror/ (catalogue/titles.json).
 */

const browser = browserForFile();

const subtitleMenu = (page: Page) => page.locator(".player-subtitles .player-menu-button");
const lineMenu = (page: Page) => page.locator(".player-line .player-menu-button");
const subtitleLine = (page: Page) => page.locator(".player-subtitle span").first();

/** Segment requests of a page, by the line that served them. */
function recordLineSegments(page: Page): { own: string[]; mirror: string[] } {
  const seen = { own: [] as string[], mirror: [] as string[] };
  page.on("request", (req: Request) => {
    const path = new URL(req.url()).pathname;
    if (!/\.m4s$/.test(path)) return;
    (path.startsWith("/mirror/") ? seen.mirror : seen.own).push(path);
  });
  return seen;
}

describe("字幕 menu", () => {
  it("lists 关闭 and the title's languages by name; English is chosen, shown, remembered across a reload, and C turns it off", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const { page, log } = await open(context, PAGE);
    await waitPlaying(page, 0.3);
    await expect.poll(() => subtitleMenu(page).getAttribute("aria-label")).toBe("字幕：关闭");
    await subtitleMenu(page).click();
    const items = await page.$$eval(".player-subtitles .player-menu-list button", (bs) => bs.map((b) => b.textContent));
    expect(items).toEqual(["关闭", "简体中文", "English"]);
    await page.click(".player-subtitles .player-menu-list button:has-text('English')");
    expect(await subtitleMenu(page).getAttribute("aria-label")).toBe("字幕：English");
    // The English track's placeholder cues (scripts/media/titles.ts): the Latin name, then what the track is.
    await media(page, (v) => (v.currentTime = 0.6));
    await expect.poll(() => subtitleLine(page).textContent(), { timeout: 15_000 }).toBe("Letters from the Fog Harbour");
    expect(await page.$$eval("video track", (ts) => ts.map((t) => [(t as HTMLTrackElement).srclang, (t as HTMLTrackElement).track.mode]))).toEqual([
      ["zh-CN", "disabled"],
      ["en", "hidden"],
    ]);
    await screenshot(page, "player-subtitles-english");

    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => subtitleMenu(page).getAttribute("aria-label")).toBe("字幕：English");
    await media(page, (v) => (v.currentTime = 0.6));
    await expect.poll(() => subtitleLine(page).textContent(), { timeout: 15_000 }).toBe("Letters from the Fog Harbour");
    // Back to 简体中文 from the menu, then C turns 字幕 off (and on again with the last language).
    await subtitleMenu(page).click();
    await page.click(".player-subtitles .player-menu-list button:has-text('简体中文')");
    await expect.poll(() => subtitleLine(page).textContent(), { timeout: 15_000 }).toMatch(/^「雾港来信」|[\u4e00-\u9fff]/);
    await page.keyboard.press("c");
    await expect.poll(() => subtitleMenu(page).getAttribute("aria-label")).toBe("字幕：关闭");
    await page.locator(".player-subtitle").waitFor({ state: "detached" });
    await page.keyboard.press("c");
    await expect.poll(() => subtitleMenu(page).getAttribute("aria-label")).toBe("字幕：简体中文");
    expect(log.errors).toEqual([]);
    await context.close();
  });
});

describe("线路", () => {
  it("the 线路 menu switches to 线路2 at the same position, and the choice is remembered for the title", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const { page, log } = await open(context, `${PAGE}?engine=hlsjs`);
    const segments = recordLineSegments(page);
    await waitPlaying(page, 1);
    expect(await lineMenu(page).getAttribute("aria-label")).toBe("线路：线路1");
    await lineMenu(page).click();
    expect(await page.$$eval(".player-line .player-menu-list button", (bs) => bs.map((b) => b.textContent))).toEqual(["线路1", "线路2"]);
    const before = await media(page, (v) => v.currentTime);
    await page.click(".player-line .player-menu-list button:has-text('线路2')");
    expect(await lineMenu(page).getAttribute("aria-label")).toBe("线路：线路2");
    await expect.poll(() => segments.mirror.length, { timeout: 15_000 }).toBeGreaterThan(0);
    // Goes on from where it was (not from the start), and plays.
    await waitPlaying(page, before + 0.3);
    expect(await page.locator(".player-notice").count()).toBe(0); // a choice is not announced

    const ownBefore = segments.own.length;
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => lineMenu(page).getAttribute("aria-label")).toBe("线路：线路2");
    await waitPlaying(page, 0.5);
    expect(segments.mirror.length).toBeGreaterThan(0);
    expect(log.errors).toEqual([]);
    void ownBefore;
    await context.close();
  });

  // hls.js (what Chromium plays with on a fast link, and every MSE browser): its failing requests and the stall both count.
  for (const engine of ["hlsjs"] as const) {
    it(`${engine}: a line that starts failing mid-playback hands over to the next one at the same position, with 已切换到线路2, and the failure is reported`, async () => {
      const context = await browser().newContext({ viewport: DESKTOP });
      // 线路1's segments work for the first 4 s (segments 0 and 1 of every rendition), then fail; the mirror's are untouched.
      await context.route(new RegExp(`^[^?]*/stream/${N}/[^/]+-0000[2-9]\\.m4s$`), (route) =>
        new URL(route.request().url()).pathname.startsWith("/mirror/") ? route.fallback() : route.abort("failed"),
      );
      const { page } = await open(context, `${PAGE}?engine=${engine}`);
      const segments = recordLineSegments(page);
      const reports: string[] = [];
      page.on("request", (req) => {
        if (req.method() === "POST" && req.url().includes("/api/lines/")) reports.push(req.postData() ?? "");
      });
      await waitPlaying(page, 0.5);
      const notice = page.locator(".player-notice");
      await notice.waitFor({ state: "visible", timeout: 30_000 });
      expect(await notice.textContent()).toBe("已切换到线路2");
      expect(await lineMenu(page).getAttribute("aria-label")).toBe("线路：线路2");
      // Plays on past where 线路1 stopped (4 s), from there: the mirror's first segment is not the first one.
      await waitPlaying(page, 4.5);
      expect(segments.mirror.length).toBeGreaterThan(0);
      expect(segments.mirror[0]).not.toMatch(/-00000\.m4s$/);
      await expect.poll(() => reports).toEqual([JSON.stringify({ episode: 1, line: 0 })]);
      expect(new URL(page.url()).pathname).toBe(PAGE); // the same title and episode
      // The page around the player keeps one of each control through the switch (the page's
      // re-render once duplicated the 一起看 button: two siblings shared one key).
      expect(await page.locator(".watch-open").count()).toBe(1);
      await screenshot(page, `player-line-failover-${engine}`);
      await context.close();
    });
  }
});
