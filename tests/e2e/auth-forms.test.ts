import { describe, expect, it } from "vitest";
import { baseURL, DESKTOP, browserForFile, open, PHONE, screenshot } from "./browser";
import {
  newVisitor,
  PASSWORD,
  uniqueEmail,
  signUpViaApi,
  signOutViaApi,
  header,
  errorBox,
  submit,
  field,
  expectSignedInHeader,
  expectSignedOutHeader,
  fillSignIn,
  fillSignUp,
  path,
} from "./visitors";

/**
 * The auth form of /auth in Chromium against `wrangler dev` (spec §2 /auth, §4 auth form;
 * docs/decisions/0010-embedded-accounts.md): its messages, the mode switch, the password reveal,
 * the plain forms without JavaScript, and how /auth and /profile look.
 *
 * Every context is its own visitor: local `wrangler dev` keeps a
 * CF-Connecting-IP sent by the client, so each context sends a fresh address
 * and the per-visitor rate limits of one test never reach another.
 */

const browser = browserForFile();

describe("the auth form", () => {
  it("sign-up: client-side mismatch and short-password messages, then a valid sign-up signs in and goes home", async () => {
    const context = await newVisitor(browser());
    const { page, log } = await open(context, "/auth?mode=signup");
    await expect(page.locator(".auth-title").innerText()).resolves.toBe("注册账号");
    const signUpCalls: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/auth/sign-up")) signUpCalls.push(r.method());
    });
    const email = uniqueEmail("signup");

    await fillSignUp(page, email, "abcdef", "abcdeg");
    await submit(page).click();
    await expect(errorBox(page).innerText()).resolves.toBe("密码确认不匹配");

    await fillSignUp(page, email, "abc", "abc");
    await submit(page).click();
    await page.locator(".auth-error", { hasText: "密码长度至少6位" }).waitFor();
    expect(signUpCalls).toEqual([]); // both were caught in the page

    // A slow account service: the button says 处理中... and is disabled meanwhile.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/auth/sign-up", async (route) => {
      await held;
      await route.continue();
    });
    await fillSignUp(page, email, PASSWORD, PASSWORD);
    await submit(page).click();
    await page.locator(".auth-form button[type=submit]", { hasText: "处理中..." }).waitFor();
    expect(await submit(page).isDisabled()).toBe(true);
    expect(await errorBox(page).count()).toBe(0); // the old error is gone while working
    release();

    await page.waitForURL(baseURL() + "/");
    await expectSignedInHeader(page);
    expect(signUpCalls).toEqual(["POST"]);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("the switch link flips the mode and clears the error and every field", async () => {
    const context = await newVisitor(browser());
    const { page } = await open(context, "/auth");
    await expect(page.locator(".auth-title").innerText()).resolves.toBe("登录");
    expect(await field(page, "confirmPassword").count()).toBe(0);

    await page.locator(".auth-switch").getByRole("link", { name: "立即注册" }).click();
    await expect(page.locator(".auth-title").innerText()).resolves.toBe("注册账号");
    await fillSignUp(page, "someone@example.com", "abcdef", "zzzzzz");
    await submit(page).click();
    await errorBox(page).waitFor();

    await page.locator(".auth-switch").getByRole("link", { name: "立即登录" }).click();
    await expect(page.locator(".auth-title").innerText()).resolves.toBe("登录");
    expect(await errorBox(page).count()).toBe(0);
    expect(await field(page, "email").inputValue()).toBe("");
    expect(await field(page, "password").inputValue()).toBe("");
    expect(await field(page, "confirmPassword").count()).toBe(0);
    expect(await submit(page).innerText()).toBe("登录");

    await fillSignIn(page, "someone@example.com", "whatever");
    await page.locator(".auth-switch").getByRole("link", { name: "立即注册" }).click();
    expect(await field(page, "email").inputValue()).toBe("");
    expect(await field(page, "password").inputValue()).toBe("");
    expect(await field(page, "confirmPassword").inputValue()).toBe("");
    expect(await submit(page).innerText()).toBe("注册");
    expect(path(page)).toBe("/auth"); // the switch happens in the page
    await context.close();
  });

  it("the reveal toggle shows and hides the password", async () => {
    const context = await newVisitor(browser());
    const { page } = await open(context, "/auth?mode=signup");
    const toggle = page.locator(".password-toggle");
    await fillSignUp(page, "a@example.com", "abcdef", "abcdef");
    expect(await field(page, "password").getAttribute("type")).toBe("password");
    expect(await field(page, "confirmPassword").getAttribute("type")).toBe("password");
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await toggle.click();
    expect(await field(page, "password").getAttribute("type")).toBe("text");
    expect(await field(page, "confirmPassword").getAttribute("type")).toBe("text");
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await toggle.getAttribute("aria-label")).toBe("隐藏密码");
    expect(await field(page, "password").inputValue()).toBe("abcdef");
    await toggle.click();
    expect(await field(page, "password").getAttribute("type")).toBe("password");
    expect(await toggle.getAttribute("aria-label")).toBe("显示密码");
    await context.close();
  });

  it("sign-in: a wrong password shows 邮箱或密码错误 in the red box; the right one goes home", async () => {
    const context = await newVisitor(browser());
    const email = await signUpViaApi(context, "signin");
    await signOutViaApi(context);
    const { page } = await open(context, "/auth");
    await fillSignIn(page, email, "wrong-password");
    await submit(page).click();
    await expect(errorBox(page).innerText()).resolves.toBe("邮箱或密码错误");
    expect(await errorBox(page).getAttribute("role")).toBe("alert");
    expect(await submit(page).isDisabled()).toBe(false);
    expect(await submit(page).innerText()).toBe("登录");
    expect(path(page)).toBe("/auth");

    await field(page, "password").fill(PASSWORD);
    await submit(page).click();
    await page.waitForURL(baseURL() + "/");
    await expectSignedInHeader(page);
    await context.close();
  });

  it("a 429 from the worker shows the Chinese rate-limit message; other failures the generic one", async () => {
    const context = await newVisitor(browser());
    const { page } = await open(context, "/auth");
    let answer = {
      status: 429,
      body: JSON.stringify({ error: { code: "over_request_rate_limit", message: "操作过于频繁，请稍后再试" } }),
      contentType: "application/json",
    };
    await page.route("**/api/auth/sign-in", (route) => route.fulfill(answer));
    await fillSignIn(page, "someone@example.com", PASSWORD);
    await submit(page).click();
    await expect(errorBox(page).innerText()).resolves.toBe("操作过于频繁，请稍后再试");
    expect(await submit(page).isDisabled()).toBe(false);

    // A 429 without a body (e.g. from a proxy) still says so.
    answer = { status: 429, body: "", contentType: "text/plain" };
    await submit(page).click();
    await page.locator(".auth-error", { hasText: "操作过于频繁，请稍后再试" }).waitFor();

    // Anything else unexpected: 操作失败，请重试.
    answer = { status: 502, body: "<html>bad gateway</html>", contentType: "text/html" };
    await submit(page).click();
    await page.locator(".auth-error", { hasText: "操作失败，请重试" }).waitFor();

    await page.unroute("**/api/auth/sign-in");
    await page.route("**/api/auth/sign-in", (route) => route.abort("connectionrefused"));
    await submit(page).click();
    await page.locator(".auth-error", { hasText: "操作失败，请重试" }).waitFor();
    await context.close();
  });
});

describe("without JavaScript", () => {
  it("signs up, out and in through the plain forms", async () => {
    const context = await newVisitor(browser(), { javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail("nojs");

    await page.goto(baseURL() + "/auth");
    await page.locator(".auth-switch a", { hasText: "立即注册" }).click();
    await page.waitForURL(/mode=signup/);
    await fillSignUp(page, email, PASSWORD, PASSWORD);
    await Promise.all([page.waitForURL(baseURL() + "/"), submit(page).click()]);
    await expectSignedInHeader(page);

    await Promise.all([page.waitForURL(baseURL() + "/"), header(page).getByRole("button", { name: "退出登录" }).click()]);
    await expectSignedOutHeader(page);

    await page.goto(baseURL() + "/auth");
    await fillSignIn(page, email, "wrong-password");
    await Promise.all([page.waitForURL(/error=invalid_credentials/), submit(page).click()]);
    await expect(errorBox(page).innerText()).resolves.toBe("邮箱或密码错误");

    await fillSignIn(page, email, PASSWORD);
    await Promise.all([page.waitForURL(baseURL() + "/"), submit(page).click()]);
    await expectSignedInHeader(page);
    await page.goto(baseURL() + "/profile");
    await expect(page.locator(".profile-email").innerText()).resolves.toBe(email);
    await context.close();
  });

  it("a mismatched confirmation comes back with the message", async () => {
    const context = await newVisitor(browser(), { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(baseURL() + "/auth?mode=signup");
    await fillSignUp(page, uniqueEmail("nojs"), "abcdef", "abcdeg");
    await Promise.all([page.waitForURL(/error=password_mismatch/), submit(page).click()]);
    await expect(errorBox(page).innerText()).resolves.toBe("密码确认不匹配");
    await context.close();
  });
});

describe("looks and console", () => {
  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`/auth (both modes) and /profile at ${name} width, without console errors`, async () => {
      const context = await newVisitor(browser(), { viewport });
      const signin = await open(context, "/auth");
      await screenshot(signin.page, `auth-signin-${name}`);
      const signup = await open(context, "/auth?mode=signup");
      await screenshot(signup.page, `auth-signup-${name}`);
      await fillSignUp(signup.page, "someone@example.com", "abcdef", "abcdeg");
      await submit(signup.page).click();
      await errorBox(signup.page).waitFor();
      await screenshot(signup.page, `auth-error-${name}`);

      await signUpViaApi(context, `look-${name}`);
      await context.request.put(baseURL() + "/api/auth/user", {
        data: {
          data: {
            library: {
              favourites: ["video_003", "video_010", "video_021"],
              history: [
                { id: "video_005", position: 95, duration: 300, updatedAt: Date.now() },
                { id: "video_012", position: 1200, duration: 2700, updatedAt: Date.now() - 1000 },
              ],
            },
          },
        },
      });
      const profile = await open(context, "/profile");
      await profile.page.locator(".profile-item").first().waitFor();
      await profile.page.evaluate(() =>
        Promise.all([...document.images].filter((i) => !i.complete).map((i) => new Promise((r) => i.addEventListener("load", r, { once: true })))),
      );
      await screenshot(profile.page, `profile-${name}`);

      const emptyContext = await newVisitor(browser(), { viewport });
      await signUpViaApi(emptyContext, `look-empty-${name}`);
      const empty = await open(emptyContext, "/profile");
      await empty.page.locator(".muted", { hasText: "还没有收藏" }).waitFor();
      await screenshot(empty.page, `profile-empty-${name}`);

      // Overflow check: nothing wider than the viewport.
      for (const page of [signin.page, signup.page, profile.page, empty.page]) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      }
      for (const log of [signin.log, signup.log, profile.log, empty.log]) expect(log.errors).toEqual([]);
      await emptyContext.close();
      await context.close();
    });
  }
});
