import type { BrowserContext, Page } from "playwright-core";
import { HTML_SAMPLES } from "../route-samples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations as audit } from "./axe";
import { baseURL, DESKTOP, browserForFile, newPage, PHONE, waitForHydration } from "./browser";
import { newVisitor, PASSWORD, uniqueEmail } from "./visitors";

/**
 * axe-core (WCAG 2.0/2.1 A and AA plus best practices, colour contrast
 * included) in Chromium on every route and state, at desktop and phone width:
 * zero violations. axe is evaluated through CDP (page.evaluate), which the
 * page's CSP (script-src 'self' 'nonce-…') does not apply to.
 */

/** Every route of the site, with the states the spec names (each declared route's samples, tests/route-samples.ts). */
export const ROUTES = HTML_SAMPLES;

/**
 * The page settled: hydrated, fonts loaded, no CSS transition half-way (contrast is measured on final
 * colours). 弹幕 crossing a playing video move as long as it plays, like the video itself: not waited for.
 */
async function settle(page: Page): Promise<void> {
  await waitForHydration(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (a) =>
            a.playState !== "running" ||
            (a.effect?.getTiming().iterations ?? 1) === Infinity ||
            (a.effect instanceof KeyframeEffect && a.effect.target?.closest(".danmaku-item")),
        ),
    undefined,
    {
      timeout: 5_000,
    },
  );
}

const browser = browserForFile();

for (const [width, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  // The audits are independent pages: a few at once (the e2e project's maxConcurrency) share the
  // waits for hydration and fonts; axe itself is CPU-bound.
  describe.concurrent(`axe at ${width} width`, () => {
    let context: BrowserContext;

    beforeAll(async () => {
      context = await browser().newContext({ viewport, locale: "zh-CN" });
    });

    afterAll(async () => {
      await context?.close();
    });

    /** Runs `check` on a new page of this width's context, and closes the page whatever happens. */
    async function withPage(path: string, check: (page: Page) => Promise<void>): Promise<void> {
      const { page } = await newPage(context);
      try {
        // not "load": that waits for every cover and the video, which axe does not need
        await page.goto(baseURL() + path, { waitUntil: "domcontentloaded" });
        await settle(page);
        await check(page);
      } finally {
        await page.close();
      }
    }

    it.each(ROUTES)("%s has no violations", async (path) => {
      await withPage(path, async (page) => {
        expect(await audit(page)).toEqual([]);
      });
    });

    it("the sign-up mode of the auth form has no violations", async () => {
      await withPage("/auth", async (page) => {
        await page.getByRole("link", { name: "立即注册" }).click();
        await page.getByRole("heading", { level: 1, name: "注册账号" }).waitFor();
        await page.getByLabel("确认密码").waitFor();
        expect(await audit(page)).toEqual([]);
        // the error shown for a mismatched confirmation is accessible too
        await page.getByLabel("邮箱").fill("a11y@example.com");
        await page.getByLabel("密码", { exact: true }).fill("secret123");
        await page.getByLabel("确认密码").fill("secret124");
        await page.getByRole("button", { name: "注册", exact: true }).click();
        await page.getByRole("alert").waitFor();
        expect(await audit(page)).toEqual([]);
      });
    });

    it("the player with its 清晰度 menu open has no violations", async () => {
      await withPage("/video/video_001", async (page) => {
        await page.locator(".player-quality .player-menu-button").click();
        await page.locator(".player-quality .player-menu-list").waitFor();
        await settle(page);
        expect(await audit(page)).toEqual([]);
      });
    });

    it("the player with its speed menu open has no violations", async () => {
      await withPage("/video/video_001", async (page) => {
        await page.locator(".player-speed .player-menu-button").click();
        await page.locator(".player-speed .player-menu-list").waitFor();
        await settle(page);
        expect(await audit(page)).toEqual([]);
      });
    });

    it("the search combobox, empty (搜索历史, 热门搜索) and with suggestions, has no violations", async () => {
      await withPage("/", async (page) => {
        if (viewport === PHONE) {
          await page.getByRole("button", { name: "打开菜单" }).click();
        }
        const box = page.getByRole("combobox", { name: "搜索视频" });
        await page.evaluate(() => localStorage.setItem("yingshi:search-history", JSON.stringify(["雾港", "wglx"])));
        await box.focus();
        await page.getByRole("option", { name: "清空搜索历史" }).waitFor();
        await page.keyboard.press("ArrowDown");
        await settle(page);
        expect(await audit(page)).toEqual([]);
        await box.fill("wg");
        await page.getByRole("option", { name: /雾港来信/ }).waitFor();
        await page.keyboard.press("ArrowDown");
        await settle(page);
        expect(await audit(page)).toEqual([]);
      });
    });

    if (viewport === PHONE) {
      it("the opened mobile menu has no violations", async () => {
        await withPage("/", async (page) => {
          await page.getByRole("button", { name: "打开菜单" }).click();
          await page.locator(".main-nav").waitFor({ state: "visible" });
          await settle(page);
          expect(await audit(page)).toEqual([]);
        });
      });
    }
  });
}

describe("axe on the profile of a freshly signed-up user", () => {
  it("signs up through the form, then /profile has no violations at both widths", async () => {
    // A visitor of its own: the sign-up rate limit counts per address.
    const context = await newVisitor(browser());
    const { page } = await newPage(context);
    await page.goto(baseURL() + "/auth", { waitUntil: "domcontentloaded" });
    await settle(page);
    await page.getByRole("link", { name: "立即注册" }).click();
    const email = uniqueEmail("a11y");
    await page.getByLabel("邮箱").fill(email);
    await page.getByLabel("密码", { exact: true }).fill(PASSWORD);
    await page.getByLabel("确认密码").fill(PASSWORD);
    await page.getByRole("button", { name: "注册", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("link", { name: "个人中心" }).waitFor();
    // a favourite and a history entry, so the profile lists are not empty
    await page.goto(baseURL() + "/video/video_001", { waitUntil: "domcontentloaded" });
    await settle(page);
    await page.getByRole("button", { name: "收藏" }).click();
    await page.getByRole("button", { name: "已收藏" }).waitFor();
    await page.goto(baseURL() + "/profile", { waitUntil: "domcontentloaded" });
    await settle(page);
    await page.locator(".profile-email", { hasText: email }).waitFor();
    await page.locator(".profile-list").first().waitFor();
    expect(await audit(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await settle(page);
    expect(await audit(page)).toEqual([]);
    await context.close();
  });
});
