import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { enrolledAdmin, shots } from "./admin-pages";
import { axeViolations } from "./axe";
import { baseURL, browserForFile, newPage, open, PHONE, screenshot, waitPlaying } from "./browser";
import { openWithDanmaku } from "./danmaku-page";
import { newVisitor, runTag, signUpViaApi } from "./visitors";

/**
 * 举报 in Chromium against `wrangler dev` (docs/admin.md): a signed-out viewer sends 报错 from the
 * video page (the dialog's code loads on the click), an admin finds it in the 举报 queue grouped
 * under its title and resolves it, and the 操作日志 has the entry; a signed-in viewer reports a
 * 弹幕 by right-clicking it over the video and the queue shows the 弹幕's text. The dialog and the
 * queue are checked with axe; the queue at 390 and 1366 px. A title that cannot play sends the
 * player's error beacon once, and 概览 counts it.
 */

const browser = browserForFile();

/** The video page, hydrated, with the 弹幕 bar mounted and the room's socket open. */
async function openWithDanmakuPage(context: BrowserContext, path: string): Promise<Page> {
  const { page } = await newPage(context);
  await openWithDanmaku(page, path);
  return page;
}

describe("举报", () => {
  it("a signed-out viewer's 报错 from the video page reaches the queue; an admin resolves it", async () => {
    const viewer = await newVisitor(browser(), { viewport: PHONE });
    const { page } = await open(viewer, "/video/video_002");
    const dialogChunk: string[] = [];
    page.on("request", (r) => void (/ReportDialog-[\w-]+\.js$/.test(r.url()) && dialogChunk.push(r.url())));
    expect(dialogChunk, "the dialog's code is not loaded before it is opened").toEqual([]);
    await page.getByRole("button", { name: "报错" }).click();
    const dialog = page.getByRole("dialog", { name: "报错" });
    await dialog.waitFor();
    expect(dialogChunk).toHaveLength(1);
    for (const reason of ["无法播放", "卡顿", "音画不同步", "其他"]) expect(await dialog.getByRole("radio", { name: reason }).count()).toBe(1);
    // Without a reason: a Chinese message, nothing sent.
    await dialog.getByRole("button", { name: "提交" }).click();
    await dialog.getByText("请选择举报原因").waitFor();
    const note = `第3分钟开始卡顿 ${runTag}`;
    await dialog.getByRole("radio", { name: "卡顿" }).check();
    await dialog.getByLabel(/补充说明/).fill(note);
    expect(await axeViolations(page), "the 报错 dialog").toEqual([]);
    await screenshot(page, "report-dialog-390");
    await dialog.getByRole("button", { name: "提交" }).click();
    await dialog.getByText("举报已提交，感谢你的反馈").waitFor();
    await dialog.getByRole("button", { name: "关闭" }).click();
    await dialog.waitFor({ state: "detached" });
    await viewer.close();

    const { context: adminContext } = await enrolledAdmin(browser());
    const { page: admin } = await newPage(adminContext);
    await admin.goto(baseURL() + "/admin");
    await admin.getByRole("heading", { name: "待处理举报" }).waitFor();
    await admin.getByRole("navigation", { name: "管理后台" }).getByRole("link", { name: "举报" }).click();
    await admin.getByRole("heading", { name: "举报", level: 1 }).waitFor();
    const row = admin.getByRole("row").filter({ hasText: note });
    await row.waitFor();
    expect(await row.innerText()).toContain("卡顿");
    const group = admin.locator(".report-group").filter({ has: row });
    expect(await group.getByRole("heading", { level: 2 }).innerText()).toMatch(/条（.*播放问题 \d+/);
    await shots(admin, "reports");
    await admin.setViewportSize({ width: 1366, height: 900 });
    await row.getByRole("button", { name: /^处理举报 #\d+$/ }).click();
    await admin
      .getByRole("status")
      .filter({ hasText: /已处理举报 #\d+/ })
      .waitFor();
    expect(await admin.getByRole("row").filter({ hasText: note }).count()).toBe(0);
    await admin.goto(baseURL() + "/admin/reports?status=resolved");
    await admin.getByRole("row").filter({ hasText: note }).filter({ hasText: "已处理" }).waitFor();
    await admin.goto(baseURL() + "/admin/audit?action=report.resolve");
    await admin.getByRole("cell", { name: "处理举报" }).first().waitFor();
    await adminContext.close();
  });

  it("a signed-in viewer reports a 弹幕 by right-clicking it; the queue shows its text", async () => {
    const viewer = await newVisitor(browser());
    await signUpViaApi(viewer, "dm-report");
    const page = await openWithDanmakuPage(viewer, "/video/video_004");
    await page.evaluate(() => (document.querySelector("video") as HTMLVideoElement).pause());
    const text = `举报测试${runTag}`;
    // A top comment stays still where it is shown: the right click finds it.
    await page.getByRole("combobox", { name: "弹幕位置" }).selectOption("top");
    await page.getByRole("textbox", { name: "弹幕内容" }).fill(text);
    await page.getByRole("textbox", { name: "弹幕内容" }).press("Enter");
    const item = page.locator(".danmaku-layer .danmaku-item", { hasText: text });
    await item.waitFor();
    const box = await item.boundingBox();
    expect(box).not.toBeNull();
    await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2, { button: "right" });
    const dialog = page.getByRole("dialog", { name: "举报弹幕" });
    await dialog.waitFor();
    expect(await dialog.locator("blockquote").innerText()).toBe(text);
    await dialog.getByRole("radio", { name: "垃圾广告" }).check();
    expect(await axeViolations(page), "the 举报弹幕 dialog").toEqual([]);
    await dialog.getByRole("button", { name: "提交" }).click();
    await dialog.getByText("举报已提交，感谢你的反馈").waitFor();
    await dialog.getByRole("button", { name: "关闭" }).click();
    await viewer.close();

    const { context: adminContext } = await enrolledAdmin(browser(), "moderator");
    const res = await adminContext.request.get(baseURL() + "/api/admin/reports?kind=danmaku");
    expect(res.status()).toBe(200);
    const queue = (await res.json()) as { groups: { titleId: string; reports: { targetText: string | null; reason: string }[] }[] };
    const group = queue.groups.find((g) => g.titleId === "video_004");
    expect(group?.reports.find((r) => r.targetText === text)?.reason).toBe("spam");
    await adminContext.close();
  });

  it("a title that cannot play posts one error beacon, which 概览 counts as a playback failure", async () => {
    const { context: adminContext } = await enrolledAdmin(browser(), "moderator");
    const failures = async () =>
      ((await (await adminContext.request.get(baseURL() + "/api/admin/overview")).json()) as { playbackFailures: { beacons: { today: number } } })
        .playbackFailures.beacons.today;
    const before = await failures();
    const viewer = await newVisitor(browser());
    // Both the stream and the MP4 of video_001 are missing: the player gives up and moves on to another title.
    await viewer.route(/\/stream\/1\/|\/1\.mp4$/, (route) => route.fulfill({ status: 404, body: "" }));
    const { page } = await newPage(viewer);
    const sent: unknown[] = [];
    page.on("request", (request) => void (new URL(request.url()).pathname === "/api/reports/failure" && sent.push(request.postDataJSON())));
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/reports/failure", { timeout: 20_000 });
    await page.goto(baseURL() + "/video/video_001");
    // (The answer's body is not read: the page may have moved on, and a keepalive request's body then never arrives.)
    expect((await answered).status()).toBe(200);
    await page.waitForURL((url) => url.pathname !== "/video/video_001", { timeout: 15_000 });
    await waitPlaying(page, 0.3);
    expect(sent).toEqual([{ title: "video_001", episode: 1 }]);
    expect(await failures()).toBe(before + 1);
    await viewer.close();
    await adminContext.close();
  });
});
