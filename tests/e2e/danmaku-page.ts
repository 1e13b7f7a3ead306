import type { Page } from "playwright-core";
import { baseURL, waitForHydration } from "./browser";

/**
 * Opens a video page on `page`: hydrated, with the 弹幕 bar mounted and the room's socket open
 * (its `hello` received). The local clips last a few seconds and the player moves on to another
 * video at the end: the clip loops, so the page stays on this one.
 */
export async function openWithDanmaku(page: Page, path: string): Promise<void> {
  const hello = new Promise<void>((resolve) => {
    page.on("websocket", (ws) => {
      if (ws.url().includes("/api/danmaku/")) ws.on("framereceived", (frame) => String(frame.payload).includes('"hello"') && resolve());
    });
  });
  await page.goto(baseURL() + path);
  await waitForHydration(page);
  await hello;
  await page.locator(".danmaku-bar").waitFor();
  await page.evaluate(() => {
    (document.querySelector("video") as HTMLVideoElement).loop = true;
  });
}
