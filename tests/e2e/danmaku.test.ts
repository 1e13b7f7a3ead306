import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, DESKTOP, launchBrowser, newPage, PHONE, waitForHydration } from "./browser";

/**
 * 弹幕 in Chromium against `wrangler dev`: two signed-in viewers of one video (one posts, the
 * other sees it over the video), a signed-out viewer (sees comments, is asked to sign in to
 * post), settings remembered across a reload. Each context sends its own address (see
 * accounts.test.ts) so rate limits never meet.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = "e2e-secret-1";
const runTag = Math.floor(Math.random() * 0xffff).toString(16);
let ipSeq = 0;
const uniqueIp = () => `2001:db8:e2d:${runTag}::${(++ipSeq).toString(16)}`;
const VIDEO = "/video/video_004";

async function newContext(): Promise<BrowserContext> {
  return browser.newContext({ viewport: DESKTOP, locale: "zh-CN", extraHTTPHeaders: { "CF-Connecting-IP": uniqueIp() } });
}

async function signUp(context: BrowserContext, tag: string): Promise<void> {
  const email = `${tag}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
  const res = await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status()).toBe(200);
}

/** The video page, hydrated, with the 弹幕 bar mounted and the room's socket open. */
async function openVideo(context: BrowserContext): Promise<{ page: Page; errors: () => string[] }> {
  const { page, log } = await newPage(context);
  const failed: string[] = [];
  page.on("response", (res) => {
    if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`);
  });
  const hello = new Promise<void>((resolve) => {
    page.on("websocket", (ws) => {
      if (ws.url().includes("/api/danmaku/")) ws.on("framereceived", (frame) => String(frame.payload).includes('"hello"') && resolve());
    });
  });
  await page.goto(baseURL() + VIDEO);
  await waitForHydration(page);
  await hello;
  await page.locator(".danmaku-bar").waitFor();
  // The local clips last a few seconds and the player moves on to another video at the end: stay on this one.
  await page.evaluate(() => {
    (document.querySelector("video") as HTMLVideoElement).loop = true;
  });
  // With MEDIA_TITLES below the catalogue size the local bucket lacks the later titles' covers
  // (the related list shows them): those 404s are the test setup's, every other failure counts.
  const errors = () => [
    ...failed.filter((f) => !/^404 \/\d+\.webp$/.test(f)),
    ...log.errors.filter((e) => !/status of 404/.test(e) || failed.some((f) => !/\.webp$/.test(f))),
  ];
  return { page, errors };
}

const itemWithText = (page: Page, text: string) => page.locator(".danmaku-layer .danmaku-item", { hasText: text });

describe("弹幕", () => {
  it("a comment posted by one signed-in viewer shows over the other's video within a second, and reaches a signed-out viewer", async () => {
    const [a, b, anon] = [await newContext(), await newContext(), await newContext()];
    await signUp(a, "dm-a");
    await signUp(b, "dm-b");
    const pa = await openVideo(a);
    const pb = await openVideo(b);
    const pc = await openVideo(anon);

    const text = `同步测试${runTag}`;
    await pa.page.getByRole("textbox", { name: "弹幕内容" }).fill(text);
    const sentAt = Date.now();
    await pa.page.getByRole("textbox", { name: "弹幕内容" }).press("Enter");
    const state = async (page: Page) =>
      page.evaluate(() => ({
        message: document.querySelector(".danmaku-message")?.textContent,
        items: [...document.querySelectorAll(".danmaku-item")].map((e) => e.textContent),
        paused: document.querySelector("video")?.paused,
      }));
    try {
      await itemWithText(pb.page, text).waitFor({ state: "attached", timeout: 1000 });
    } catch (error) {
      throw new Error(`not shown to the other viewer: sender ${JSON.stringify(await state(pa.page))}, viewer ${JSON.stringify(await state(pb.page))}`, {
        cause: error,
      });
    }
    console.log(`弹幕 e2e: shown to the other viewer ${Date.now() - sentAt} ms after Enter`);
    await itemWithText(pc.page, text).waitFor({ state: "attached", timeout: 1000 });
    // The sender sees it too (once), and the input is cleared.
    await expect.poll(() => itemWithText(pa.page, text).count()).toBe(1);
    expect(await pa.page.getByRole("textbox", { name: "弹幕内容" }).inputValue()).toBe("");

    // The overlay lies inside the player box, over the video, and ends above the seek bar and buttons.
    const overlay = await pb.page.evaluate(() => {
      const layer = document.querySelector(".danmaku-layer") as HTMLElement;
      const controls = document.querySelector(".player-controls") as HTMLElement;
      return {
        inPlayer: layer.parentElement?.classList.contains("player"),
        layerBottom: layer.getBoundingClientRect().bottom,
        controlsTop: controls.getBoundingClientRect().top + parseFloat(getComputedStyle(controls).paddingTop),
      };
    });
    expect(overlay.inPlayer).toBe(true);
    expect(overlay.layerBottom).toBeLessThanOrEqual(overlay.controlsTop + 1);

    // Sending again at once: the server's rate limit, shown in Chinese.
    await pa.page.getByRole("textbox", { name: "弹幕内容" }).fill("再来一条");
    await pa.page.getByRole("textbox", { name: "弹幕内容" }).press("Enter");
    await expect.poll(() => pa.page.locator(".danmaku-message").textContent()).toBe("发送太频繁，请稍后再试");

    // Signed out: no input, a link to sign in.
    expect(await pc.page.getByRole("textbox", { name: "弹幕内容" }).count()).toBe(0);
    const link = pc.page.getByRole("link", { name: "登录后发送弹幕" });
    expect(await link.getAttribute("href")).toBe(`/auth?mode=signin&next=${encodeURIComponent(VIDEO)}`);

    for (const p of [pa, pb, pc]) expect(p.errors()).toEqual([]);
    await Promise.all([a.close(), b.close(), anon.close()]);
  });

  for (const device of ["desktop", "phone"] as const)
    it(`in fullscreen on a ${device}, a compact bar over the video sends comments without covering the controls`, async () => {
      const context =
        device === "desktop"
          ? await newContext()
          : await browser.newContext({
              viewport: PHONE,
              isMobile: true,
              hasTouch: true,
              locale: "zh-CN",
              extraHTTPHeaders: { "CF-Connecting-IP": uniqueIp() },
            });
      await signUp(context, `dm-fs-${device}`);
      const { page, errors } = await openVideo(context);
      // Paused, the player keeps its controls shown (playing, they hide and the bar with them).
      await page.evaluate(() => (document.querySelector("video") as HTMLVideoElement).pause());
      await page.getByRole("button", { name: "全屏", exact: true }).click();
      await page.waitForFunction(() => document.fullscreenElement?.classList.contains("player") === true);
      const input = page.getByRole("textbox", { name: "弹幕内容" });
      await expect.poll(() => input.evaluate((el) => el.closest(".player") === document.fullscreenElement)).toBe(true);
      const boxes = await page.evaluate(() => {
        const rect = (selector: string) => (document.querySelector(selector) as HTMLElement).getBoundingClientRect();
        const controls = document.querySelector(".player-controls") as HTMLElement;
        return {
          bar: rect(".danmaku-bar-fullscreen").toJSON() as DOMRect,
          layerBottom: rect(".danmaku-layer").bottom,
          controlsTop: controls.getBoundingClientRect().top + parseFloat(getComputedStyle(controls).paddingTop),
          screen: { width: innerWidth, height: innerHeight },
        };
      });
      // Inside the screen, above the seek bar and buttons, below the comments.
      expect(boxes.bar.left).toBeGreaterThanOrEqual(0);
      expect(boxes.bar.right).toBeLessThanOrEqual(boxes.screen.width);
      expect(boxes.bar.bottom).toBeLessThanOrEqual(boxes.controlsTop + 1);
      expect(boxes.layerBottom).toBeLessThanOrEqual(boxes.bar.top + 1);
      const text = `全屏发送${device}${runTag}`;
      await input.fill(text);
      await input.press("Enter");
      await itemWithText(page, text).waitFor({ state: "attached", timeout: 2000 });
      expect(await input.inputValue()).toBe("");
      // Typing in the bar is not a player shortcut (F would leave fullscreen, Space would play).
      await input.fill("f k");
      expect(await page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
      expect(await page.evaluate(() => (document.querySelector("video") as HTMLVideoElement).paused)).toBe(true);
      // Leaving fullscreen puts the full bar back under the player.
      await page.evaluate(() => document.exitFullscreen());
      await expect.poll(() => input.evaluate((el) => el.closest("#danmaku-bar") !== null)).toBe(true);
      expect(errors()).toEqual([]);
      await context.close();
    });

  it("remembers the settings across a reload", async () => {
    const context = await newContext();
    const { page } = await openVideo(context);
    const toggle = page.getByRole("button", { name: "弹幕", exact: true });
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await page.locator(".danmaku-settings summary").click();
    await page.getByLabel("显示区域").selectOption("full");
    await page.getByLabel("字号").selectOption("large");

    await page.reload();
    await waitForHydration(page);
    await page.locator(".danmaku-bar").waitFor();
    expect(await page.getByRole("button", { name: "弹幕", exact: true }).getAttribute("aria-pressed")).toBe("false");
    expect(await page.locator(".danmaku-layer").getAttribute("data-on")).toBe("false");
    await page.locator(".danmaku-settings summary").click();
    expect(await page.getByLabel("显示区域").inputValue()).toBe("full");
    expect(await page.getByLabel("字号").inputValue()).toBe("large");
    await context.close();
  });

  it("keeps the page's decorative circles still under the player (they cost the compositor frames), and only there", async () => {
    const context = await newContext();
    const { page } = await openVideo(context);
    const circleAnimations = () =>
      page.evaluate(() => [...document.querySelectorAll(".floating-circles span")].map((el) => getComputedStyle(el).animationName));
    expect(await circleAnimations()).toEqual(["none", "none", "none", "none", "none"]);
    await page.goto(baseURL() + "/");
    expect(await circleAnimations()).toEqual(["float", "float", "float", "float", "float"]);
    await context.close();
  });
});
