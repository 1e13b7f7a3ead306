import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, DESKTOP, launchBrowser, open, PHONE, screenshot, waitForHydration } from "./browser";
import { newVisitor, PASSWORD, uniqueEmail } from "./visitors";

/**
 * Accounts in Chromium against `wrangler dev` (spec §2 /auth and /profile, §4
 * auth form and profile, §5, §8; docs/decisions/0010-embedded-accounts.md): the auth form and its messages,
 * sign-in/up/out, guards, the profile, the HttpOnly session, the library saved
 * in the account, tab sync, the no-JavaScript form path.
 *
 * Every context is its own visitor: local `wrangler dev` keeps a
 * CF-Connecting-IP sent by the client, so each context sends a fresh address
 * and the per-visitor rate limits of one test never reach another.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Failed responses of each page, to say why a page did not hydrate. */
const failedResponses = new WeakMap<Page, string[]>();

function watchFailures(page: Page): void {
  if (failedResponses.has(page)) return;
  const failures: string[] = [];
  failedResponses.set(page, failures);
  page.on("response", (r) => {
    if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
  });
}

async function hydrated(page: Page): Promise<void> {
  try {
    await waitForHydration(page);
  } catch (error) {
    throw new Error(`${page.url()} did not hydrate; failed responses: ${JSON.stringify(failedResponses.get(page) ?? [])}`, { cause: error });
  }
}

/** Goes to `path` and waits for hydration (not for media: the player's video may still load). */
async function go(page: Page, path: string): Promise<void> {
  watchFailures(page);
  await page.goto(baseURL() + path, { waitUntil: "domcontentloaded" });
  await hydrated(page);
}

/** A new account made through the worker's API; the context is signed in afterwards. */
async function signUpViaApi(context: BrowserContext, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const res = await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status()).toBe(200);
  return email;
}

/** Signs the context out through the worker's API. */
async function signOutViaApi(context: BrowserContext): Promise<void> {
  const res = await context.request.post(baseURL() + "/api/auth/sign-out", { data: {} });
  expect(res.status()).toBe(200);
}

const header = (page: Page) => page.locator(".site-header .header-account");
const errorBox = (page: Page) => page.locator(".auth-error");
const submit = (page: Page) => page.locator(".auth-form button[type=submit]");
const field = (page: Page, name: "email" | "password" | "confirmPassword") => page.locator(`.auth-form input[name=${name}]`);

async function expectSignedInHeader(page: Page): Promise<void> {
  await header(page).getByRole("link", { name: "个人中心" }).waitFor();
  await header(page).getByRole("button", { name: "退出登录" }).waitFor();
  expect(await header(page).getByRole("link", { name: "登录/注册" }).count()).toBe(0);
}

async function expectSignedOutHeader(page: Page): Promise<void> {
  await header(page).getByRole("link", { name: "登录/注册" }).waitFor();
  expect(await header(page).getByRole("link", { name: "个人中心" }).count()).toBe(0);
  expect(await header(page).getByRole("button", { name: "退出登录" }).count()).toBe(0);
}

async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await field(page, "email").fill(email);
  await field(page, "password").fill(password);
}

async function fillSignUp(page: Page, email: string, password: string, confirm: string): Promise<void> {
  await field(page, "email").fill(email);
  await field(page, "password").fill(password);
  await field(page, "confirmPassword").fill(confirm);
}

/** Signs in through the form of /auth (JavaScript on) and waits for the home page. */
async function signInWithForm(page: Page, email: string): Promise<void> {
  await go(page, "/auth");
  await fillSignIn(page, email, PASSWORD);
  await submit(page).click();
  await page.waitForURL(baseURL() + "/");
  await expectSignedInHeader(page);
}

const path = (page: Page) => new URL(page.url()).pathname;

describe("the auth form", () => {
  it("sign-up: client-side mismatch and short-password messages, then a valid sign-up signs in and goes home", async () => {
    const context = await newVisitor(browser);
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
    const context = await newVisitor(browser);
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
    const context = await newVisitor(browser);
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
    const context = await newVisitor(browser);
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
    const context = await newVisitor(browser);
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

describe("session, guards and sign-out", () => {
  it("sign-out from the header goes home signed out", async () => {
    const context = await newVisitor(browser);
    await signUpViaApi(context, "signout");
    const { page } = await open(context, "/category/all");
    await expectSignedInHeader(page);
    await header(page).getByRole("button", { name: "退出登录" }).click();
    await page.waitForURL(baseURL() + "/");
    await expectSignedOutHeader(page);
    const who = await context.request.get(baseURL() + "/api/auth/user");
    expect(await who.json()).toEqual({ user: null, library: null });
    // A reload is still signed out (the cookie is gone, not just the page state).
    await page.reload({ waitUntil: "domcontentloaded" });
    await hydrated(page);
    await expectSignedOutHeader(page);
    await context.close();
  });

  it("/auth while signed in goes to /profile; /profile while signed out goes to /auth", async () => {
    const context = await newVisitor(browser);
    const { page } = await open(context, "/profile");
    expect(path(page)).toBe("/auth");
    await signUpViaApi(context, "guard");
    await go(page, "/auth");
    expect(path(page)).toBe("/profile");
    await page.locator(".profile-email").waitFor();

    // In the page too (client-side navigation): the header's 个人中心 link, then sign-out.
    await go(page, "/");
    await header(page).getByRole("link", { name: "个人中心" }).click();
    await page.waitForURL(baseURL() + "/profile");
    await page.locator(".profile-header").getByRole("button", { name: "退出登录" }).click();
    await page.waitForURL(baseURL() + "/");
    await expectSignedOutHeader(page);
    await page.goto(baseURL() + "/profile");
    expect(path(page)).toBe("/auth");
    await context.close();
  });

  it("the session cookie is HttpOnly: document.cookie cannot see it", async () => {
    const context = await newVisitor(browser);
    await signUpViaApi(context, "httponly");
    const { page } = await open(context, "/");
    await expectSignedInHeader(page);
    const cookies = await context.cookies();
    const session = cookies.filter((c) => c.name.startsWith("yingshi-auth"));
    expect(session.length).toBeGreaterThan(0);
    for (const c of session) {
      expect(c.httpOnly).toBe(true);
      expect(c.sameSite).toBe("Lax");
      expect(c.path).toBe("/");
    }
    const visible = await page.evaluate(() => document.cookie);
    expect(visible).not.toContain("yingshi-auth");
    const html = await page.content();
    for (const c of session) expect(html).not.toContain(c.value.slice(7, 60));
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toContain("access_token");
    await context.close();
  });

  it("two tabs stay in step: signing out in one updates the other's header without a reload", async () => {
    const context = await newVisitor(browser);
    await signUpViaApi(context, "tabs");
    const a = await open(context, "/");
    const b = await open(context, "/category/all");
    await expectSignedInHeader(a.page);
    await expectSignedInHeader(b.page);
    await b.page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    await header(a.page).getByRole("button", { name: "退出登录" }).click();
    await a.page.waitForURL(baseURL() + "/");
    await expectSignedOutHeader(a.page);
    await expectSignedOutHeader(b.page);
    expect(await b.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(path(b.page)).toBe("/category/all");
    expect(a.log.errors).toEqual([]);
    expect(b.log.errors).toEqual([]);
    await context.close();
  });

  it("two tabs: signing out in one moves the other off /profile", async () => {
    const context = await newVisitor(browser);
    await signUpViaApi(context, "tabs2");
    const a = await open(context, "/");
    const b = await open(context, "/profile");
    await header(a.page).getByRole("button", { name: "退出登录" }).click();
    await b.page.waitForURL(baseURL() + "/");
    await expectSignedOutHeader(b.page);
    await context.close();
  });
});

describe("the profile", () => {
  it("shows the e-mail, 注册时间, 使用天数, 正常 and the saved favourites and history with counts", async () => {
    const context = await newVisitor(browser);
    const email = await signUpViaApi(context, "profile");
    const saved = await context.request.put(baseURL() + "/api/auth/user", {
      data: {
        data: {
          library: {
            favourites: ["video_003", "video_010"],
            history: [{ id: "video_005", position: 95, duration: 300, updatedAt: Date.now() }],
          },
        },
      },
    });
    expect(saved.status()).toBe(200);
    const { page, log } = await open(context, "/profile");
    await expect(page.locator(".profile-email").innerText()).resolves.toBe(email);
    await expect(page.locator("h1").innerText()).resolves.toBe("个人中心");
    const stats = page.locator(".profile-stats");
    const stat = (label: string) => stats.locator("div", { has: page.locator("dt", { hasText: label }) }).locator("dd");
    expect(await stat("注册时间").innerText()).toMatch(/2\d{3}/);
    expect(await stat("使用天数").innerText()).toMatch(/^\d+ 天$/);
    expect(await stat("账号状态").innerText()).toBe("正常");
    await page.locator(".profile-stats dd", { hasText: /^2$/ }).waitFor();
    expect(await stat("收藏数量").innerText()).toBe("2");
    expect(await stat("观看记录").innerText()).toBe("1");

    const favourites = page.locator("section[aria-labelledby=fav-title] .profile-item");
    expect(await favourites.count()).toBe(2);
    expect(await favourites.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(["/video/video_003", "/video/video_010"]);
    const history = page.locator("section[aria-labelledby=history-title] .profile-item");
    expect(await history.count()).toBe(1);
    expect(await history.first().getAttribute("href")).toBe("/video/video_005");
    expect(await history.first().innerText()).toContain("看到 1:35 / 5:00");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("a favourite saved while signed in is there in a fresh browser after signing in", async () => {
    const first = await newVisitor(browser);
    const email = await signUpViaApi(first, "favourite");
    const { page } = await open(first, "/video/video_003");
    const button = page.locator(".video-actions button[aria-pressed]");
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    const savedToAccount = page.waitForResponse((r) => r.url().endsWith("/api/auth/user") && r.request().method() === "PUT" && r.status() === 200);
    await button.click();
    await page.locator(".video-actions button[aria-pressed=true]").waitFor();
    await savedToAccount;
    await first.close();

    const fresh = await newVisitor(browser);
    const { page: page2 } = await open(fresh, "/video/video_003");
    expect(await page2.locator(".video-actions button[aria-pressed]").getAttribute("aria-pressed")).toBe("false");
    await signInWithForm(page2, email);
    await go(page2, "/profile");
    await page2.locator("section[aria-labelledby=fav-title] a.profile-item[href='/video/video_003']").waitFor();
    await go(page2, "/video/video_003");
    await page2.locator(".video-actions button[aria-pressed=true]").waitFor();
    await fresh.close();
  });
});

describe("without JavaScript", () => {
  it("signs up, out and in through the plain forms", async () => {
    const context = await newVisitor(browser, { javaScriptEnabled: false });
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
    const context = await newVisitor(browser, { javaScriptEnabled: false });
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
      const context = await newVisitor(browser, { viewport });
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

      const emptyContext = await newVisitor(browser, { viewport });
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
