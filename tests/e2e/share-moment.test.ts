// ?t= links (docs/decisions/0094-share-moment.md): a shared moment starts playback there, the
// episode's too, with no 继续播放 offered over it; 从当前时间分享 copies such a link.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PLAYER, baseURL, browserForFile, media, newPage, waitForHydration } from "./browser";
import { newVisitor } from "./visitors";

const browser = browserForFile();

async function openRecordingSeeks(path: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await newVisitor(browser());
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { page } = await newPage(context);
  await page.addInitScript(() => {
    const seeks: number[] = [];
    (window as unknown as { __seeks: number[] }).__seeks = seeks;
    document.addEventListener("seeking", (e) => seeks.push((e.target as HTMLVideoElement).currentTime), true);
  });
  await page.goto(baseURL() + path);
  await waitForHydration(page);
  return { page, close: () => context.close() };
}

describe("a shared moment", () => {
  it("a ?t= link starts at that time, and an episode's link too", async () => {
    for (const [path, t] of [
      ["/video/video_001?t=8", 8],
      ["/video/video_003/2?t=3", 3],
    ] as const) {
      const { page, close } = await openRecordingSeeks(path);
      await page.waitForFunction((at) => (window as unknown as { __seeks: number[] }).__seeks.includes(at), t);
      await page.waitForFunction(([sel, at]) => (document.querySelector(sel as string) as HTMLVideoElement).currentTime >= (at as number), [
        PLAYER,
        t,
      ] as const);
      expect(await page.locator(".player-resume").count()).toBe(0);
      await close();
    }
  });

  it("从当前时间分享 copies the page's link at the player's time", async () => {
    const { page, close } = await openRecordingSeeks("/video/video_001?t=5");
    await page.evaluate(() => Object.defineProperty(navigator, "share", { value: undefined }));
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLVideoElement).currentTime >= 6, PLAYER);
    await page.getByRole("button", { name: "从当前时间分享" }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const link = new URL(copied);
    expect(link.pathname).toBe("/video/video_001");
    expect(Number(link.searchParams.get("t"))).toBeGreaterThanOrEqual(6);
    expect(Number(link.searchParams.get("t"))).toBeLessThanOrEqual(Math.ceil(await media(page, (v) => v.currentTime)));
    await close();
  });
});
