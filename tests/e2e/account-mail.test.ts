import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, browserForFile, newPage, PHONE, screenshot, waitForHydration } from "./browser";
import { E2E_STATE } from "./site-env";
import { newVisitor, PASSWORD, uniqueEmail } from "./visitors";

/**
 * The e-mail flows in Chromium, following the links of the development mailbox (/dev/mail, served
 * because the site runs on 127.0.0.1): 忘记密码 → e-mail → new password → signed in; and, on a
 * second local site started with AUTH_AUTO_CONFIRM=false, sign-up → confirmation e-mail → signed in.
 */

const browser = browserForFile();

async function go(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await waitForHydration(page);
}

const header = (page: Page) => page.locator(".site-header .header-account");

/** The account the browser's cookie belongs to, as the worker sees it (the header hides it in the phone menu). */
async function signedInAs(context: BrowserContext, site: string): Promise<string | null> {
  const res = await context.request.get(site + "/api/auth/user");
  return ((await res.json()) as { user: { email: string } | null }).user?.email ?? null;
}
const submit = (page: Page) => page.locator(".auth-form button[type=submit]");

/** Opens the development mailbox for `to` and follows the newest mail's link named `label`. */
async function followMailLink(page: Page, site: string, to: string, label: string): Promise<void> {
  await page.goto(`${site}/dev/mail?to=${encodeURIComponent(to)}`);
  const link = page.locator("article.mail").first().getByRole("link", { name: label });
  await link.waitFor();
  await Promise.all([page.waitForLoadState("domcontentloaded"), link.click()]);
}

describe("password reset through the development mailbox", () => {
  it("忘记密码？ → e-mail → 设置新密码 → signed in at home; the old password no longer works", async () => {
    const site = baseURL();
    const context = await newVisitor(browser(), { viewport: PHONE });
    const email = uniqueEmail("reset");
    expect((await context.request.post(site + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } })).status()).toBe(200);
    expect((await context.request.post(site + "/api/auth/sign-out", { data: {} })).status()).toBe(200);

    const { page, log } = await newPage(context);
    await go(page, site + "/auth");
    await page.getByRole("link", { name: "忘记密码？" }).click();
    await page.getByRole("heading", { name: "忘记密码" }).waitFor();
    await page.locator(".auth-form input[name=email]").fill(email);
    await screenshot(page, "forgot-password-390");
    await submit(page).click();
    await page.locator(".auth-notice").getByText("如果该邮箱已注册").waitFor();

    await followMailLink(page, site, email, "设置新密码");
    await waitForHydration(page);
    expect(new URL(page.url()).pathname).toBe("/auth/reset");
    await page.locator(".auth-form input[name=password]").fill("new-e2e-pass");
    await page.locator(".auth-form input[name=confirmPassword]").fill("other-pass");
    await submit(page).click();
    await page.locator(".auth-error").getByText("密码确认不匹配").waitFor();
    await page.locator(".auth-form input[name=confirmPassword]").fill("new-e2e-pass");
    await screenshot(page, "reset-password-390");
    await submit(page).click();
    await page.waitForURL(site + "/");
    expect(await signedInAs(context, site)).toBe(email);
    expect(log.errors).toEqual([]);

    const old = await context.request.post(site + "/api/auth/sign-in", { data: { email, password: PASSWORD } });
    expect(old.status()).toBe(400);
    const renewed = await context.request.post(site + "/api/auth/sign-in", { data: { email, password: "new-e2e-pass" } });
    expect(renewed.status()).toBe(200);

    // The link was used once: opening it again says so.
    await followMailLink(page, site, email, "设置新密码");
    await waitForHydration(page);
    await page.locator(".auth-form input[name=password]").fill("third-e2e-pass");
    await page.locator(".auth-form input[name=confirmPassword]").fill("third-e2e-pass");
    await submit(page).click();
    await page.locator(".auth-error").getByText("链接已失效或已被使用，请重新发送邮件").waitFor();
    await context.close();
  });

  it("the profile lists this device and signs out everywhere", async () => {
    const site = baseURL();
    const context = await newVisitor(browser());
    const email = uniqueEmail("devices");
    expect((await context.request.post(site + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } })).status()).toBe(200);
    const other = await newVisitor(browser());
    expect((await other.request.post(site + "/api/auth/sign-in", { data: { email, password: PASSWORD } })).status()).toBe(200);

    const { page, log } = await newPage(context);
    await go(page, site + "/profile");
    const items = page.locator(".device-item");
    await items.nth(1).waitFor();
    expect(await items.count()).toBe(2);
    await page.locator(".device-current").getByText("当前设备").waitFor();
    expect(await page.locator(".device-name").first().innerText()).toMatch(/Chrome/);
    await screenshot(page, "profile-devices-1440");
    await page.getByRole("button", { name: "退出所有设备" }).click();
    await page.waitForURL(site + "/");
    await header(page).getByRole("link", { name: "登录/注册" }).waitFor();
    const gone = await other.request.get(site + "/api/auth/user");
    expect(((await gone.json()) as { user: unknown }).user).toBeNull();
    expect(log.errors).toEqual([]);
    await context.close();
    await other.close();
  });
});

describe("e-mail confirmation (AUTH_AUTO_CONFIRM=false) through the development mailbox", () => {
  let site: { baseURL: string; stop: () => Promise<void> } | null = null;

  beforeAll(async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const { freePort, startLocalSite } = (await import(path.join(root, "scripts/local-site.mjs"))) as typeof import("../../scripts/local-site.mjs");
    site = await startLocalSite({ port: await freePort(), persistTo: E2E_STATE, vars: { AUTH_AUTO_CONFIRM: "false" } });
  }, 120_000);

  afterAll(async () => {
    await site?.stop();
  });

  it("sign-up → alert → 验证邮箱 link → signed in at home", async () => {
    const base = site!.baseURL;
    const context = await newVisitor(browser(), { viewport: PHONE });
    const { page, log } = await newPage(context);
    const email = uniqueEmail("confirm");
    await go(page, base + "/auth?mode=signup");
    await page.locator(".auth-form input[name=email]").fill(email);
    await page.locator(".auth-form input[name=password]").fill(PASSWORD);
    await page.locator(".auth-form input[name=confirmPassword]").fill(PASSWORD);
    // The alert is accepted as it opens: an open dialog blocks the page, and the click waits for
    // the navigations it started (this timed out once in CI when the alert came first).
    const alert = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await submit(page).click();
    expect(await alert).toContain("注册成功");
    await submit(page).getByText("登录").waitFor();

    // Not confirmed yet: signing in says so.
    await page.locator(".auth-form input[name=email]").fill(email);
    await page.locator(".auth-form input[name=password]").fill(PASSWORD);
    await submit(page).click();
    await page.locator(".auth-error").getByText("邮箱尚未验证，请先点击验证邮件中的链接").waitFor();
    expect(log.errors).toEqual(["error: Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
    log.errors.length = 0;

    // The link opens a page; its button (a POST) confirms and signs in.
    await followMailLink(page, base, email, "验证邮箱");
    await waitForHydration(page);
    expect(new URL(page.url()).pathname).toBe("/auth/confirm");
    expect(await signedInAs(context, base)).toBeNull();
    await Promise.all([page.waitForURL(base + "/"), page.getByRole("button", { name: "验证邮箱并登录" }).click()]);
    await waitForHydration(page);
    expect(await signedInAs(context, base)).toBe(email);
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
