import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserForFile, open, pathname, waitForHydration } from "./browser";
import { STALL_SWITCH_MS } from "../../shared/playback/lines";
import { MAX_SEEK_LEAD } from "../../shared/watch/protocol";
import { newVisitor } from "./visitors";
import { isPaused, joinAs, membersOf, panel, roomOf, roomOfTwo, synced, timeOf, video } from "./watch-room";

/**
 * A 一起看 member never leaves the room by itself (issue 33): a member whose 线路 all fail stays
 * on the room's page with the player's error overlay, and 重试 brings it back where the room is;
 * at a film's end everyone stays on its page; at a series episode's end a guest's 自动连播 does not
 * move anyone, the host's takes the whole room to the next episode, and only the host's player counts
 * down 即将播放下一集 at the outro. Two browser contexts as two
 * people; the local clips last 12 s, so the room is paused before the checks that take time.
 */

const browser = browserForFile();
const FILM = "video_002";
const SERIES = "video_003";
/** 晨光律所: episodes 2 and 3 (6 s) mark an outro at 4–6 s (tests/e2e/intro-outro.test.ts). */
const OUTRO_SERIES = "video_019";

const ended = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.ended);
const durationOf = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.duration);

/** The main frame's paths as the page moved (same-document navigations included). */
function pathsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.push(new URL(frame.url()).pathname);
  });
  return seen;
}

/** The host seeks the paused room to `target` (s); it and `others` stand there, paused. */
async function seekPausedRoom(host: Page, target: number, ...others: Page[]): Promise<void> {
  await video(host).evaluate((v: HTMLVideoElement, to: number) => {
    v.currentTime = to;
  }, target);
  for (const page of [host, ...others])
    await expect.poll(async () => (await isPaused(page)) && Math.abs((await timeOf(page)) - target) < 0.3, { timeout: 10_000 }).toBe(true);
}

/** The room's last second and a half, played: both players reach the end. */
async function playToTheEnd(host: Page, guest: Page): Promise<void> {
  await seekPausedRoom(host, (await durationOf(host)) - 1.5, guest);
  await video(host).evaluate((v: HTMLVideoElement) => v.play());
  for (const page of [host, guest]) await expect.poll(() => ended(page), { timeout: 15_000 }).toBe(true);
}

/**
 * After the end, a round trip through the room: the host seeks back to 1 s, the guest follows (on
 * whatever page it is), and the host pauses again. The room still plays (the end paused no one's
 * room), so both play on from 1 s: the host pauses once its player plays — a pause() before that
 * is no pause at all, and the room would play on.
 */
async function backToTheStart(host: Page, guest: Page): Promise<void> {
  await video(host).evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
  });
  // A member aims a seek into media it does not hold ahead by its seek time (MAX_SEEK_LEAD at most, shared/watch/protocol.ts).
  for (const page of [guest, host])
    await expect.poll(async () => !(await ended(page)) && (await timeOf(page)) < 1 + MAX_SEEK_LEAD + 1.5, { timeout: 10_000 }).toBe(true);
  await expect.poll(async () => !(await isPaused(host)), { timeout: 10_000 }).toBe(true);
  await video(host).evaluate((v: HTMLVideoElement) => v.pause());
  await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(true);
}

/** A guest's browser that estimates its link at 0.6 Mbit/s (as Chromium's network-quality estimator would say): its page plays HLS natively, not with hls.js. */
const slowLink = (context: BrowserContext) =>
  context.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "connection", {
      get: () => ({ downlink: 0.6, saveData: false, effectiveType: "3g", addEventListener() {}, removeEventListener() {} }),
    });
  });

describe("一起看: a member stays in the room", () => {
  it("a page opened with the link of a room that has closed says so and plays from its own start, without waiting for the room", async () => {
    const context = await newVisitor(browser());
    await slowLink(context);
    // The nickname remembered from an earlier visit: the page joins by itself.
    await context.addInitScript(() => localStorage.setItem("yingshi-watch-nickname", "路人庚"));
    const { page } = await open(context, `/video/${FILM}?room=zzzzzzzz`);
    await expect.poll(() => panel(page).getByRole("alert").textContent(), { timeout: 15_000 }).toContain("房间不存在或已关闭");
    expect(await page.getAttribute(".player", "data-engine")).toBe("native");
    // Out of the room: the page's URL no longer names it, and the video plays the master playlist from the start.
    expect(roomOf(page)).toBeNull();
    await expect
      .poll(() => video(page).evaluate((v: HTMLVideoElement) => new URL(v.currentSrc || location.href).pathname), { timeout: 10_000 })
      .toMatch(/\/stream\/\d+\/master\.m3u8$/);
    await expect.poll(async () => !(await isPaused(page)) && (await timeOf(page)) > 0.5, { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it("a guest on the browser's own HLS who takes a while to type a nickname still loads once, on its own 线路, where the room is", async () => {
    const mediaLoads: string[] = [];
    // The title with a second 线路 (the same stream under /mirror/: tests/e2e/lines-subtitles.test.ts).
    const { host, guest, close } = await roomOfTwo(browser(), "/video/video_001", {
      guest: (context) => {
        context.on("request", (request) => {
          if (request.resourceType() === "media") mediaLoads.push(new URL(request.url()).pathname);
        });
        return slowLink(context);
      },
    });
    await seekPausedRoom(host, 4);
    await waitForHydration(guest);
    // Longer than a stall that leaves a 线路 (STALL_SWITCH_MS): the page has nothing to load yet, which is no line's stall.
    await guest.waitForTimeout(STALL_SWITCH_MS + 1000);
    expect(mediaLoads).toEqual([]);
    await joinAs(guest, "路人辛");
    await expect.poll(async () => Math.abs((await timeOf(guest)) - 4), { timeout: 10_000 }).toBeLessThan(0.3);
    expect(mediaLoads[0]).toMatch(/^\/stream\/\d+\/\d+p\.m3u8$/);
    expect(mediaLoads.filter((path) => path.startsWith("/mirror/") || path.endsWith("/master.m3u8"))).toEqual([]);
    await close();
  });

  it("a member whose 线路 all fail keeps the room's page with the error overlay; 重试 brings it to the room's position", async () => {
    let broken = true;
    const { host, guest, code, close } = await roomOfTwo(browser(), `/video/${FILM}`, {
      // Every media file of the guest (the stream, its mirror, the MP4) answers 404: the title cannot play for this member.
      guest: (context) => context.route(/\/\d+\.mp4$|\/stream\/\d+\//, (route) => (broken ? route.fulfill({ status: 404, body: "" }) : route.fallback())),
    });
    const visited = pathsOf(guest);
    const failure = guest.getByRole("alert").filter({ hasText: "视频加载失败，请稍后重试" });
    await failure.waitFor({ state: "visible", timeout: 20_000 });
    await joinAs(guest, "路人乙", false);
    await expect.poll(() => membersOf(host)).toEqual(["房主房主（我）", "路人乙"]);
    await expect.poll(() => membersOf(guest)).toEqual(["房主房主", "路人乙（我）"]);
    // Still the room's page, with the overlay: the player did not move on to another title.
    expect(pathname(guest)).toBe(`/video/${FILM}`);
    expect(roomOf(guest)).toBe(code);
    expect(await failure.isVisible()).toBe(true);
    expect(visited.every((p) => p === `/video/${FILM}`)).toBe(true);

    // The room waits at a moment of its own; the media comes back and the guest's 重试 lands there.
    const at = (await timeOf(host)) < 4.5 ? 7 : 2;
    await seekPausedRoom(host, at);
    broken = false;
    await guest.getByRole("button", { name: "重试" }).click();
    await synced(guest);
    await expect.poll(() => failure.count()).toBe(0);
    await expect.poll(async () => (await isPaused(guest)) && Math.abs((await timeOf(guest)) - at) < 0.3, { timeout: 10_000 }).toBe(true);
    // The retry did not move the room: the host stands where it paused.
    expect(await isPaused(host)).toBe(true);
    expect(Math.abs((await timeOf(host)) - at)).toBeLessThan(0.3);
    expect(pathname(guest)).toBe(`/video/${FILM}`);
    expect(roomOf(guest)).toBe(code);
    await close();
  });

  it("at a film's end both members stay on its page, in the room", async () => {
    const { host, guest, code, close } = await roomOfTwo(browser(), `/video/${FILM}`);
    await joinAs(guest, "路人丙");
    const visited = [pathsOf(host), pathsOf(guest)];
    // 自动连播 is on (the default) for both.
    await playToTheEnd(host, guest);
    // The HTML standard has an ended player at HAVE_CURRENT_DATA (no more data in the direction of
    // playback); Chromium says HAVE_ENOUGH_DATA in our runs, but the sync must not count on it: the guest's says the former.
    await video(guest).evaluate((v: HTMLVideoElement) => {
      const own = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, "readyState");
      Object.defineProperty(v, "readyState", {
        configurable: true,
        get(this: HTMLVideoElement) {
          return this.ended ? HTMLMediaElement.HAVE_CURRENT_DATA : (own?.get?.call(this) as number);
        },
      });
    });
    // After a round trip through the room both are still on the film's page, in the room.
    await backToTheStart(host, guest);
    for (const page of [host, guest]) {
      expect(pathname(page)).toBe(`/video/${FILM}`);
      expect(roomOf(page)).toBe(code);
    }
    expect(visited.flat().every((p) => p === `/video/${FILM}`)).toBe(true);
    expect(await membersOf(host)).toEqual(["房主房主（我）", "路人丙"]);
    await close();
  });

  it("at a series episode's end a guest's 自动连播 moves nobody; the host's takes the whole room to the next episode", async () => {
    const { host, guest, code, close } = await roomOfTwo(browser(), `/video/${SERIES}/1`);
    await joinAs(guest, "路人丁");
    const guestPaths = pathsOf(guest);
    // The host turns 自动连播 off; the guest keeps it on (the default). Both reach the end of episode 1.
    await host.getByLabel("自动连播").uncheck();
    await playToTheEnd(host, guest);
    // After a round trip through the room both are still on episode 1: the guest's end moved nothing.
    await backToTheStart(host, guest);
    for (const page of [host, guest]) {
      expect(pathname(page)).toBe(`/video/${SERIES}/1`);
      expect(roomOf(page)).toBe(code);
    }
    expect(guestPaths.every((p) => p === `/video/${SERIES}/1`)).toBe(true);

    // With the host's 自动连播 on, the end of episode 1 takes both to episode 2, still in the room.
    await host.getByLabel("自动连播").check();
    await seekPausedRoom(host, (await durationOf(host)) - 1.5, guest);
    await video(host).evaluate((v: HTMLVideoElement) => v.play());
    for (const page of [host, guest]) await expect.poll(() => pathname(page), { timeout: 20_000 }).toBe(`/video/${SERIES}/2`);
    for (const page of [host, guest]) {
      expect(roomOf(page)).toBe(code);
      await synced(page);
    }
    expect(await membersOf(host)).toEqual(["房主房主（我）", "路人丁"]);
    await close();
  });

  it("at an outro only the host's player counts down 即将播放下一集; its end takes the whole room to the next episode", async () => {
    // The guest's page records whether the countdown ever showed on it, whatever page it is on.
    const { host, guest, code, close } = await roomOfTwo(browser(), `/video/${OUTRO_SERIES}/2`, {
      guest: (context) =>
        context.addInitScript(() => {
          const seen = () => {
            if (document.querySelector(".player-next")) (window as unknown as { __countdown: boolean }).__countdown = true;
          };
          new MutationObserver(seen).observe(document, { childList: true, subtree: true });
        }),
    });
    await joinAs(guest, "路人戊");
    await seekPausedRoom(host, 3.5, guest);
    await video(host).evaluate((v: HTMLVideoElement) => v.play());
    // Both play into the outro (4–6 s); the host's player counts down, the guest's does not.
    await host
      .getByRole("status")
      .filter({ hasText: /即将播放下一集 \d/ })
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => timeOf(guest), { timeout: 10_000 }).toBeGreaterThan(4.5);
    // The host's countdown reaches 0 and the room moves on: both on episode 3, still in the room.
    for (const page of [host, guest]) await expect.poll(() => pathname(page), { timeout: 20_000 }).toBe(`/video/${OUTRO_SERIES}/3`);
    for (const page of [host, guest]) expect(roomOf(page)).toBe(code);
    expect(await guest.evaluate(() => (window as unknown as { __countdown?: boolean }).__countdown ?? false)).toBe(false);
    await close();
  });

  it("a member on the browser's own HLS and a slow link plays the rendition that fits it in the room, through an episode change, and 自动 again after 离开", async () => {
    // What the guest's <video> itself loaded (the player's own read of the ladder is a fetch, not the element's).
    const mediaLoads: string[] = [];
    const { host, guest, close } = await roomOfTwo(browser(), `/video/${SERIES}`, {
      guest: (context) => {
        context.on("request", (request) => {
          if (request.resourceType() === "media") mediaLoads.push(new URL(request.url()).pathname);
        });
        return slowLink(context);
      },
    });
    const source = () => video(guest).evaluate((v: HTMLVideoElement) => new URL(v.currentSrc).pathname);
    /** The rendition of the episode playing whose peak fits 0.7 of 0.6 Mbit/s (420 kbit/s), by the ladder of its master playlist; the ladder must have one above it. */
    const fitting = async () => {
      const master = await (await guest.request.get(new URL("master.m3u8", new URL(await source(), guest.url())).href)).text();
      const peaks = [...master.matchAll(/BANDWIDTH=(\d+),.*RESOLUTION=\d+x(\d+)/g)].map(([, rate, height]) => ({ rate: Number(rate), height: Number(height) }));
      expect(peaks.some((p) => p.rate > 420_000)).toBe(true);
      return Math.max(...peaks.filter((p) => p.rate <= 420_000).map((p) => p.height));
    };
    await joinAs(guest, "路人己");
    expect(await guest.getAttribute(".player", "data-engine")).toBe("native");
    // Episode 1's ladder peaks at about 270P 0.22, 360P 0.39, 720P 0.77 Mbit/s: 360P.
    expect(await fitting()).toBe(360);
    await expect.poll(source, { timeout: 10_000 }).toMatch(/\/stream\/\d+\/360p\.m3u8$/);
    // Opened in the room, the page waited for it: the first thing its video loaded is that rendition, at the room's position (never the master playlist from 0:00 first).
    console.log(mediaLoads.join(" "));
    expect(mediaLoads[0]).toMatch(/\/stream\/\d+\/360p\.m3u8$/);
    expect(mediaLoads.filter((path) => path.endsWith("/master.m3u8"))).toEqual([]);
    const first = (await source()).split("/")[2];
    // Still in step with the room after the switch: the host seeks, the guest follows there — over
    // half a second away (a seek closer to the room is no viewer's: USER_SEEK in sync.ts).
    const at = Math.ceil((await timeOf(host)) + 0.6);
    await seekPausedRoom(host, at, guest);
    // The room plays on into episode 2: the guest's new page plays it, on the rendition of its own ladder that fits.
    await video(host).evaluate((v: HTMLVideoElement) => v.play());
    await expect.poll(async () => !(await isPaused(guest)) && (await timeOf(guest)) > at + 0.5, { timeout: 10_000 }).toBe(true);
    await host.locator(`.episodes-grid a[href="/video/${SERIES}/2"]`).click();
    await expect.poll(() => pathname(guest), { timeout: 15_000 }).toBe(`/video/${SERIES}/2`);
    await expect.poll(async () => (await source()).split("/")[2], { timeout: 15_000 }).not.toBe(first);
    await expect.poll(source, { timeout: 10_000 }).toMatch(new RegExp(`/stream/\\d+/${await fitting()}p\\.m3u8$`));
    await expect.poll(async () => !(await isPaused(guest)) && (await timeOf(guest)) > 1.5, { timeout: 15_000 }).toBe(true);
    await synced(guest);
    // Out of the room, 自动 is the browser's own choice again: the master playlist, from where the guest stood.
    await video(host).evaluate((v: HTMLVideoElement) => v.pause());
    await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(true);
    const stood = await timeOf(guest);
    await panel(guest).getByRole("button", { name: "离开" }).click();
    await expect.poll(source, { timeout: 10_000 }).toMatch(/\/stream\/\d+\/master\.m3u8$/);
    await expect.poll(async () => Math.abs((await timeOf(guest)) - stood), { timeout: 10_000 }).toBeLessThan(0.5);
    await close();
  });
});
