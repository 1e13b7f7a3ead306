import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, browserForFile, holdRequests, media, newPage, PHONE, VIDEO, waitForHydration, waitPlaying } from "./browser";

/**
 * The first tap (docs/decisions/0017-early-input.md): with the page's modules held back, the
 * server's controls answer on the server's <video> — play/pause, the shortcuts, the clock — and a
 * tap on a control whose code has not arrived is heard and acted on once it has, exactly once.
 */

const browser = browserForFile();

/** Opens the video page with its modules (the entry and everything it imports) held until `release()`. */
async function openHeld(context: BrowserContext): Promise<{ page: Page; errors: string[]; release: () => void }> {
  const { page, log } = await newPage(context);
  const release = await holdRequests(page, /\/assets\/entry-[\w-]+\.js$/);
  await page.goto(baseURL() + `/video/${VIDEO}`);
  return { page, errors: log.errors, release };
}

const hydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === "true");

describe("the first tap", () => {
  it("play/pause, a shortcut and the clock answer before the page's modules; a held tap on 清晰度 opens its menu once they arrive", async () => {
    const context = await browser().newContext();
    const { page, errors, release } = await openHeld(context);
    await waitPlaying(page, 0.3);
    expect(await hydrated(page)).toBe(false);

    // The clock shows the element's real time and length, not the server's 0:00 / 0:00.
    await page.waitForFunction(() => /^0:0\d \/ 0:[1-9]\d$/.test(document.querySelector(".player-time")?.textContent ?? ""));
    await page.waitForFunction(() => document.querySelector(".player [data-act=play]")?.getAttribute("aria-label") === "暂停");

    // Play/pause pauses the server's <video> at once.
    await page.click(".player [data-act=play]");
    expect(await media(page, (v) => v.paused)).toBe(true);
    // The early controls' labels follow the element's events (pause, volumechange), which fire a moment later.
    await expect.poll(() => page.getAttribute(".player [data-act=play]", "aria-label")).toBe("播放");

    // M turns the (autoplay-muted) sound on.
    expect(await media(page, (v) => v.muted)).toBe(true);
    await page.keyboard.press("m");
    expect(await media(page, (v) => ({ muted: v.muted, volume: v.volume }))).toEqual({ muted: false, volume: 0.8 });
    await expect.poll(() => page.getAttribute(".player [data-act=mute]", "aria-label")).toBe("静音");

    // 清晰度 has no code yet: the tap is heard, nothing opens.
    const quality = page.locator(".player-quality .player-menu-button");
    await quality.click();
    expect(await quality.getAttribute("data-heard")).toBe("");
    expect(await page.locator(".player-quality .player-menu-list").count()).toBe(0);
    expect(await hydrated(page)).toBe(false);

    release();
    await waitForHydration(page);
    // The held tap opened the menu — once (a second click would have closed it again).
    await page.locator(".player-quality .player-menu-list").waitFor({ state: "visible" });
    expect(await quality.getAttribute("aria-expanded")).toBe("true");
    expect(await quality.getAttribute("data-heard")).toBeNull();
    // The player took the viewer's choices over: still paused, sound still on.
    expect(await media(page, (v) => ({ paused: v.paused, muted: v.muted }))).toEqual({ paused: true, muted: false });
    expect(await page.getAttribute(".player [data-act=play]", "aria-label")).toBe("播放");

    // After hydration a tap acts once (the early controls stepped aside).
    await page.keyboard.press("Escape");
    await page.click(".player [data-act=play]");
    await waitPlaying(page, 0.3);
    // The label follows the element's play event (a render after it, under load a moment later).
    await expect.poll(() => page.getAttribute(".player [data-act=play]", "aria-label")).toBe("暂停");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a phone, a double tap on the left third seeks back before the page's modules, and the server's <video> keeps playing through hydration", async () => {
    const context = await browser().newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    await context.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        (window as unknown as { __serverVideo: Element | null }).__serverVideo = document.querySelector("video");
      });
    });
    const { page, errors, release } = await openHeld(context);
    await waitPlaying(page, 4);
    const box = await page.locator("video.player-video").boundingBox();
    if (!box) throw new Error("no video box");
    const before = await media(page, (v) => v.currentTime);
    const x = box.x + box.width * 0.15;
    const y = box.y + box.height / 2;
    await page.touchscreen.tap(x, y);
    await page.touchscreen.tap(x, y);
    await page.waitForFunction((t) => (document.querySelector("video.player-video") as HTMLVideoElement).currentTime <= t - 3, before);
    expect(await media(page, (v) => v.paused)).toBe(false);

    release();
    await waitForHydration(page);
    expect(await page.evaluate(() => document.querySelector("video") === (window as unknown as { __serverVideo: Element | null }).__serverVideo)).toBe(true);
    await waitPlaying(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  // INP (docs/performance.md): React hydrates the part of the page a pointerdown, touchstart … lands on
  // at once, in the tap's own task (113–313 ms of a tap on a 4× slower CPU); the early controls answer those taps themselves.
  it("until the player takes over, a tap's pointer, touch and mouse events in the player do not reach the document's listeners (React's), a tap elsewhere's do", async () => {
    const context = await browser().newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const { page, errors, release } = await openHeld(context);
    await waitPlaying(page, 0.3);
    // Listeners on the document, in both phases, added after the page's inline scripts: where React's go.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      for (const type of ["pointerdown", "pointerup", "touchstart", "touchend", "mousedown", "mouseup"])
        for (const capture of [true, false])
          document.addEventListener(type, (e) => seen.push(`${(e.target as Element).closest(".player") ? "player" : "page"} ${type}`), {
            capture,
            passive: true,
          });
    });
    const seen = () => page.evaluate(() => [...new Set((window as unknown as { __seen: string[] }).__seen.splice(0))].sort());
    const tap = async (selector: string) => {
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`no box for ${selector}`);
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    };

    await tap(".player [data-act=play]");
    expect(await media(page, (v) => v.paused)).toBe(true);
    expect(await seen()).toEqual([]);
    await tap(".video-title");
    expect(await seen()).toEqual(["page mousedown", "page mouseup", "page pointerdown", "page pointerup", "page touchend", "page touchstart"]);

    release();
    await waitForHydration(page);
    await page.locator(".player[data-engine]").waitFor();
    await tap(".player [data-act=play]");
    await waitPlaying(page);
    expect(await seen()).toEqual(["player mousedown", "player mouseup", "player pointerdown", "player pointerup", "player touchend", "player touchstart"]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
