// 追剧 and 稍后再看 in Chromium (docs/decisions/0091-follow-and-watch-later.md): lists collected
// signed out are kept in the account at sign-in and come back on another browser; 我的追剧 shows a
// 新 badge once an episode is added to a followed series (through the 管理后台's API) and drops it
// once the viewer opens the series; 稍后再看 items are removed on /library.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { enrolledAdmin } from "./admin-pages";
import { baseURL, browserForFile } from "./browser";
import { go, newVisitor, signInWithForm, signUpViaApi, uniqueIp } from "./visitors";

const browser = browserForFile();

const followsSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "我的追剧" }) });
const laterSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "稍后再看", exact: true }) });

interface AccountLists {
  lists: { follows: Array<{ id: string }>; watchLater: Array<{ id: string }> };
}

describe("追剧 and 稍后再看", () => {
  it("lists kept while signed out go into the account at sign-in and come back in another browser", async () => {
    const context = await newVisitor(browser());
    const page = await context.newPage();
    await go(page, "/video/video_007");
    await page.getByRole("button", { name: "追剧" }).click();
    await page.getByRole("button", { name: "已追剧", pressed: true }).waitFor();
    await go(page, "/video/video_001");
    expect(await page.getByRole("button", { name: "追剧" }).count()).toBe(0); // a film has no 追剧
    await page.getByRole("button", { name: "稍后再看" }).click();
    await page.getByRole("button", { name: "稍后再看", pressed: true }).waitFor();

    await go(page, "/library");
    await followsSection(page).getByText("回声档案").waitFor();
    await followsSection(page).getByText("更新至第12集").waitFor();
    // Where the viewer stopped: the video page played episode 1 for a moment.
    await followsSection(page)
      .getByText(/^看到第1集 /)
      .waitFor();
    await laterSection(page).getByText("雾港来信").waitFor();

    // Sign up (the cookie arrives through the API); the next page load merges the lists into the account.
    const email = await signUpViaApi(context, "follow");
    await go(page, "/library");
    await expect
      .poll(async () => {
        const answer = (await (await context.request.get(baseURL() + "/api/lists")).json()) as AccountLists;
        return [answer.lists.follows.map((i) => i.id), answer.lists.watchLater.map((i) => i.id)];
      })
      .toEqual([["video_007"], ["video_001"]]);
    await context.close();

    const other = await newVisitor(browser());
    const elsewhere = await other.newPage();
    await signInWithForm(elsewhere, email);
    await go(elsewhere, "/library");
    await followsSection(elsewhere).getByText("回声档案").waitFor();
    await laterSection(elsewhere).getByText("雾港来信").waitFor();
    // Removing it here removes it from the account.
    await laterSection(elsewhere).getByRole("button", { name: "从稍后再看移除「雾港来信」" }).click();
    await laterSection(elsewhere).getByText("稍后再看是空的。").waitFor();
    await expect.poll(async () => ((await (await other.request.get(baseURL() + "/api/lists")).json()) as AccountLists).lists.watchLater.length).toBe(0);
    await other.close();
  });

  it("shows 新 once an episode is added to a followed series, until the viewer opens it", { timeout: 120_000 }, async () => {
    const id = "video_037"; // 心动模拟程序: 3 of 12 episodes
    const viewer = await newVisitor(browser());
    const first = await viewer.newPage();
    await go(first, `/video/${id}`);
    await first.getByRole("button", { name: "追剧" }).click();
    await go(first, "/library");
    const before3 = followsSection(first).getByRole("link", { name: /心动模拟程序/ });
    await before3.getByText("更新至第3集").waitFor();
    expect(await before3.getByText("新", { exact: true }).count()).toBe(0);

    const { context: admin } = await enrolledAdmin(browser());
    const headers = { Origin: baseURL() };
    const read = async () =>
      (await (await admin.request.get(`${baseURL()}/api/admin/titles/${id}`)).json()) as { entry: Record<string, unknown>; version: number };
    const before = await read();
    const episodes = before.entry.episodes as Array<Record<string, string>>;
    const added = await admin.request.post(`${baseURL()}/api/admin/titles/${id}`, {
      headers,
      data: { entry: { ...before.entry, episodes: [...episodes, { videoFile: "13704.mp4", duration: episodes[0].duration }] }, version: before.version },
    });
    expect(added.status(), await added.text()).toBe(200);
    // The same visitor (its stored lists) in a browser without the cards it fetched before (they
    // are fresh for up to 45 s there; the edge's key follows the catalogue's version, decision 0075).
    const later = await browser().newContext({
      storageState: await viewer.storageState(),
      locale: "zh-CN",
      extraHTTPHeaders: { "CF-Connecting-IP": uniqueIp() },
    });
    const page = await later.newPage();
    const item = followsSection(page).getByRole("link", { name: /心动模拟程序/ });
    try {
      await expect
        .poll(
          async () => {
            await go(page, "/library");
            await item.waitFor();
            return [await item.getByText("新", { exact: true }).count(), await item.getByText("更新至第4集").count()];
          },
          { timeout: 20_000 },
        )
        .toEqual([1, 1]);
      await go(page, `/video/${id}`);
      await page.getByRole("button", { name: "已追剧", pressed: true }).waitFor();
      await go(page, "/library");
      await item.getByText("更新至第4集").waitFor();
      expect(await item.getByText("新", { exact: true }).count()).toBe(0);
    } finally {
      const now = await read();
      const restored = await admin.request.post(`${baseURL()}/api/admin/titles/${id}`, {
        headers,
        data: { entry: { ...now.entry, episodes }, version: now.version },
      });
      expect(restored.status(), await restored.text()).toBe(200);
      await admin.close();
      await viewer.close();
      await later.close();
    }
  });
});
