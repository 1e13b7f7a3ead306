import { describe, expect, it } from "vitest";
import { baseURL, browserForFile, open } from "./browser";
import { newVisitor, hydrated, go, signUpViaApi, header, expectSignedInHeader, expectSignedOutHeader, signInWithForm, path } from "./visitors";

/**
 * Signed-in visitors in Chromium against `wrangler dev` (spec §2 /profile, §4 profile, §5, §8;
 * docs/decisions/0010-embedded-accounts.md): sign-out, the guards of /auth and /profile, the
 * HttpOnly session, tab sync, the profile and the library saved in the account.
 *
 * Every context is its own visitor: local `wrangler dev` keeps a
 * CF-Connecting-IP sent by the client, so each context sends a fresh address
 * and the per-visitor rate limits of one test never reach another.
 */

const browser = browserForFile();

describe("session, guards and sign-out", () => {
  it("sign-out from the header goes home signed out", async () => {
    const context = await newVisitor(browser());
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
    const context = await newVisitor(browser());
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
    const context = await newVisitor(browser());
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
    const context = await newVisitor(browser());
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
    const context = await newVisitor(browser());
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
    const context = await newVisitor(browser());
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
    const first = await newVisitor(browser());
    const email = await signUpViaApi(first, "favourite");
    const { page } = await open(first, "/video/video_003");
    const button = page.locator(".video-actions button[aria-pressed]").first(); // 收藏 (追剧 and 稍后再看 follow)
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    const savedToAccount = page.waitForResponse((r) => r.url().endsWith("/api/auth/user") && r.request().method() === "PUT" && r.status() === 200);
    await button.click();
    await page.locator(".video-actions button[aria-pressed=true]").waitFor();
    await savedToAccount;
    await first.close();

    const fresh = await newVisitor(browser());
    const { page: page2 } = await open(fresh, "/video/video_003");
    expect(await page2.locator(".video-actions button[aria-pressed]").first().getAttribute("aria-pressed")).toBe("false");
    await signInWithForm(page2, email);
    await go(page2, "/profile");
    await page2.locator("section[aria-labelledby=fav-title] a.profile-item[href='/video/video_003']").waitFor();
    await go(page2, "/video/video_003");
    await page2.locator(".video-actions button[aria-pressed=true]").waitFor();
    await fresh.close();
  });
});
