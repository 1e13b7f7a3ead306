import { describe, expect, it } from "vitest";
import { DESKTOP, PAGE, N, browserForFile, open, screenshot, waitPlaying } from "./browser";

/**
 * The storage behind the media failing for a while mid-playback (R2 answering 503, as the worker's
 * fault answers do: docs/decisions/0064-media-outage-retry.md): the player shows
 * 加载失败，点击重试, retries with back-off, and goes on at the same position once the media
 * answers again — it does not move on to another title. In Chromium against `wrangler dev`, the
 * outage played by route interception on every line's segments and the MP4.
 */

const browser = browserForFile();

describe("a media outage mid-playback", () => {
  for (const engine of ["hlsjs", "native"] as const) {
    it(`${engine}: 加载失败，点击重试 while the media answers 503, then plays on from the same position, on the same title`, async () => {
      const context = await browser().newContext({ viewport: DESKTOP });
      let down = false;
      // Every line's segments after the first three (so playback gets going first), and the MP4 fallback.
      await context.route(new RegExp(`^[^?]*/(stream/${N}/[^/]+-0000[3-9]\\.m4s|${N}\\.mp4)$`), (route) =>
        down ? route.fulfill({ status: 503, headers: { "retry-after": "1", "cache-control": "no-store" }, body: "媒体暂时无法读取" }) : route.fallback(),
      );
      down = true;
      // The furthest the video got (the element's own clock goes back to 0 when a failed source is reloaded).
      await context.addInitScript(() => {
        const w = window as unknown as { furthest: number };
        w.furthest = 0;
        document.addEventListener("timeupdate", (e) => (w.furthest = Math.max(w.furthest, (e.target as HTMLVideoElement).currentTime)), true);
      });
      const { page } = await open(context, `${PAGE}?engine=${engine}`);
      const outage = page.locator(".player-outage");
      await outage.waitFor({ state: "visible", timeout: 40_000 });
      expect(await outage.textContent()).toBe("加载失败，点击重试");
      const stoppedAt = await page.evaluate(() => (window as unknown as { furthest: number }).furthest);
      await screenshot(page, `player-media-outage-${engine}`);

      // Where playback starts again (not from the start).
      const resumedAt = page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const v = document.querySelector("video") as HTMLVideoElement;
            v.addEventListener("playing", () => resolve(v.currentTime), { once: true });
          }),
      );
      down = false; // the storage is back: the player's own retry finds it
      expect(await resumedAt).toBeGreaterThanOrEqual(stoppedAt - 0.5);
      await page.waitForFunction(
        (at) => {
          const v = document.querySelector("video");
          return !!v && !v.paused && v.currentTime > at + 1;
        },
        stoppedAt,
        { timeout: 45_000 },
      );
      await outage.waitFor({ state: "detached" });
      expect(new URL(page.url()).pathname).toBe(PAGE); // the same title: no jump to another one
      expect(await page.locator(".watch-open").count()).toBe(1); // the page around the player untouched by the retries
      // hls.js plays the first three segments, then meets the outage mid-video. Chromium's own HLS
      // does not start on a stream whose later segments fail, and reports no error: the player's
      // stall watch finds the outage by asking for the media itself.
      if (engine === "hlsjs") expect(stoppedAt).toBeGreaterThan(1);
      await context.close();
    });
  }
});

describe("the 弹幕 service down", () => {
  it("the video plays on with a quiet 弹幕暂时不可用 in the 弹幕 bar, which goes once the room answers again", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    let down = true;
    await context.route(/\/api\/danmaku\/video_001(\?.*)?$/, (route) =>
      down
        ? route.fulfill({ status: 503, headers: { "retry-after": "1" }, json: { error: { code: "unavailable", message: "服务暂时不可用，请稍后重试" } } })
        : route.fallback(),
    );
    await context.routeWebSocket(/\/api\/danmaku\/video_001\/ws/, (ws) => {
      if (down) void ws.close({ code: 1011, reason: "room unavailable" });
      else ws.connectToServer();
    });
    const { page } = await open(context, PAGE);
    const note = page.locator(".danmaku-bar .danmaku-message");
    await expect.poll(() => note.textContent(), { timeout: 20_000 }).toBe("弹幕暂时不可用，视频可照常播放");
    await waitPlaying(page, 1); // the video is not held up
    expect(await page.locator(".player-outage, .player-error").count()).toBe(0);
    down = false; // the socket's next retry (back-off up to a few seconds) is greeted by the room
    await expect.poll(() => note.textContent(), { timeout: 30_000 }).toBe("");
    await context.close();
  });
});
