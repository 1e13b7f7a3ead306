import { describe, expect, it } from "vitest";
import { formatTime } from "../../shared/format";
import { levelLabel } from "../../shared/playback/quality";
import { START_RENDITION_HEIGHT } from "../../shared/stream/contract";
import { parseStoryboardVtt, storyboardCueAt } from "../../shared/stream/storyboard";
import {
  DESKTOP,
  PHONE,
  PLAYER,
  baseURL,
  browserForFile,
  media,
  open,
  screenshot,
  waitForHydration,
  waitPlaying,
  N,
  PAGE,
  master,
  recordSegments,
} from "./browser";

/**
 * The player's controls over a stream (docs/streaming.md): the 清晰度 menu, seek previews, 字幕 and
 * touch gestures — in Chromium against `wrangler dev` with the packed placeholder media.
 */

const browser = browserForFile();

describe("清晰度 menu", () => {
  for (const engine of ["native", "hlsjs"] as const) {
    it(`${engine}: lists the renditions (highest first, then 自动(…)), switches keeping the position, and remembers the choice`, async () => {
      const ladder = (await master()).variants.map((v) => v.height).sort((a, b) => b - a);
      expect(ladder.length).toBeGreaterThanOrEqual(3);
      const context = await browser().newContext({ viewport: DESKTOP });
      const { page, log } = await open(context, `${PAGE}?engine=${engine}`);
      const segments = recordSegments(page);
      await waitPlaying(page, 1);
      const quality = page.locator(".player-quality .player-menu-button");
      await expect.poll(() => quality.getAttribute("aria-label")).toMatch(/^清晰度：自动\(\d+P\)$/);
      await quality.click();
      const items = await page.$$eval(".player-quality .player-menu-list button", (bs) => bs.map((b) => b.textContent ?? ""));
      expect(items.slice(0, -1).map((t) => Number.parseInt(t, 10))).toEqual(ladder);
      expect(items[0]).toMatch(/^\d+P (高清|清晰|流畅|极速|标清)$/);
      expect(items.at(-1)).toMatch(/^自动\(\d+P\)$/);
      expect(await page.getAttribute(".player-quality .player-menu-list button:last-child", "aria-pressed")).toBe("true");

      /**
       * Chooses `height` in the menu: the picture changes from the height playing before to the
       * chosen one, from where it was, and the chosen rendition's segments are asked for.
       */
      const choose = async (height: number) => {
        const before = await media(page, (v) => v.videoHeight);
        expect(before, `already playing ${height}p: choosing it would prove no switch`).not.toBe(height);
        await media(page, (v) => (v.currentTime = 3));
        const since = segments.length;
        if (!(await page.locator(".player-quality .player-menu-list").isVisible())) await quality.click();
        await page.click(`.player-quality .player-menu-list button:has-text('${height}P')`);
        await expect.poll(() => quality.textContent()).toBe(`${height}P`);
        // Plays on from where it was, now in the chosen rendition.
        await page.waitForFunction(
          ({ sel, height }) => {
            const v = document.querySelector<HTMLVideoElement>(sel);
            return !!v && !v.paused && v.videoHeight === height && v.currentTime >= 2.5;
          },
          { sel: PLAYER, height },
          { timeout: 20_000 },
        );
        if (engine === "native") expect(await media(page, (v) => new URL(v.currentSrc).pathname)).toBe(`/stream/${N}/${height}p.m3u8`);
        expect(segments.slice(since).some((p) => p.includes(`/${height}p-`))).toBe(true);
      };
      // Never the start rung (START_RENDITION_HEIGHT, where 自动 begins): showing it proves no switch.
      // Two rungs, each other than the one playing: whatever height 自动 has climbed to, one of the
      // two steps goes down, which 自动 on a fast local link never does by itself.
      const rungs = ladder.filter((h) => h !== START_RENDITION_HEIGHT);
      const playing = await media(page, (v) => v.videoHeight);
      const first = rungs.find((h) => h !== playing) as number;
      const second = rungs.find((h) => h !== first) as number;
      await choose(first);
      await choose(second);

      segments.length = 0;
      await page.reload();
      await waitForHydration(page);
      await waitPlaying(page, 0.5);
      await expect.poll(() => quality.getAttribute("aria-label")).toBe(`清晰度：${levelLabel(second)}`);
      await page.waitForFunction(
        ({ sel, height }) => document.querySelector<HTMLVideoElement>(sel)?.videoHeight === height,
        { sel: PLAYER, height: second },
        { timeout: 15_000 },
      );
      // hls.js loads the remembered rendition from the first segment, not the start rung first.
      if (engine === "hlsjs") {
        expect(segments.length).toBeGreaterThan(0);
        expect(segments.filter((p) => !p.includes(`/${second}p-`))).toEqual([]);
      }

      // Back to automatic.
      await quality.click();
      await page.click(".player-quality .player-menu-list button:last-child");
      await expect.poll(() => quality.textContent()).toBe("自动");
      expect(log.errors).toEqual([]);
      await context.close();
    });
  }
});

describe("清晰度 while paused", () => {
  it("native: a paused video stays paused through a switch of rendition (a new source does not start it again)", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    const { page, log } = await open(context, `${PAGE}?engine=native`);
    await waitPlaying(page, 1);
    const at = await media(page, (v) => {
      v.pause();
      return v.currentTime;
    });
    const playing = await media(page, (v) => v.videoHeight);
    const height = (await master()).variants.map((v) => v.height).find((h) => h !== playing && h !== START_RENDITION_HEIGHT) as number;
    await page.locator(".player-quality .player-menu-button").click();
    await page.click(`.player-quality .player-menu-list button:has-text('${height}P')`);
    // The chosen rendition loaded to the end of what the element wants before playing (where the
    // <video autoplay> would have started it by itself), and it stands paused where it was.
    await page.waitForFunction(
      ({ sel, path }) => {
        const v = document.querySelector<HTMLVideoElement>(sel);
        return !!v && new URL(v.currentSrc).pathname === path && v.readyState === HTMLMediaElement.HAVE_ENOUGH_DATA;
      },
      { sel: PLAYER, path: `/stream/${N}/${height}p.m3u8` },
      { timeout: 20_000 },
    );
    expect(await media(page, (v) => v.paused)).toBe(true);
    expect(await media(page, (v) => v.currentTime)).toBeCloseTo(at, 0);
    expect(log.errors).toEqual([]);
    await context.close();
  });
});

describe("seek preview", () => {
  it("hovering the progress bar shows the storyboard tile and time of the hovered point", async () => {
    const cues = parseStoryboardVtt(await (await fetch(`${baseURL()}/stream/${N}/storyboard.vtt`)).text());
    expect(cues.length).toBeGreaterThan(1);
    const context = await browser().newContext({ viewport: DESKTOP });
    const { page, log } = await open(context, PAGE);
    await waitPlaying(page, 0.3);
    const bar = (await page.locator(".player-seek").boundingBox())!;
    const duration = await media(page, (v) => v.duration);
    const y = bar.y + bar.height / 2;
    for (const fraction of [0.25, 0.7]) {
      await page.mouse.move(bar.x + bar.width * fraction, y);
      await page.mouse.move(bar.x + bar.width * fraction + 1, y);
      const t = ((bar.width * fraction + 1) / bar.width) * duration;
      const cue = storyboardCueAt(cues, t)!;
      const image = page.locator(".player-preview-image");
      await image.waitFor({ state: "visible" });
      await expect.poll(() => page.textContent(".player-preview-time")).toBe(formatTime(t));
      const style = await image.evaluate((el) => ({
        bg: getComputedStyle(el).backgroundImage,
        pos: getComputedStyle(el).backgroundPosition,
        w: el.clientWidth,
      }));
      expect(style.bg).toContain(`/stream/${N}/${cue.url}`);
      expect(style.pos).toBe(`${-cue.x}px ${-cue.y}px`.replace(/^-0px/, "0px").replace(/ -0px$/, " 0px"));
      // The sprite sheet is really served.
      const sheet = await fetch(`${baseURL()}/stream/${N}/${cue.url}`);
      expect(sheet.status).toBe(200);
      expect(sheet.headers.get("content-type")).toBe("image/jpeg");
    }
    await page.mouse.move(bar.x + bar.width / 2, bar.y - 300);
    await page.locator(".player-preview").waitFor({ state: "detached" });
    expect(log.errors).toEqual([]);
    await context.close();
  });
});

describe("字幕", () => {
  it("the menu shows the zh-CN subtitles readable on a phone, is remembered across a reload, and C turns them off", async () => {
    const context = await browser().newContext({ viewport: PHONE, deviceScaleFactor: 1 });
    const { page, log } = await open(context, PAGE);
    await waitPlaying(page, 0.3);
    const menu = page.locator(".player-subtitles .player-menu-button");
    expect(await menu.getAttribute("aria-label")).toBe("字幕：关闭");
    await menu.click();
    await page.click(".player-subtitles .player-menu-list button:has-text('简体中文')");
    expect(await menu.getAttribute("aria-label")).toBe("字幕：简体中文");
    const line = page.locator(".player-subtitle span").first();
    await line.waitFor({ state: "visible", timeout: 15_000 });
    expect((await line.textContent())?.trim().length).toBeGreaterThan(0);
    // Readable on a phone: at least 15 px text, inside the player.
    const size = await line.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(15);
    await media(page, (v) => v.pause());
    await screenshot(page, "player-subtitles-phone");

    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => menu.getAttribute("aria-label")).toBe("字幕：简体中文");
    await page.locator(".player-subtitle span").first().waitFor({ state: "visible", timeout: 15_000 });
    await page.keyboard.press("c");
    expect(await menu.getAttribute("aria-label")).toBe("字幕：关闭");
    await page.locator(".player-subtitle").waitFor({ state: "detached" });
    expect(log.errors).toEqual([]);
    await context.close();
  });
});

describe("touch gestures (phone emulation)", () => {
  async function phone() {
    const context = await browser().newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const { page, log } = await open(context, PAGE);
    await waitPlaying(page, 0.3);
    const box = (await page.locator(PLAYER).boundingBox())!;
    return { context, page, log, box };
  }

  it("double tap on the right third seeks +10 s, on the left third −10 s, with a hint", async () => {
    const { context, page, log, box } = await phone();
    await media(page, (v) => {
      v.pause();
      v.currentTime = 1; // the local clips last 12 s: 1 → 11 → 1
    });
    const y = box.y + box.height / 2;
    // Two taps sent back to back (a busy test machine must not stretch them past the double-tap window).
    const cdp = await context.newCDPSession(page);
    const doubleTap = (x: number) =>
      Promise.all(
        [0, 1].flatMap(() => [
          cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] }),
          cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] }),
        ]),
      );
    await doubleTap(box.x + box.width * 0.85);
    await page.getByRole("status").filter({ hasText: "快进 10 秒" }).waitFor({ state: "visible" });
    await expect.poll(() => media(page, (v) => Math.round(v.currentTime))).toBe(11);
    await page.waitForTimeout(400); // past the double-tap window: the next taps are a new pair
    await doubleTap(box.x + box.width * 0.15);
    await page.getByRole("status").filter({ hasText: "快退 10 秒" }).waitFor({ state: "visible" });
    await expect.poll(() => media(page, (v) => Math.round(v.currentTime))).toBe(1);
    // A double tap is not a play/pause: it stayed paused.
    expect(await media(page, (v) => v.paused)).toBe(true);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("a long press plays at 2× while held (倍速播放中), then the chosen speed comes back", async () => {
    const { context, page, log, box } = await phone();
    const cdp = await context.newCDPSession(page);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
    await page.getByRole("status").filter({ hasText: "2× 倍速播放中" }).waitFor({ state: "visible" });
    expect(await media(page, (v) => v.playbackRate)).toBe(2);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await expect.poll(() => media(page, (v) => v.playbackRate)).toBe(1);
    await page.getByRole("status").filter({ hasText: "倍速播放中" }).waitFor({ state: "detached" });
    expect(await media(page, (v) => v.paused)).toBe(false); // the press did not pause it
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("every control fits a 360 px phone with 44 px touch targets", async () => {
    const { context, page, log } = await phone();
    await media(page, (v) => v.pause());
    const buttons = await page.$$eval(".player-bar button", (bs) =>
      bs
        .filter((b) => b.getClientRects().length > 0)
        .map((b) => ({ name: b.getAttribute("aria-label") ?? "", w: b.clientWidth, h: b.clientHeight, right: b.getBoundingClientRect().right })),
    );
    const names = buttons.map((b) => b.name);
    expect(names.some((n) => n === "暂停" || n === "播放")).toBe(true);
    expect(names.some((n) => n.startsWith("清晰度"))).toBe(true);
    expect(names.some((n) => n.startsWith("字幕："))).toBe(true);
    expect(names.some((n) => n.startsWith("线路："))).toBe(true);
    expect(names).toContain("全屏");
    for (const b of buttons) {
      expect(b.w, b.name).toBeGreaterThanOrEqual(44);
      expect(b.h, b.name).toBeGreaterThanOrEqual(44);
      expect(b.right, b.name).toBeLessThanOrEqual(360);
    }
    await screenshot(page, "player-controls-360");
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
