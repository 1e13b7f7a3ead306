// 片头 / 片尾 in Chromium (docs/decisions/0092-intro-outro.md). video_019 晨光律所 marks an intro
// at 0–2.5 s and an outro at 4–6 s on its 6-second placeholder episodes 2 and 3 (episode 1, 12 s,
// has its own outro at 10 s): 跳过片头 by the button and by 自动跳过片头片尾, the outro's
// 即将播放下一集 countdown to the next episode and its 取消.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PLAYER, browserForFile, open } from "./browser";
import { newVisitor } from "./visitors";

const browser = browserForFile();
const SERIES = "/video/video_019";

/** Every seek the player makes, from the page's start (media events reach a capturing listener on document). */
async function recordSeeks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seeks: number[] = [];
    (window as unknown as { __seeks: number[] }).__seeks = seeks;
    document.addEventListener("seeking", (e) => seeks.push((e.target as HTMLVideoElement).currentTime), true);
  });
}
const seeks = (page: Page) => page.evaluate(() => (window as unknown as { __seeks: number[] }).__seeks);

describe("片头 / 片尾", () => {
  it("跳过片头 by the button jumps to the intro's end", async () => {
    const context = await newVisitor(browser());
    const { page, log } = await open(context, `${SERIES}/2`);
    const skip = page.getByRole("button", { name: "跳过片头" });
    await skip.click();
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLVideoElement).currentTime >= 2.5, PLAYER);
    await skip.waitFor({ state: "detached" });
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("自动跳过片头片尾 skips it by itself and is remembered while signed out", async () => {
    const context = await newVisitor(browser());
    const { page } = await open(context, `${SERIES}/3`);
    await page.getByRole("checkbox", { name: "自动跳过片头片尾" }).check();
    // Signed out, the setting is kept in this browser.
    const next = await context.newPage();
    await recordSeeks(next);
    await next.goto(page.url());
    await page.close();
    await next.waitForFunction(() => (window as unknown as { __seeks: number[] }).__seeks.some((t) => t >= 2.5));
    expect(await next.getByRole("checkbox", { name: "自动跳过片头片尾" }).isChecked()).toBe(true);
    expect((await seeks(next)).filter((t) => t > 0)).toEqual([2.5]);
    expect(await next.getByRole("button", { name: "跳过片头" }).count()).toBe(0);

    // Where a resume lands for such a viewer (the intro's end) is the unit test's rule
    // (tests/unit/markers.test.ts resumeTarget): these 6-second clips are inside RESUME_MARGIN.
    await context.close();
  });

  it("at the outro, 即将播放下一集 counts down and plays the next episode", async () => {
    const context = await newVisitor(browser());
    const { page } = await open(context, `${SERIES}/2`);
    const countdown = page.getByRole("status").filter({ hasText: /即将播放下一集 \d/ });
    await countdown.waitFor();
    await page.waitForURL((url) => url.pathname === `${SERIES}/3`);
    await context.close();
  });

  it("取消 keeps the viewer on the episode, past its end", async () => {
    const context = await newVisitor(browser());
    const { page } = await open(context, `${SERIES}/2`);
    // A move to episode 3 starts with its page data (the router's loader, client/page-data.ts).
    const nextData: string[] = [];
    page.on("request", (r) => void (r.url().includes("/api/page/video/video_019/3") && nextData.push(r.url())));
    const countdown = page.getByRole("status").filter({ hasText: /即将播放下一集/ });
    await countdown.waitFor();
    await page.getByRole("button", { name: "取消" }).click();
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLVideoElement).ended, PLAYER);
    expect(await countdown.count()).toBe(0);
    // onEnded runs with the ended event; a navigation would have asked for episode 3's data by the
    // time a task queued after it has run.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(nextData).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`${SERIES}/2`);
    await context.close();
  });
});
