import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { enrolledAdmin, shots } from "./admin-pages";
import { baseURL, browserForFile, newPage } from "./browser";
import { openWithDanmaku } from "./danmaku-page";
import { newVisitor, runTag, signUpViaApi } from "./visitors";

/**
 * 弹幕管理 in Chromium against `wrangler dev` (docs/admin.md, docs/decisions/0076-danmaku-moderation.md):
 * a viewer posts a comment while another viewer watches; a moderator (审核员) finds it in
 * 弹幕管理 and deletes it, and it leaves the other viewer's overlay without a reload; the moderator
 * mutes the poster, whose next comment, typed in the player already open, is refused with
 * 你已被禁言至…. Each screen is audited with axe at 390 and 1366 px (test-output/screenshots/).
 */

const browser = browserForFile();

const VIDEO = "/video/video_009";

/** The video page, hydrated, with the 弹幕 bar mounted and the room's socket open; the clip loops. */
async function openVideo(context: BrowserContext): Promise<Page> {
  const { page } = await newPage(context);
  await openWithDanmaku(page, VIDEO);
  return page;
}

const itemWithText = (page: Page, text: string) => page.locator(".danmaku-layer .danmaku-item", { hasText: text });

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "弹幕内容" }).fill(text);
  await page.getByRole("textbox", { name: "弹幕内容" }).press("Enter");
}

describe("弹幕管理", () => {
  it("a moderator deletes a comment and it leaves an open viewer's overlay; a muted poster reads 你已被禁言至…", async () => {
    const posterContext = await newVisitor(browser());
    await signUpViaApi(posterContext, "dm-admin-poster");
    const watcherContext = await newVisitor(browser());
    const poster = await openVideo(posterContext);
    const watcher = await openVideo(watcherContext);

    const text = `待删除${runTag}`;
    await send(poster, text);
    await itemWithText(watcher, text).waitFor({ state: "attached" });
    // Paused, the comment stays on the watcher's screen: only the delete can take it away.
    await watcher.evaluate(() => (document.querySelector("video") as HTMLVideoElement).pause());
    expect(await itemWithText(watcher, text).count()).toBe(1);

    const { context: moderatorContext } = await enrolledAdmin(browser(), "moderator");
    const { page } = await newPage(moderatorContext);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(baseURL() + "/admin");
    await page.getByRole("navigation", { name: "管理后台" }).getByRole("link", { name: "弹幕管理" }).click();
    await page.getByRole("heading", { name: "弹幕管理" }).waitFor();
    await page.getByLabel("弹幕内容").fill(runTag);
    await page.getByRole("button", { name: "筛选" }).click();
    await page.getByRole("checkbox", { name: `选择弹幕：${text}` }).waitFor();
    await shots(page, "danmaku");
    await page.getByRole("checkbox", { name: `选择弹幕：${text}` }).check();
    await page.getByRole("button", { name: "删除选中的弹幕" }).click();
    await page.getByText("已删除 1 条弹幕").waitFor();

    // Gone from the watcher's overlay, with no reload.
    await itemWithText(watcher, text).waitFor({ state: "detached" });
    expect(await page.getByRole("checkbox", { name: `选择弹幕：${text}` }).count()).toBe(0);

    // Mute the poster: from one of their comments' 禁言… link, for 7 days.
    await send(poster, `第二条${runTag}`);
    await itemWithText(watcher, `第二条${runTag}`).waitFor({ state: "attached" });
    await page.goto(baseURL() + `/admin/danmaku?text=${encodeURIComponent(`第二条${runTag}`)}`);
    await page.getByRole("link", { name: "禁言…" }).click();
    await page.getByRole("heading", { name: "禁言用户", exact: false }).first().waitFor();
    await page.getByLabel("禁言时长").selectOption("7");
    await page.getByRole("button", { name: "禁言", exact: true }).click();
    await page.getByText(/已禁言 .*（7 天，至 /).waitFor();
    await shots(page, "danmaku-mutes");

    // The poster's player, open all along: the next comment is refused with until when.
    await send(poster, `禁言后${runTag}`);
    await expect.poll(() => poster.locator(".danmaku-message").innerText()).toMatch(/^你已被禁言至\d{4}-\d{2}-\d{2} \d{2}:\d{2}（北京时间）$/);

    await page.getByRole("link", { name: "屏蔽词" }).click();
    await page.getByRole("textbox", { name: "屏蔽词" }).waitFor();
    await shots(page, "danmaku-words");

    await Promise.all([posterContext.close(), watcherContext.close(), moderatorContext.close()]);
  });
});
