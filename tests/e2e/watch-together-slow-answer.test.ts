import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserForFile } from "./browser";
import { SYNC_EVERY_MS } from "../../shared/player/watch/sync";
import { isPaused, joinAs, panel, roomOfTwo, timeOf, video } from "./watch-room";

/**
 * 一起看 when news comes late (issue 33's sync). On a slow link the room's answer to a member's own
 * seek or pause takes longer than a step of the sync (SYNC_EVERY_MS): until it comes, the member's
 * player follows what the viewer did — it neither seeks back to where the room was nor plays on
 * after a pause. On a busy page the element's `seeked` comes a while after it stopped seeking:
 * the viewer's seek is still the viewer's, sent to the room, not taken back as a gap. And where
 * the room says no (仅房主控制), the refused seek is not kept: the guest's player goes back.
 */

const browser = browserForFile();
const FILM = "video_002";
/** How late the room's messages reach the host (ms): several steps of the sync. */
const ANSWER_DELAY_MS = 3 * SYNC_EVERY_MS;

/** The room's messages to this context arrive ANSWER_DELAY_MS late while `slow()` says so (in order: every one waits as long). */
function slowAnswers(context: BrowserContext, slow: () => boolean) {
  return context.routeWebSocket(/\/api\/watch\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (slow()) setTimeout(() => ws.send(message), ANSWER_DELAY_MS);
      else ws.send(message);
    });
  });
}

/** Each `seeked` of the page's player reaches the page LATE_SEEKED_MS late while `window.__lateSeeked` is set. */
const LATE_SEEKED_MS = 2 * SYNC_EVERY_MS;
const lateSeeked = (context: BrowserContext) =>
  context.addInitScript((late: number) => {
    const held = new WeakSet<Event>();
    window.addEventListener(
      "seeked",
      (event) => {
        const target = event.target;
        if (!(window as unknown as { __lateSeeked?: boolean }).__lateSeeked || held.has(event) || !(target instanceof HTMLVideoElement)) return;
        event.stopImmediatePropagation();
        const again = new Event("seeked");
        held.add(again);
        setTimeout(() => target.dispatchEvent(again), late);
      },
      true,
    );
  }, LATE_SEEKED_MS);

/** A room on the film, paused by its host (its context set up by `setup` first), with a guest joined. */
async function pausedRoomOfTwo(setup: (host: BrowserContext) => Promise<unknown>) {
  const { host, guest, close } = await roomOfTwo(browser(), `/video/${FILM}`, { host: setup });
  await joinAs(guest, "路人慢");
  await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(true);
  return { host, guest, close };
}

/** Records the host player's seeks (their targets) and plays from now on. */
async function watchPlayer(page: Page): Promise<() => Promise<{ seeks: number[]; plays: number }>> {
  await video(page).evaluate((v: HTMLVideoElement) => {
    const seen = { seeks: [] as number[], plays: 0 };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    v.addEventListener("seeking", () => seen.seeks.push(v.currentTime));
    v.addEventListener("play", () => seen.plays++);
  });
  return () => page.evaluate(() => (window as unknown as { __seen: { seeks: number[]; plays: number } }).__seen);
}

describe("一起看: the room answers late", () => {
  it("a member's own seek and pause hold until the room's answer comes; the other member follows", async () => {
    let slow = false;
    const { host, guest, close } = await pausedRoomOfTwo((hostContext) => slowAnswers(hostContext, () => slow));

    // The host seeks the paused room; the answer comes ANSWER_DELAY_MS later.
    slow = true;
    const was = await timeOf(host);
    const target = was < 4.5 ? 7 : 2;
    const seen = await watchPlayer(host);
    await video(host).evaluate((v: HTMLVideoElement, to: number) => {
      v.currentTime = to;
    }, target);
    await expect.poll(async () => Math.abs((await timeOf(guest)) - target), { timeout: 10_000 }).toBeLessThan(0.3);
    await host.waitForTimeout(ANSWER_DELAY_MS + SYNC_EVERY_MS); // the answer has come, and a step after it
    // One seek, the viewer's: none back to where the room had been.
    expect((await seen()).seeks.map((t) => Math.round(t))).toEqual([target]);
    expect(Math.abs((await timeOf(host)) - target)).toBeLessThan(0.3);
    expect(await isPaused(host)).toBe(true);

    // The room plays (the host's play), then the host pauses: its player stays paused while the answer is on its way.
    await video(host).evaluate((v: HTMLVideoElement) => v.play());
    await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(false);
    await expect.poll(async () => (await timeOf(host)) > target + 0.3, { timeout: 10_000 }).toBe(true);
    const playsBefore = (await seen()).plays;
    await video(host).evaluate((v: HTMLVideoElement) => v.pause());
    await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(true);
    await host.waitForTimeout(ANSWER_DELAY_MS + SYNC_EVERY_MS);
    expect((await seen()).plays).toBe(playsBefore);
    expect(await isPaused(host)).toBe(true);
    await close();
  });

  it("a seek whose `seeked` comes late (a busy page) is the viewer's: sent to the room, not taken back", async () => {
    const { host, guest, close } = await pausedRoomOfTwo(lateSeeked);
    const target = (await timeOf(host)) < 4.5 ? 7 : 2;
    const seen = await watchPlayer(host);
    await host.evaluate(() => ((window as unknown as { __lateSeeked: boolean }).__lateSeeked = true));
    await video(host).evaluate((v: HTMLVideoElement, to: number) => {
      v.currentTime = to;
    }, target);
    // The guest follows: the host's seek reached the room once its `seeked` came.
    await expect.poll(async () => Math.abs((await timeOf(guest)) - target), { timeout: 10_000 }).toBeLessThan(0.3);
    expect(await isPaused(guest)).toBe(true);
    await host.waitForTimeout(LATE_SEEKED_MS + SYNC_EVERY_MS);
    expect((await seen()).seeks.map((t) => Math.round(t))).toEqual([target]);
    expect(Math.abs((await timeOf(host)) - target)).toBeLessThan(0.3);
    await close();
  });

  it("with 仅房主控制 a guest's seek is refused: the guest hears why and its player goes back to the room", async () => {
    const { host, guest, close } = await pausedRoomOfTwo(async () => {});
    // The box shows the room's setting: it is ticked once the room has it.
    const hostOnly = panel(host).getByLabel("仅房主控制");
    await hostOnly.click();
    await expect.poll(() => hostOnly.isChecked()).toBe(true);
    await expect.poll(() => panel(guest).locator(".watch-options").textContent()).toContain("仅房主可控制播放");
    const room = await timeOf(host);
    const target = room < 4.5 ? 7 : 2;
    await video(guest).evaluate((v: HTMLVideoElement, to: number) => {
      v.currentTime = to;
    }, target);
    await expect.poll(() => panel(guest).locator(".watch-status").textContent()).toBe("只有房主可以控制播放");
    // Back where the room is, and it stays there; the host did not move.
    await expect.poll(async () => Math.abs((await timeOf(guest)) - room), { timeout: 10_000 }).toBeLessThan(0.3);
    await guest.waitForTimeout(2 * SYNC_EVERY_MS);
    expect(Math.abs((await timeOf(guest)) - room)).toBeLessThan(0.3);
    expect(await isPaused(guest)).toBe(true);
    expect(Math.abs((await timeOf(host)) - room)).toBeLessThan(0.3);
    await close();
  });
});
