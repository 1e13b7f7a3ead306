import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYER, baseURL, launchBrowser, media, open, waitForHydration } from "./browser";

/** Real playback in Chromium sends the play beacon (shared/player/usePlayBeacon.ts); the 排行榜 works without JavaScript. */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("play counter in the browser", () => {
  it("the player reports a play after 10 seconds of playback, once; the worker counts a visitor once a day", async () => {
    const context = await browser.newContext();
    try {
      const { page } = await open(context, "/video/video_006");
      // (A keepalive request's response is awaited as a response: Playwright's request.response() never settles for it.)
      const res = await page.waitForResponse((r) => r.request().method() === "POST" && r.url() === `${baseURL()}/api/plays/video_006`, { timeout: 45_000 });
      // Sent once the video has played about 10 seconds, not on page load.
      expect(await media(page, (v) => v.currentTime)).toBeGreaterThanOrEqual(9.5);
      expect(res.status()).toBe(200);
      // The same browser again today: not counted a second time (the beacon's visit is in D1).
      const again = await page.evaluate(async () => (await fetch("/api/plays/video_006", { method: "POST" })).json());
      expect(again).toEqual({ counted: false });
      // Only one beacon per page view, however long it plays (to near the end of the 12 s local clip).
      let more = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("/api/plays/")) more++;
      });
      await page.waitForFunction((sel) => (document.querySelector<HTMLVideoElement>(sel)?.currentTime ?? 0) > 11, PLAYER, { timeout: 20_000 });
      expect(more).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("/ranking: the tabs switch periods by URL, with and without JavaScript; linked from the header", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled });
      try {
        const page = await context.newPage();
        await page.goto(baseURL() + "/");
        if (javaScriptEnabled) await waitForHydration(page);
        await page.locator(".main-nav").getByRole("link", { name: "排行榜" }).click();
        await page.waitForURL(/\/ranking$/);
        await expect.poll(() => page.locator('.ranking-tabs [aria-current="page"]').textContent()).toBe("日榜");
        await page.locator(".ranking-tabs").getByRole("link", { name: "周榜" }).click();
        await page.waitForURL(/\/ranking\?period=week$/);
        await expect.poll(() => page.locator('.ranking-tabs [aria-current="page"]').textContent()).toBe("周榜");
        await expect.poll(() => page.locator("h1").textContent()).toBe("排行榜");
      } finally {
        await context.close();
      }
    }
  });
});
