import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { enrolledAdmin } from "./admin-pages";
import { axeViolations } from "./axe";
import { baseURL, browserForFile, newPage, PHONE, screenshot } from "./browser";
import { openWithDanmaku } from "./danmaku-page";
import { newVisitor, runTag, signUpViaApi } from "./visitors";

/**
 * 举报弹幕 with the keyboard alone (docs/admin.md, 举报): the 弹幕 layer is aria-hidden and right
 * click / long press need a pointer, so the 弹幕 bar has a 举报弹幕 button. Tab reaches it, Enter
 * opens the list of the 弹幕 on screen (its module loads then, not before), Tab and Enter choose
 * one, and the 举报 dialog is filled in and sent with keys; the report reaches the queue.
 */

const browser = browserForFile();

/** Presses Tab until the focused element matches `test` (at most `limit` presses); returns its label. */
async function tabTo(page: Page, test: (label: string) => boolean, limit = 40): Promise<string> {
  for (let i = 0; i < limit; i++) {
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? `${el.tagName} ${el.getAttribute("aria-label") ?? ""} ${(el as HTMLInputElement).value ?? ""} ${el.textContent ?? ""}`.trim() : "";
    });
    if (test(label)) return label;
    await page.keyboard.press("Tab");
  }
  throw new Error("the keyboard never reached it");
}

describe("举报弹幕 by keyboard", () => {
  it("Tab to 举报弹幕, choose the 弹幕 from the list, send the report: the queue has it", async () => {
    const viewer = await newVisitor(browser());
    await signUpViaApi(viewer, "dm-keyboard");
    const { page, log } = await newPage(viewer);
    await page.setViewportSize({ width: 1280, height: 900 });
    const listChunk: string[] = [];
    page.on("request", (r) => void (/DanmakuReportList-[\w-]+\.js$/.test(r.url()) && listChunk.push(r.url())));
    await openWithDanmaku(page, "/video/video_006");
    await page.evaluate(() => (document.querySelector("video") as HTMLVideoElement).pause());

    // A 弹幕 on screen, typed and sent with the keyboard.
    const text = `键盘举报${runTag}`;
    await page.getByRole("textbox", { name: "弹幕内容" }).focus();
    await page.keyboard.type(text);
    await page.keyboard.press("Enter");
    await page.locator(".danmaku-layer .danmaku-item", { hasText: text }).waitFor();

    expect(listChunk, "the list's code is not loaded before it is asked for").toEqual([]);
    await tabTo(page, (label) => label.startsWith("BUTTON") && label.endsWith("举报弹幕"));
    await page.keyboard.press("Enter");
    const list = page.getByRole("dialog", { name: "选择要举报的弹幕" });
    await list.waitFor();
    expect(listChunk).toHaveLength(1);
    // Esc closes the list and gives the focus back to the button; Enter opens it again.
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("举报弹幕");
    await page.keyboard.press("Enter");
    await list.waitFor();
    expect(await axeViolations(page), "the 举报弹幕 list").toEqual([]);
    await screenshot(page, "danmaku-report-list-1280");
    await page.setViewportSize(PHONE);
    await screenshot(page, "danmaku-report-list-390");
    expect(await axeViolations(page), "the 举报弹幕 list at 390 px").toEqual([]);
    await tabTo(page, (label) => label.startsWith("BUTTON") && label.includes(text));
    await page.keyboard.press("Enter");

    const dialog = page.getByRole("dialog", { name: "举报弹幕" });
    await dialog.waitFor();
    expect(await dialog.locator("blockquote").innerText()).toBe(text);
    await tabTo(page, (label) => label.startsWith("INPUT") && label.includes("illegal"));
    // Arrow keys move through a radio group and check what they land on.
    for (let i = 0; i < 8 && !(await dialog.getByRole("radio", { name: "垃圾广告" }).isChecked()); i++) await page.keyboard.press("ArrowDown");
    expect(await dialog.getByRole("radio", { name: "垃圾广告" }).isChecked()).toBe(true);
    await tabTo(page, (label) => label.startsWith("BUTTON") && label.endsWith("提交"));
    await page.keyboard.press("Enter");
    await dialog.getByText("举报已提交，感谢你的反馈").waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Focus is back on the button that started it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("举报弹幕");
    expect(log.errors).toEqual([]);
    await viewer.close();

    const { context: moderator } = await enrolledAdmin(browser(), "moderator");
    const res = await moderator.request.get(baseURL() + "/api/admin/reports?kind=danmaku");
    const queue = (await res.json()) as { groups: Array<{ titleId: string; reports: Array<{ targetText: string | null; reason: string }> }> };
    expect(queue.groups.find((g) => g.titleId === "video_006")?.reports.find((r) => r.targetText === text)?.reason).toBe("spam");
    await moderator.close();
  });
});
