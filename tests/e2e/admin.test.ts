import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeRole } from "../../scripts/admin/roles";
import { totpCode } from "../../worker/admin/totp";
import { shots } from "./admin-pages";
import { baseURL, launchBrowser, newPage, PHONE } from "./browser";
import { E2E_STATE } from "./site-env";
import { fillSignIn, newVisitor, PASSWORD, signUpViaApi, submit, uniqueEmail } from "./visitors";

/**
 * The 管理后台 in Chromium against `wrangler dev` (docs/admin.md): an account granted a role with
 * `npm run admin`'s own function (on the e2e site's local state), signed in through /auth and
 * back to /admin, enrols TOTP from the secret the page shows (the code computed by the TOTP
 * library, as an authenticator app would), sees its ten recovery codes once and reaches 概览;
 * a viewer gets 无权访问. Every screen is audited with axe and saved at 390 and 1366 px
 * (test-output/screenshots/).
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("管理后台", () => {
  it("grant with the command line, sign in, enrol TOTP, keep the recovery codes, reach 概览", async () => {
    const email = uniqueEmail("admin");
    const context = await newVisitor(browser);
    await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
    await context.clearCookies();
    await changeRole({ command: "grant", email, role: "admin", remote: false }, { persistPath: path.join(E2E_STATE, "v3"), log: () => {} });

    const { page, log } = await newPage(context);
    const first = await page.goto(baseURL() + "/admin");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/auth?next=%2Fadmin");
    expect(first?.status()).toBe(200);
    await page.waitForFunction(() => (window as { __hydrated?: boolean }).__hydrated === true || document.readyState === "complete");
    await fillSignIn(page, email, PASSWORD);
    await submit(page).click();
    await page.waitForURL(baseURL() + "/admin");

    await page.getByRole("heading", { name: "启用两步验证" }).waitFor();
    expect(await page.locator(".qr svg").count()).toBe(1);
    await shots(page, "enrol");
    const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel("验证器中显示的 6 位验证码").fill(totpCode(secret, Date.now()));
    await page.getByRole("button", { name: "确认启用" }).click();

    await page.getByRole("heading", { name: "两步验证已启用" }).waitFor();
    const codes = await page.getByTestId("recovery-codes").locator("li").allInnerTexts();
    expect(codes).toHaveLength(10);
    await shots(page, "recovery-codes");
    await page.getByRole("link", { name: "我已保存，进入管理后台" }).click();
    await page.getByRole("heading", { name: "概览" }).waitFor();
    await shots(page, "home");

    await page.getByRole("link", { name: "角色管理" }).first().click();
    await page.getByRole("heading", { name: "角色管理" }).waitFor();
    expect(await page.getByRole("cell", { name: email }).count()).toBe(1);
    await shots(page, "roles");
    expect(log.errors).toEqual([]);

    // Another browser of the same account is asked for a code (a recovery code here).
    const other = await newVisitor(browser);
    const res = await other.request.post(baseURL() + "/api/auth/sign-in", { data: { email, password: PASSWORD } });
    expect(res.status()).toBe(200);
    const { page: second } = await newPage(other);
    await second.goto(baseURL() + "/admin/roles");
    await second.getByRole("heading", { name: "两步验证" }).waitFor();
    await shots(second, "verify");
    await second.getByLabel("验证码或恢复码").fill(codes[0]);
    await second.getByRole("button", { name: "验证" }).click();
    await second.waitForURL(baseURL() + "/admin/roles");
    await second.getByRole("heading", { name: "角色管理" }).waitFor();
    await other.close();
    await context.close();
  });

  it("a viewer account sees 无权访问", async () => {
    const context = await newVisitor(browser, { viewport: PHONE });
    await signUpViaApi(context, "viewer");
    const { page } = await newPage(context);
    const res = await page.goto(baseURL() + "/admin");
    expect(res?.status()).toBe(403);
    await page.getByRole("heading", { name: "无权访问" }).waitFor();
    expect(res?.headers()["cache-control"]).toBe("no-store");
    await shots(page, "forbidden");
    await context.close();
  });
});
