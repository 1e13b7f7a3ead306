// 片头 / 片尾 in 视频管理 (worker/admin/markers.ts) in Chromium: an admin sets 西行借宿记
// (video_022, a series no other e2e file plays) an intro of 0–3 s for every episode in the edit
// screen's own form, which at 390 and 1366 px is axe-clean and fits; a bad time is refused with
// its Chinese problem; then a viewer's player on episode 2 offers 跳过片头 and jumps to 3 s.
import { describe, expect, it } from "vitest";
import { enrolledAdmin, shots } from "./admin-pages";
import { baseURL, browserForFile, newPage, open, PLAYER } from "./browser";
import { newVisitor } from "./visitors";

const browser = browserForFile();
const SERIES = "video_022";

describe("片头 / 片尾 in 视频管理", () => {
  it("an admin sets the intro in the edit screen; the player offers 跳过片头 there", async () => {
    const { context } = await enrolledAdmin(browser());
    const { page, log } = await newPage(context);
    await page.goto(`${baseURL()}/admin/titles/${SERIES}`);
    const section = page.getByRole("region", { name: "片头 / 片尾" });
    await section.getByRole("textbox", { name: "第2集 片头开始" }).fill("0");
    await section.getByRole("textbox", { name: "第2集 片头结束" }).fill("1:70");
    await section.getByRole("button", { name: "保存片头 / 片尾" }).click();
    await page.getByRole("alert").filter({ hasText: "「第2集 片头」的结束时间格式有误：请填写秒数或 分:秒，例如 90 或 1:30" }).waitFor();
    // The refused form's answer is a 400, which Chromium logs as a console error.
    expect(log.errors).toEqual(["error: Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
    log.errors.length = 0;

    await section.getByRole("textbox", { name: "第2集 片头开始" }).fill("");
    await section.getByRole("textbox", { name: "第2集 片头结束" }).fill("");
    await section.getByRole("textbox", { name: "全部剧集 片头开始" }).fill("0");
    await section.getByRole("textbox", { name: "全部剧集 片头结束" }).fill("0:03");
    await section.getByRole("button", { name: "保存片头 / 片尾" }).click();
    await page.getByRole("status").filter({ hasText: "片头 / 片尾已保存" }).waitFor();
    expect(await section.getByRole("textbox", { name: "全部剧集 片头结束" }).inputValue()).toBe("0:03");
    await section.scrollIntoViewIfNeeded();
    await shots(page, "markers");
    expect(log.errors).toEqual([]);
    await context.close();

    const viewer = await newVisitor(browser());
    const watching = await open(viewer, `/video/${SERIES}/2`);
    const skip = watching.page.getByRole("button", { name: "跳过片头" });
    await skip.click();
    await watching.page.waitForFunction((sel) => (document.querySelector(sel) as HTMLVideoElement).currentTime >= 3, PLAYER);
    await skip.waitFor({ state: "detached" });
    expect(watching.log.errors).toEqual([]);
    await viewer.close();
  });
});
