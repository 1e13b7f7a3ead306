import { describe, expect, it } from "vitest";
import { mediaNumberOf } from "../../shared/stream/contract";
import {
  DESKTOP,
  PLAYER,
  baseURL,
  holdRequests,
  launchBrowser,
  browserForFile,
  media,
  newPage,
  open,
  waitForHydration,
  waitPlaying,
  VIDEO,
  video,
  pathname,
} from "./browser";

/**
 * The player on the detail page (docs/product-spec.md §2, §4, §7; the choices beyond it in docs/decisions/) in Chromium
 * against `wrangler dev`. The default browser allows autoplay with sound; the
 * refused-autoplay path has its own browser.
 */

const browser = browserForFile();

describe("player", () => {
  it("the server's <video> is the one that keeps playing when the player's chunk arrives after the page hydrated", async () => {
    const context = await browser().newContext();
    // A favourite in browser storage: the library the page reads after hydration differs from the server's.
    await context.addInitScript((id) => {
      localStorage.setItem("yingshi:library", JSON.stringify({ favourites: [id], history: [] }));
      document.addEventListener("DOMContentLoaded", () => {
        (window as unknown as { __serverVideo: Element | null }).__serverVideo = document.querySelector("video");
      });
    }, VIDEO);
    const { page, log } = await newPage(context);
    // The player's chunk is held back until the rest of the page has hydrated (a slow link).
    const release = await holdRequests(page, /\/assets\/VideoPlayer-[\w-]+\.js$/);
    await page.goto(baseURL() + `/video/${VIDEO}`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    // Let React process whatever the page does right after hydrating, then let the chunk in.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    release();
    await waitForHydration(page);
    await waitPlaying(page);
    expect(await page.evaluate(() => document.querySelector("video") === (window as unknown as { __serverVideo: Element | null }).__serverVideo)).toBe(true);
    expect(await page.locator(".player").count()).toBe(1);
    // The library waited for the player, then arrived: the stored favourite shows.
    await page.waitForFunction(() => document.querySelector(".video-actions button[aria-pressed]")?.getAttribute("aria-pressed") === "true");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("the 评分 panel's server HTML stays until its chunk arrives after the player and the library (never its empty fallback)", async () => {
    const context = await browser().newContext();
    // A favourite in browser storage: the page updates the library right after its islands hydrate.
    await context.addInitScript((id) => {
      localStorage.setItem("yingshi:library", JSON.stringify({ favourites: [id], history: [] }));
      document.addEventListener("DOMContentLoaded", () => {
        const w = window as unknown as { __serverPanel: Element | null; __panelFallback: boolean };
        w.__serverPanel = document.querySelector("section.rating-panel");
        w.__panelFallback = false;
        new MutationObserver(() => {
          if (document.querySelector("section.rating-panel[aria-busy]")) w.__panelFallback = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
    }, VIDEO);
    const { page, log } = await newPage(context);
    // The panel's chunk is held back until the player has hydrated (a slow link: it comes last).
    const release = await holdRequests(page, /\/assets\/RatingPanel-[\w-]+\.js$/);
    await page.goto(baseURL() + `/video/${VIDEO}`);
    await waitForHydration(page);
    // Let React process what the page does once the player has hydrated, then let the chunk in.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    release();
    // The library waited for the panel too, then arrived: the stored favourite shows.
    await page.waitForFunction(() => document.querySelector(".video-actions button[aria-pressed]")?.getAttribute("aria-pressed") === "true");
    const kept = await page.evaluate(() => {
      const w = window as unknown as { __serverPanel: Element | null; __panelFallback: boolean };
      return { same: document.querySelector("section.rating-panel") === w.__serverPanel, fallback: w.__panelFallback };
    });
    expect(kept).toEqual({ same: true, fallback: false });
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("starts playing by itself with sound at volume 0.8", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page, 0.5);
    expect(await media(page, (v) => ({ muted: v.muted, volume: v.volume }))).toEqual({ muted: false, volume: 0.8 });
    expect(await page.locator(".player-unmute").count()).toBe(0);
    await page.locator('.player button[aria-label="暂停"]').waitFor({ state: "attached" });
    const time = (await page.textContent(".player-time")) ?? "";
    expect(time).toMatch(/^0:\d\d \/ \d+:\d\d$/);
    const slider = page.locator('input[aria-label="播放进度"]');
    expect(await slider.getAttribute("aria-valuetext")).toMatch(/^0:\d\d \/ \d+:\d\d$/);
    // Any time can be picked (no 1 % grid); the arrow keys move by 1 % ("the sliders work by keyboard").
    expect(await slider.getAttribute("step")).toBe("any");
    // The picture-in-picture button exists exactly where the browser supports it.
    const pipEnabled = await page.evaluate(() => document.pictureInPictureEnabled === true);
    expect(await page.locator('.player button[aria-label="画中画"]').count()).toBe(pipEnabled ? 1 : 0);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("when autoplay with sound is refused, plays muted and offers 点击开启声音", async () => {
    const strict = await launchBrowser(["--autoplay-policy=document-user-activation-required"]);
    try {
      const context = await strict.newContext();
      // Headless Chromium sometimes marks a fresh page as already activated (navigator.userActivation
      // .hasBeenActive) and then lets sound through: refuse unmuted play() without a gesture in progress,
      // so the refused path always runs.
      // A real pointer or key press (not page load) is what lets sound through, as the policy says.
      await context.addInitScript(() => {
        let gesture = false;
        for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, (e) => (gesture ||= e.isTrusted), true);
        const { play } = HTMLMediaElement.prototype as { play: (this: HTMLMediaElement) => Promise<void> };
        HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
          if (!this.muted && !gesture) return Promise.reject(new DOMException("play() needs a user gesture", "NotAllowedError"));
          return play.call(this);
        };
      });
      const { page, log } = await open(context, `/video/${VIDEO}`);
      await waitPlaying(page, 0.3);
      // The server's <video autoplay muted> may play before the player applies the stored sound (unmuted) and
      // starts: once it has, the video plays muted.
      await expect.poll(() => media(page, (v) => ({ muted: v.muted, paused: v.paused }))).toEqual({ muted: true, paused: false });
      const prompt = page.getByRole("button", { name: "点击开启声音" });
      await prompt.waitFor({ state: "visible" });
      await page.locator('.player button[aria-label="取消静音"]').waitFor({ state: "attached" });
      await prompt.click();
      await expect.poll(() => media(page, (v) => ({ muted: v.muted, paused: v.paused }))).toEqual({ muted: false, paused: false });
      await prompt.waitFor({ state: "detached" });
      expect(log.errors).toEqual([]);
      await context.close();
    } finally {
      await strict.close();
    }
  });

  it("controls hide 3 s after the last mouse movement while playing, come back on movement, hide on leave", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    const box = (await page.locator(".player").boundingBox())!;
    const controls = () => page.getAttribute(".player", "data-controls");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(2000);
    expect(await controls()).toBe("shown");
    await page.waitForFunction(() => document.querySelector(".player")?.getAttribute("data-controls") === "hidden", undefined, { timeout: 3000 });
    await page.waitForFunction(() => getComputedStyle(document.querySelector(".player-controls")!).opacity === "0");
    await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
    expect(await controls()).toBe("shown");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height + 200); // leaves the player
    expect(await controls()).toBe("hidden");
    // Paused, they stay.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await media(page, (v) => v.pause());
    await page.waitForTimeout(3500);
    expect(await controls()).toBe("shown");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("keyboard: Space/K play-pause, ←/→ 10 s, ↑/↓ volume, M mute, F fullscreen; never while typing", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    await page.click("h1");
    const paused = () => media(page, (v) => v.paused);

    await page.keyboard.press("Space");
    expect(await paused()).toBe(true);
    await page.locator('.player button[aria-label="播放"]').waitFor({ state: "attached" });
    await page.keyboard.press("Space");
    await page.waitForFunction((sel) => !document.querySelector<HTMLVideoElement>(sel)?.paused, PLAYER);
    await page.keyboard.press("k");
    expect(await paused()).toBe(true);
    await page.keyboard.press("K");
    await page.waitForFunction((sel) => !document.querySelector<HTMLVideoElement>(sel)?.paused, PLAYER);
    await page.keyboard.press("k");

    // The local clips last 12 s (docs/media-pipeline.md): 1 → 11 → 1 → 0.
    await media(page, (v) => (v.currentTime = 1));
    await page.keyboard.press("ArrowRight");
    expect(await media(page, (v) => v.currentTime)).toBeCloseTo(11, 1);
    await page.keyboard.press("ArrowLeft");
    expect(await media(page, (v) => v.currentTime)).toBeCloseTo(1, 1);
    await page.keyboard.press("ArrowLeft");
    expect(await media(page, (v) => v.currentTime)).toBe(0);

    const scroll = await page.evaluate(() => window.scrollY);
    await page.keyboard.press("ArrowDown");
    expect(await media(page, (v) => v.volume)).toBeCloseTo(0.7, 5);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await media(page, (v) => v.volume)).toBeCloseTo(0.9, 5);
    expect(await page.evaluate(() => window.scrollY)).toBe(scroll);

    await page.keyboard.press("m");
    expect(await media(page, (v) => v.muted)).toBe(true);
    await page.locator('.player button[aria-label="取消静音"]').waitFor({ state: "attached" });
    await page.keyboard.press("M");
    expect(await media(page, (v) => v.muted)).toBe(false);

    await page.keyboard.press("f");
    await page.waitForFunction(() => document.fullscreenElement?.classList.contains("player") === true);
    await page.locator('.player button[aria-label="退出全屏"]').waitFor({ state: "attached" });
    await page.keyboard.press("F");
    await page.waitForFunction(() => document.fullscreenElement === null);
    await page.locator('.player button[aria-label="全屏"]').waitFor({ state: "attached" });

    // Typing in the search box is not a shortcut.
    const search = page.locator('input[type="search"], .search-input').first();
    await search.click();
    await page.keyboard.type("km f");
    expect(await paused()).toBe(true);
    expect(await media(page, (v) => v.muted)).toBe(false);
    expect(await search.inputValue()).toBe("km f");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("the sliders work by keyboard", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    await media(page, (v) => {
      v.pause();
      v.currentTime = 10;
    });
    const progress = page.locator('input[aria-label="播放进度"]');
    // The slider shows the new position once the player has seen the seek (its `seeking` event).
    await expect.poll(async () => Math.abs(Number(await progress.inputValue()) - 10)).toBeLessThan(0.05);
    await progress.focus();
    await page.keyboard.press("ArrowRight");
    const duration = await media(page, (v) => v.duration);
    expect(await media(page, (v) => v.currentTime)).toBeGreaterThan(10);
    expect(await media(page, (v) => v.currentTime)).toBeLessThanOrEqual(10 + duration * 0.01 + 0.01);
    const volume = page.locator('input[aria-label="音量"]');
    await volume.focus();
    await page.keyboard.press("ArrowLeft");
    expect(await media(page, (v) => v.volume)).toBeCloseTo(0.7, 5);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("restart seeks to 0 and plays", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    await media(page, (v) => {
      v.currentTime = 12;
      v.pause();
    });
    await page.click('.player button[aria-label="重新播放"]');
    await page.waitForFunction((sel) => {
      const v = document.querySelector<HTMLVideoElement>(sel);
      return !!v && !v.paused && v.currentTime < 3;
    }, PLAYER);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("speed menu; volume, mute and speed are remembered across videos and reloads", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    await page.click('.player button[aria-label^="倍速"]');
    const options = await page.$$eval(".player-speed .player-menu-list button", (bs) => bs.map((b) => b.textContent));
    expect(options).toEqual(["0.5×", "0.75×", "1×", "1.25×", "1.5×", "2×"]);
    await page.click(".player-speed .player-menu-list button:has-text('1.5×')");
    expect(await media(page, (v) => v.playbackRate)).toBe(1.5);
    await page.locator('.player button[aria-label^="倍速"]', { hasText: "1.5×" }).waitFor();
    await page.click("h1");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("m");

    // Another video, reached by a client-side link.
    await page.click(".video-sidebar .video-card a");
    await page.waitForURL((url) => url.pathname !== `/video/${VIDEO}`);
    await page.waitForFunction((sel) => (document.querySelector<HTMLVideoElement>(sel)?.currentTime ?? 0) > 0.2, PLAYER);
    expect(await media(page, (v) => ({ rate: v.playbackRate, volume: Math.round(v.volume * 10) / 10, muted: v.muted }))).toEqual({
      rate: 1.5,
      volume: 0.6,
      muted: true,
    });
    expect(await page.locator(".player-unmute").count()).toBe(0); // muted by choice: no prompt

    await page.reload();
    await waitForHydration(page);
    await page.waitForFunction((sel) => (document.querySelector<HTMLVideoElement>(sel)?.currentTime ?? 0) > 0.2, PLAYER);
    expect(await media(page, (v) => ({ rate: v.playbackRate, volume: Math.round(v.volume * 10) / 10, muted: v.muted }))).toEqual({
      rate: 1.5,
      volume: 0.6,
      muted: true,
    });
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("when a video ends, another video's page opens and plays", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    await media(page, (v) => (v.currentTime = v.duration - 0.5));
    await page.waitForURL((url) => url.pathname !== `/video/${VIDEO}`, { timeout: 10_000 });
    const next = pathname(page).replace("/video/", "");
    expect(next).toMatch(/^video_\d{3}$/);
    await waitPlaying(page, 0.3);
    expect(await page.textContent("h1")).toBe(video(next).title);
    expect(await page.getAttribute(`${PLAYER} source`, "src")).toBe(`/stream/${mediaNumberOf(video(next).videoFile)}/master.m3u8`);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("a title whose stream and MP4 are both missing logs the error and plays another video", async () => {
    const context = await browser().newContext();
    await context.route(/\/stream\/1\/|\/1\.mp4$/, (route) => route.fulfill({ status: 404, body: "" }));
    const { page, log } = await newPage(context);
    await page.goto(baseURL() + `/video/${VIDEO}`);
    await page.waitForURL((url) => url.pathname !== `/video/${VIDEO}`, { timeout: 15_000 });
    await waitPlaying(page, 0.3);
    expect(log.errors.some((e) => e.includes("视频播放失败") && e.includes("/1.mp4"))).toBe(true);
    // Only the deliberate failure was logged.
    expect(log.errors.filter((e) => !e.includes("/1.mp4") && !/404|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });

  it("after three failures in a row it stops with a message and 重试, which plays again", async () => {
    const context = await browser().newContext();
    let broken = true;
    await context.route(/\/\d+\.mp4$|\/stream\/\d+\//, (route) => (broken ? route.fulfill({ status: 404, body: "" }) : route.fallback()));
    const { page, log } = await newPage(context);
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto(baseURL() + `/video/${VIDEO}`);
    const alert = page.getByRole("alert").filter({ hasText: "视频加载失败，请稍后重试" });
    await alert.waitFor({ state: "visible", timeout: 20_000 });
    const retry = page.getByRole("button", { name: "重试" });
    expect(await retry.isVisible()).toBe(true);
    // Three different pages failed; it does not go on.
    const failures = log.errors.filter((e) => e.includes("视频播放失败"));
    expect(failures).toHaveLength(3);
    const here = pathname(page);
    await page.waitForTimeout(1500);
    expect(pathname(page)).toBe(here);
    expect(log.errors.filter((e) => e.includes("视频播放失败"))).toHaveLength(3);

    broken = false;
    await retry.click();
    await waitPlaying(page, 0.3);
    expect(await alert.count()).toBe(0);
    expect(pathname(page)).toBe(here);
    expect(log.errors.filter((e) => !e.includes("视频播放失败") && !/404|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });
});
