import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { enrolledAdmin, shots } from "./admin-pages";
import { baseURL, browserForFile, newPage, open } from "./browser";
import { errorBox, expectSignedInHeader, expectSignedOutHeader, fillSignIn, newVisitor, signUpViaApi, submit, PASSWORD } from "./visitors";

/**
 * 用户管理, 站点设置, 概览 and 操作日志 in Chromium against `wrangler dev` (docs/admin.md): an admin
 * disables a viewer from the account's page while the viewer has the site open — the viewer's
 * next navigation and API call are signed out, their 弹幕 post is refused, sign-in answers
 * 账号已停用 — then enables it again and the viewer signs in. Every screen is audited with axe and
 * saved at 390 and 1366 px (test-output/screenshots/).
 */

const browser = browserForFile();

/** What the page's own fetch gets: the signed-in user's e-mail, or null. */
const userInPage = (page: Page) =>
  page.evaluate(async () => {
    const body: { user: { email: string } | null } = await (await fetch("/api/auth/user")).json();
    return body.user?.email ?? null;
  });

/** A 弹幕 post made by the page itself (DPlayer's POST): its status and code. */
const postDanmaku = (page: Page, text: string) =>
  page.evaluate(async (t) => {
    const res = await fetch("/api/danmaku/v3/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: "video_002", time: 1, text: t }),
    });
    const body: { code: number; msg?: string } = await res.json();
    return { status: res.status, body };
  }, text);

describe("用户管理", () => {
  it("disable a viewer while their page is open: signed out at their next step, 弹幕 refused, 账号已停用; enable again", async () => {
    const { email: adminEmail, context: adminContext } = await enrolledAdmin(browser());
    const viewerContext = await newVisitor(browser());
    const viewerEmail = await signUpViaApi(viewerContext, "disabled-viewer");
    const viewer = await open(viewerContext, "/");
    await expectSignedInHeader(viewer.page);
    expect((await postDanmaku(viewer.page, "停用之前")).status).toBe(200);

    const { page, log } = await newPage(adminContext);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(baseURL() + "/admin");
    await page.getByRole("heading", { name: "概览" }).waitFor();
    expect(await page.locator("svg[role=img]").count()).toBe(1);
    await shots(page, "overview");

    await page.getByRole("navigation", { name: "管理后台" }).getByRole("link", { name: "用户管理" }).click();
    await page.getByRole("heading", { name: "用户管理" }).waitFor();
    await page.getByLabel("按邮箱查找").fill(viewerEmail.toUpperCase());
    await page.getByRole("button", { name: "查找" }).click();
    await page.getByRole("link", { name: viewerEmail }).waitFor();
    await shots(page, "users");
    await page.getByRole("link", { name: viewerEmail }).click();
    await page.getByRole("heading", { name: viewerEmail }).waitFor();
    expect(await page.locator(".facts").innerText()).toContain("正常");
    await shots(page, "user");

    await page.getByRole("button", { name: "停用账号" }).click();
    await page.getByText("已停用账号，它已退出所有设备").waitFor();
    expect(await page.locator(".facts").innerText()).toContain("已停用");

    // The viewer's open page: its next API call and its next navigation are signed out; its 弹幕 post is refused.
    expect(await userInPage(viewer.page)).toBeNull();
    const refused = await postDanmaku(viewer.page, "停用之后");
    expect(refused.status).not.toBe(200);
    expect(refused.body.msg).toMatch(/登录/);
    await viewer.page.goto(baseURL() + "/category/all");
    await expectSignedOutHeader(viewer.page);

    // Signing in again is refused with 账号已停用.
    await viewer.page.goto(baseURL() + "/auth");
    await fillSignIn(viewer.page, viewerEmail, PASSWORD);
    await submit(viewer.page).click();
    await expect(errorBox(viewer.page).innerText()).resolves.toContain("账号已停用");

    await page.getByRole("button", { name: "启用账号" }).click();
    await page.getByText("已启用账号").waitFor();
    await submit(viewer.page).click();
    await viewer.page.waitForURL(baseURL() + "/");
    await expectSignedInHeader(viewer.page);

    // Both changes are in the 操作日志, filtered by the account.
    await page.goto(baseURL() + `/admin/audit?target=${encodeURIComponent(viewerEmail)}`);
    await page.getByRole("heading", { name: "操作日志" }).waitFor();
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain("启用账号");
    expect(await rows.nth(1).innerText()).toContain("停用账号");
    expect(await rows.nth(1).innerText()).toContain(adminEmail);
    await shots(page, "audit");
    expect(log.errors).toEqual([]);
    await viewerContext.close();
    await adminContext.close();
  });
});

describe("站点设置", () => {
  it("a hero title saved on the web is on the home page; cleared, the default is back", async () => {
    const { context } = await enrolledAdmin(browser());
    const { page, log } = await newPage(context);
    await page.goto(baseURL() + "/admin/settings");
    await page.getByRole("heading", { name: "站点设置" }).waitFor();
    await shots(page, "settings");
    const title = `今晚看什么${Date.now() % 1000}`;
    await page.getByLabel("首页主标题").fill(title);
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("已保存站点设置").waitFor();

    const visitor = await newVisitor(browser());
    const home = await open(visitor, "/");
    await expect(home.page.locator("#hero-title").innerText()).resolves.toBe(title);

    await page.getByLabel("首页主标题").fill("");
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("已保存站点设置").waitFor();
    await home.page.reload();
    await expect(home.page.locator("#hero-title").innerText()).resolves.toBe("精彩影视，免费畅享");

    await page.getByLabel("网站名称").fill("名".repeat(21));
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("网站名称：不能超过20个字").waitFor();
    expect(log.errors.filter((e) => !e.includes("409") && !e.includes("400"))).toEqual([]);
    await visitor.close();
    await context.close();
  });
});
