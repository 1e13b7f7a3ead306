import { describe, expect, it } from "vitest";
import path from "node:path";
import { browserForFile, open, PHONE, SCREENSHOT_DIR } from "./browser";
import { newVisitor, signUpViaApi } from "./visitors";
import { isPaused, joinAs, openRoom, panel, synced, timeOf, video } from "./watch-room";

/**
 * 一起看 in Chromium against `wrangler dev`, with separate browser contexts as separate people: a
 * signed-in viewer opens a room on a series and shares its link; a second viewer (signed out)
 * joins by the link with a nickname; one pauses, seeks and changes the episode, the other
 * follows; a late joiner on a phone starts at the room's position; chat reaches the others and a
 * signed-out member cannot chat. The local clips last 12 s, so the room is paused before the
 * checks that take time (the player moves on at a clip's end).
 */

const browser = browserForFile();
const SERIES = "video_007";

describe("一起看", () => {
  it("members follow each other's pause, seek and episode; a late joiner starts at the room's position; chat needs an account", async () => {
    const [hostContext, guestContext, lateContext] = [
      await newVisitor(browser()),
      await newVisitor(browser()),
      await newVisitor(browser(), { viewport: PHONE, isMobile: true, hasTouch: true }),
    ];
    await signUpViaApi(hostContext, "watch-host");
    // Opening a room: 一起看 → nickname → 创建房间 → the short link (and its QR code).
    const { host, shortLink, code } = await openRoom(hostContext, `/video/${SERIES}/1`);
    expect(new URL(host.url()).searchParams.get("room")).toBe(code);
    await panel(host).getByRole("button", { name: "二维码" }).click();
    await expect.poll(() => panel(host).locator(".watch-qr svg").count()).toBe(1);
    await synced(host);

    // A signed-out viewer opens the link and joins with a nickname.
    const { page: guest } = await open(guestContext, shortLink);
    expect(new URL(guest.url()).pathname).toBe(`/video/${SERIES}/1`);
    await joinAs(guest, "路人甲");
    await expect.poll(() => panel(host).locator(".watch-members li").allTextContents()).toEqual(["房主房主（我）", "路人甲"]);

    // The host pauses: the guest's player pauses.
    await video(host).evaluate((v: HTMLVideoElement) => v.pause());
    await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => Math.abs((await timeOf(guest)) - (await timeOf(host))), { timeout: 10_000 }).toBeLessThan(0.3);
    // The guest seeks (well away from where the room paused): the host's player follows.
    const target = (await timeOf(guest)) < 4.5 ? 7 : 2;
    await video(guest).evaluate((v: HTMLVideoElement, to: number) => {
      v.currentTime = to;
    }, target);
    await expect.poll(async () => Math.abs((await timeOf(host)) - target), { timeout: 10_000 }).toBeLessThan(0.3);
    expect(await isPaused(host)).toBe(true);

    // The host picks episode 3 on the page: the guest's page goes there too, still in the room.
    await host.locator(`.episodes-grid a[href="/video/${SERIES}/3"]`).click();
    await expect.poll(() => new URL(guest.url()).pathname, { timeout: 15_000 }).toBe(`/video/${SERIES}/3`);
    expect(new URL(guest.url()).searchParams.get("room")).toBe(shortLink.slice(3));
    // Both players have the new episode's video in step with the room before the host seeks in it.
    for (const page of [guest, host])
      await expect
        .poll(
          async () => (await panel(page).getAttribute("data-synced")) === "true" && (await video(page).evaluate((v: HTMLVideoElement) => v.readyState)) >= 3,
          {
            timeout: 20_000,
          },
        )
        .toBe(true);
    await video(host).evaluate((v: HTMLVideoElement) => {
      v.currentTime = 4;
    });
    await expect.poll(async () => Math.abs((await timeOf(guest)) - 4), { timeout: 10_000 }).toBeLessThan(0.3);

    // A late joiner, on a phone, starts where the room is: episode 3, paused at 4 s.
    const { page: late } = await open(lateContext, shortLink);
    expect(new URL(late.url()).pathname).toBe(`/video/${SERIES}/3`);
    await joinAs(late, "迟到的");
    expect(await isPaused(late)).toBe(true);
    expect(Math.abs((await timeOf(late)) - 4)).toBeLessThan(0.3);

    // Playing again reaches everyone, and they play together.
    await video(late).evaluate((v: HTMLVideoElement) => v.play());
    await expect.poll(() => isPaused(host), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(false);
    await video(host).evaluate((v: HTMLVideoElement) => v.pause());
    await expect.poll(() => isPaused(guest), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => Math.abs((await timeOf(guest)) - (await timeOf(host))), { timeout: 10_000 }).toBeLessThan(0.3);

    // Chat: the host's line reaches the others; the signed-out members read why they cannot chat.
    await panel(host).locator("input[name=chat]").fill("这集好看");
    await panel(host).getByRole("button", { name: "发送" }).click();
    await expect.poll(() => panel(guest).locator(".watch-chat li").allTextContents()).toEqual(["房主：这集好看"]);
    await expect.poll(() => panel(late).locator(".watch-chat li").allTextContents()).toEqual(["房主：这集好看"]);
    expect(await panel(guest).locator("input[name=chat]").count()).toBe(0);
    await expect.poll(() => panel(guest).locator(".watch-chat-signin").textContent()).toContain("请先登录后再发言");
    // Sent anyway over the room's socket, the line is refused with the same words.
    const refused = await guest.evaluate(async (path) => {
      const ws = new WebSocket(`${location.origin.replace("http", "ws")}/api/watch/${path}/ws`);
      return new Promise<string>((resolve) => {
        ws.onopen = () => ws.send(JSON.stringify({ type: "join", nickname: "捣乱" }));
        ws.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { type: string; message?: string };
          if (message.type === "welcome") ws.send(JSON.stringify({ type: "chat", text: "偷偷发言", nonce: "x" }));
          if (message.type === "error") {
            resolve(message.message ?? "");
            ws.close();
          }
        };
      });
    }, shortLink.slice(3));
    expect(refused).toBe("请先登录后再发言");
    expect(await panel(host).locator(".watch-chat li").allTextContents()).toEqual(["房主：这集好看"]);

    await host.screenshot({ path: path.join(SCREENSHOT_DIR, "watch-host-desktop.png") });
    await late.screenshot({ path: path.join(SCREENSHOT_DIR, "watch-late-phone.png"), fullPage: true });
    for (const context of [hostContext, guestContext, lateContext]) await context.close();
  });
});
