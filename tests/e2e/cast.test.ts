// 投屏 (docs/decisions/0105-cast.md) in Chromium with stand-ins for the browsers' APIs: the button is
// there per capability (the Remote Playback API, Safari's AirPlay, neither), and what the picker
// opens on is an absolute URL a screen can fetch — the progressive MP4 in place of hls.js's blob:,
// the master playlist where the element plays it itself — at the position the viewer was at.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PAGE, PLAYER, baseURL, browserForFile, media, newPage, waitForHydration, waitPlaying } from "./browser";
import { newVisitor } from "./visitors";

const browser = browserForFile();

type Capability = "remote" | "airplay" | "none";

/** What the stand-in picker saw on the element when it was opened. */
interface CastCall {
  way: "remote" | "airplay";
  src: string;
  time: number;
  paused: boolean;
}

/** Installs the stand-ins before the page's scripts: the API of `capability`, none of the others. */
function standIns(capability: Capability) {
  const record = (way: CastCall["way"], video: HTMLVideoElement) => {
    (window as unknown as { __cast: CastCall }).__cast = { way, src: video.currentSrc, time: video.currentTime, paused: video.paused };
  };
  Reflect.deleteProperty(HTMLMediaElement.prototype, "remote");
  if (capability === "remote") {
    Object.defineProperty(HTMLMediaElement.prototype, "remote", {
      configurable: true,
      get(this: HTMLVideoElement) {
        const prompt = () => Promise.resolve(record("remote", this));
        return {
          state: "disconnected",
          prompt,
          watchAvailability: () => Promise.resolve(1),
          cancelWatchAvailability: () => Promise.resolve(),
        };
      },
    });
  }
  if (capability === "airplay") {
    Object.assign(window, { WebKitPlaybackTargetAvailabilityEvent: class extends Event {} });
    Object.assign(HTMLVideoElement.prototype, {
      webkitShowPlaybackTargetPicker(this: HTMLVideoElement) {
        record("airplay", this);
      },
    });
  }
}

async function openWith(capability: Capability, path: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await newVisitor(browser());
  const { page } = await newPage(context);
  await page.addInitScript(standIns, capability);
  await page.goto(baseURL() + path);
  await waitForHydration(page);
  return { page, close: () => context.close() };
}

const castButton = (page: Page) => page.locator(".player").getByRole("button", { name: "投屏" });

/** Plays a little, pauses, then presses 投屏: what the picker saw, and where the viewer was. */
async function castAfterPausing(page: Page): Promise<{ call: CastCall; at: number }> {
  await waitPlaying(page, 1);
  const at = await media(page, (v) => {
    v.pause();
    return v.currentTime;
  });
  await castButton(page).click();
  const handle = await page.waitForFunction(() => (window as unknown as { __cast?: CastCall }).__cast);
  return { call: (await handle.jsonValue()) as CastCall, at };
}

describe("投屏", () => {
  it("no button where the browser has neither the Remote Playback API nor AirPlay", async () => {
    const { page, close } = await openWith("none", PAGE);
    expect(await page.locator(".player .player-bar button").count()).toBeGreaterThan(3); // the player is there
    expect(await castButton(page).count()).toBe(0);
    await close();
  });

  it("Remote Playback over hls.js: the element moves to the absolute MP4 at the same position before the picker opens", async () => {
    const { page, close } = await openWith("remote", `${PAGE}?engine=hlsjs`);
    expect(await media(page, (v) => v.currentSrc)).toMatch(/^blob:/);
    const { call, at } = await castAfterPausing(page);
    expect(call.way).toBe("remote");
    expect(call.src).toBe(`${baseURL()}/1.mp4`);
    expect(call.time).toBeCloseTo(at, 1);
    expect(call.paused).toBe(true);
    // Paused it stays, where it was, once the MP4 could play (hls.js's detach emptied the element: the
    // <video autoplay> would start it at HAVE_ENOUGH_DATA).
    await page.waitForFunction((sel) => (document.querySelector<HTMLVideoElement>(sel)?.readyState ?? 0) >= HTMLMediaElement.HAVE_ENOUGH_DATA, PLAYER);
    expect(await media(page, (v) => v.paused)).toBe(true);
    expect(await media(page, (v) => v.currentTime)).toBeCloseTo(at, 1);
    // It goes on playing the MP4 here (the 清晰度 menu goes: one file).
    expect(await page.locator(".player").getAttribute("data-engine")).toBe("progressive");
    await close();
  });

  it("AirPlay: Safari's picker opens on the element, with the same absolute source and position", async () => {
    const { page, close } = await openWith("airplay", `${PAGE}?engine=hlsjs`);
    const { call, at } = await castAfterPausing(page);
    expect(call).toMatchObject({ way: "airplay", src: `${baseURL()}/1.mp4` });
    expect(call.time).toBeCloseTo(at, 1);
    await close();
  });

  it("an element that plays the master playlist itself hands that over, without a switch", async () => {
    const { page, close } = await openWith("remote", `${PAGE}?engine=native`);
    const native = await media(page, (v) => v.currentSrc);
    expect(native).toMatch(/^http/);
    const { call, at } = await castAfterPausing(page);
    expect(call.src).toBe(native);
    expect(new URL(call.src).pathname).toMatch(/^\/stream\/1\/.+\.m3u8$/);
    expect(call.time).toBeCloseTo(at, 1);
    await close();
  });
});
