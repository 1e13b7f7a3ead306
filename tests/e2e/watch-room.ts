import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { open, PLAYER } from "./browser";
import { newVisitor, signUpViaApi } from "./visitors";

/**
 * 一起看 steps shared by the room's e2e tests (tests/e2e/watch-together.test.ts,
 * tests/e2e/watch-together-stays.test.ts): the panel, the player, opening a room as its host
 * and joining one by its link.
 */

export const panel = (page: Page) => page.locator(".watch-panel");
export const video = (page: Page) => page.locator(PLAYER);
export const isPaused = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.paused);
export const timeOf = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);
/** The page's ?room= (null outside a room). */
export const roomOf = (page: Page) => new URL(page.url()).searchParams.get("room");
/** The member list as the host's panel shows it (nickname, 房主, （我）). */
export const membersOf = (page: Page) => panel(page).locator(".watch-members li").allTextContents();

/** Waits until the page's panel says the player is in step with the room. */
export async function synced(page: Page): Promise<void> {
  await expect.poll(() => panel(page).getAttribute("data-synced"), { timeout: 20_000 }).toBe("true");
}

/**
 * A signed-in viewer (`context`) opens `path` and creates a room with 一起看 → nickname → 创建房间.
 * Returns the host's page and the room's short link (/w/{code}) once the page has it.
 */
export async function openRoom(context: BrowserContext, path: string, nickname = "房主"): Promise<{ host: Page; shortLink: string; code: string }> {
  const { page: host } = await open(context, path);
  await host.getByRole("button", { name: "一起看" }).click();
  await panel(host).locator("input[name=nickname]").fill(nickname);
  await panel(host).getByRole("button", { name: "创建房间" }).click();
  const link = panel(host).locator(".watch-link");
  await expect.poll(() => link.inputValue(), { timeout: 15_000 }).toMatch(/\/w\/[2-9a-z]{8}$/);
  const shortLink = new URL(await link.inputValue()).pathname;
  return { host, shortLink, code: shortLink.slice(3) };
}

/** Joins the room of the page's link with `nickname`; waits for the player to be in step unless `waitSynced` is false (a player that cannot play). */
export async function joinAs(page: Page, nickname: string, waitSynced = true): Promise<void> {
  await panel(page).locator("input[name=nickname]").fill(nickname);
  await panel(page).getByRole("button", { name: "加入一起看" }).click();
  if (waitSynced) await synced(page);
}

/**
 * A signed-in host opens a room on `path` and pauses it at once (the local clips are short); a
 * signed-out guest opens its link (not joined yet). `setup` prepares either context first (its
 * routes, its scripts).
 */
export async function roomOfTwo(
  browser: Browser,
  path: string,
  setup: { host?: (context: BrowserContext) => Promise<unknown>; guest?: (context: BrowserContext) => Promise<unknown> } = {},
) {
  const [hostContext, guestContext] = [await newVisitor(browser), await newVisitor(browser)];
  await signUpViaApi(hostContext, "watch-room");
  await setup.host?.(hostContext);
  await setup.guest?.(guestContext);
  const { host, shortLink, code } = await openRoom(hostContext, path);
  await synced(host);
  await video(host).evaluate((v: HTMLVideoElement) => v.pause());
  const { page: guest } = await open(guestContext, shortLink);
  return { host, guest, code, close: () => Promise.all([hostContext.close(), guestContext.close()]) };
}
