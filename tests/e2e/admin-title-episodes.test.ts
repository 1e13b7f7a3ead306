import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP_1366, enrolledAdmin, shots } from "./admin-pages";
import { baseURL, browserForFile, newPage } from "./browser";
import { newVisitor, runTag } from "./visitors";

/**
 * 视频管理's 剧集 rows in Chromium (docs/admin.md): an admin adds an episode with the blank row,
 * moves it up and removes another with the rows' buttons (each a save of the form, no script
 * needed), and a viewer's video page lists the episodes in the new order at once.
 */

const browser = browserForFile();

/** The names of the rows, in order, as the edit page shows them. */
const rowNames = (page: Page) => page.locator('input[name="episodeName"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

describe("视频管理: 剧集 rows", () => {
  it("add an episode, move it up, remove one: the viewer's episode list follows", async () => {
    const { context } = await enrolledAdmin(browser());
    const number = 9900 + Math.floor(Math.random() * 90);
    const id = `video_${number}0`;
    const media = (k: number) => `${number * 10 + k}.mp4`;
    const created = await context.request.post(`${baseURL()}/api/admin/titles`, {
      headers: { Origin: baseURL() },
      data: {
        entry: {
          id,
          title: `剧集排序测试${runTag}`,
          description: "端到端测试逐集增删和排序。",
          category: ["电视剧"],
          tags: [],
          year: 2025,
          rating: 8,
          duration: "45:00",
          coverImage: media(1).replace(".mp4", ".webp"),
          videoFile: media(1),
          episodes: [
            { videoFile: media(1), duration: "45:00", name: "第1集：开端" },
            { videoFile: media(2), duration: "44:00", name: "第2集：相遇" },
          ],
          // A draft until it has its cover: the other test files' pages (home, listings) must not show a title whose cover is missing.
          state: "draft",
        },
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const cover = await (await context.request.get(`${baseURL()}/1.webp`)).body();
    const covered = await context.request.post(`${baseURL()}/api/admin/titles/${id}/cover`, {
      headers: { Origin: baseURL(), "Content-Type": "image/webp" },
      data: cover,
    });
    expect(covered.status(), await covered.text()).toBe(200);
    const published = await context.request.post(`${baseURL()}/api/admin/titles/bulk`, {
      headers: { Origin: baseURL() },
      data: { action: "publish", ids: [id] },
    });
    expect(published.status(), await published.text()).toBe(200);

    const { page, log } = await newPage(context);
    await page.setViewportSize(DESKTOP_1366);
    await page.goto(`${baseURL()}/admin/titles/${id}`);
    await page.getByRole("group", { name: /剧集（2集）/ }).waitFor();

    await page.getByLabel("新的一集：视频文件").fill(media(3));
    await page.getByLabel("新的一集：时长").fill("43:00");
    await page.getByLabel("新的一集：名称").fill("第3集：重逢");
    await page.getByRole("button", { name: "添加这一集" }).click();
    await page.getByText("剧集已保存：已添加第3集").waitFor();
    expect(await rowNames(page)).toEqual(["第1集：开端", "第2集：相遇", "第3集：重逢"]);

    await page.getByRole("button", { name: "第3集上移" }).click();
    await page.getByText("剧集已保存：第3集已移到第2集").waitFor();
    expect(await rowNames(page)).toEqual(["第1集：开端", "第3集：重逢", "第2集：相遇"]);
    await shots(page, "title-episodes");

    await page.getByRole("button", { name: "删除第3集" }).click();
    await page.getByText("剧集已保存：已删除第3集").waitFor();
    expect(await rowNames(page)).toEqual(["第1集：开端", "第3集：重逢"]);
    // Episode 1 is the title's own file: its buttons are off.
    expect(await page.getByRole("button", { name: "删除第1集" }).isDisabled()).toBe(true);

    // The viewer's video page lists the episodes as saved now.
    const viewer = await newVisitor(browser());
    const { page: look } = await newPage(viewer);
    await look.goto(`${baseURL()}/video/${id}`);
    const links = look.locator(".episodes-grid .episode-link");
    await links.first().waitFor();
    expect(await links.allTextContents()).toEqual(["第1集：开端", "第3集：重逢"]);

    expect(log.errors).toEqual([]);
    await viewer.close();
    await context.close();
  });
});
