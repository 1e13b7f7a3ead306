import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, browserForFile, newPage } from "./browser";
import { newVisitor, runTag, signUpViaApi } from "./visitors";

/**
 * Real client software against `wrangler dev` (issue 34), unmodified, from npm:
 * - DPlayer 1.27 on the site's own origin (a test page answered for a site URL by route
 *   interception, so its origin is the site's and nothing ships with the site) loads a room's
 *   comments and sends one in each of its colours; a DPlayer on a second origin (a small node
 *   server on another port) reads them all, and its own send is refused.
 * - Shaka Player (an HLS player that is not hls.js) on the second origin plays a title's master
 *   playlist and shows its zh-CN subtitles.
 */

const browser = browserForFile();
const require = createRequire(import.meta.url);
const DPLAYER_JS = fs.readFileSync(require.resolve("dplayer/dist/DPlayer.min.js"), "utf8");
const SHAKA_JS = fs.readFileSync(require.resolve("shaka-player/dist/shaka-player.compiled.js"), "utf8");

/** The room the DPlayer tests use: a built-in title, so the room exists. */
const ROOM = "video_006";
/** A title with subtitles in the e2e media (every packed title has them), and its media number. */
const STREAM = "/stream/1/master.m3u8";

/** A page that loads a script and nothing else; the test drives it with page.evaluate. */
const pageWith = (script: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>client</title></head><body><div id="player"></div><video id="video" muted playsinline></video><script src="${script}"></script></body></html>`;

let second: http.Server;
let secondOrigin = "";

beforeAll(async () => {
  // The second origin: 127.0.0.1 on its own port (the site is on localhost: another site too).
  second = http.createServer((req, res) => {
    const answers: Record<string, [string, string]> = {
      "/dplayer.html": ["text/html; charset=utf-8", pageWith("/DPlayer.min.js")],
      "/shaka.html": ["text/html; charset=utf-8", pageWith("/shaka-player.compiled.js")],
      "/DPlayer.min.js": ["text/javascript", DPLAYER_JS],
      "/shaka-player.compiled.js": ["text/javascript", SHAKA_JS],
    };
    const answer = answers[req.url ?? ""];
    if (!answer) {
      // The browser's favicon request too: an empty answer, so no page logs a 404.
      res.writeHead(req.url === "/favicon.ico" ? 204 : 404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": answer[0] }).end(answer[1]);
  });
  await new Promise<void>((resolve) => second.listen(0, "127.0.0.1", resolve));
  secondOrigin = `http://localhost:${(second.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => second.close(resolve));
});

/** A DPlayer test page on the site's own origin: two site URLs answered by the test, never by the site. */
async function openSiteDplayer(context: BrowserContext): Promise<Page> {
  const base = baseURL();
  await context.route(`${base}/__test/dplayer.html`, (route) =>
    route.fulfill({ contentType: "text/html; charset=utf-8", body: pageWith("/__test/DPlayer.min.js") }),
  );
  await context.route(`${base}/__test/DPlayer.min.js`, (route) => route.fulfill({ contentType: "text/javascript", body: DPLAYER_JS }));
  const { page } = await newPage(context);
  await page.goto(`${base}/__test/dplayer.html`);
  return page;
}

interface DplayerItem {
  text: string;
  color: number;
}

/** Starts DPlayer on `page` with the site's 弹幕 API and waits until it has loaded the room's comments (its loading notice goes). */
async function startDplayer(page: Page, maximum?: number): Promise<DplayerItem[]> {
  await page.evaluate(
    ({ api, id, maximum }) => {
      const DPlayer = (window as unknown as { DPlayer: new (options: object) => DplayerLike }).DPlayer;
      const dp = new DPlayer({ container: document.getElementById("player"), video: { url: "" }, danmaku: { id, api, maximum } });
      (window as unknown as { dp: DplayerLike }).dp = dp;
    },
    { api: `${baseURL()}/api/danmaku/`, id: ROOM, maximum },
  );
  await page.waitForFunction(() => (window as unknown as { dp: DplayerLike }).dp.template.danmakuLoading.style.display === "none");
  return page.evaluate(() => (window as unknown as { dp: DplayerLike }).dp.danmaku.dan.map((d) => ({ text: d.text, color: d.color })));
}

/** The part of DPlayer's API the tests use. */
interface DplayerLike {
  on(event: string, handler: () => void): void;
  danmaku: { dan: Array<{ text: string; color: number }> };
  template: { commentInput: HTMLInputElement; danmakuLoading: HTMLElement };
  comment: { send(): void };
}

/** The colours DPlayer's comment box offers (its radio inputs' values). */
const offeredColours = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll<HTMLInputElement>(".dplayer-comment-setting-color input")).map((input) => input.value));

/** Sends `text` in colour `value` the way DPlayer's own comment box does (its checked colour, its send). */
async function sendThroughDplayer(page: Page, value: string, text: string): Promise<void> {
  await page.evaluate(
    ({ value, text }) => {
      const dp = (window as unknown as { dp: DplayerLike }).dp;
      const input = Array.from(document.querySelectorAll<HTMLInputElement>(".dplayer-comment-setting-color input")).find((i) => i.value === value);
      if (!input) throw new Error(`no colour ${value}`);
      input.checked = true;
      dp.template.commentInput.value = text;
      dp.comment.send();
    },
    { value, text },
  );
}

/** DPlayer's color2Number: "#fff" → 16777215. */
function colourNumber(value: string): number {
  let hex = value.replace(/^#/, "");
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  return Number.parseInt(hex, 16);
}

type V3Item = [number, number, number, string, string];

/** The room's comments as DPlayer's v3 read gives them, read by the test itself. */
async function v3Texts(): Promise<V3Item[]> {
  const res = await fetch(`${baseURL()}/api/danmaku/v3/?id=${ROOM}`);
  const body: { data: V3Item[] } = await res.json();
  return body.data;
}

describe("DPlayer 1.27 from npm", () => {
  it("on the site's origin loads the room's comments and sends one in each of its colours; DPlayer on another origin reads them all", async () => {
    const existing = await v3Texts();
    // Every colour from its own signed-in viewer: the rate limit (2 s per user) never meets.
    const first = await newVisitor(browser());
    const page = await openSiteDplayer(first);
    const loaded = await startDplayer(page);
    expect(loaded.length).toBe(existing.length);
    const colours = await offeredColours(page);
    expect(colours.length).toBeGreaterThanOrEqual(6);
    await first.close();

    const sent: DplayerItem[] = [];
    for (const [i, value] of colours.entries()) {
      const context = await newVisitor(browser());
      await signUpViaApi(context, `dplayer${i}`);
      const viewer = await openSiteDplayer(context);
      await startDplayer(viewer);
      const text = `DPlayer ${runTag} 颜色${i}`;
      const answer = viewer.waitForResponse((r) => r.url().endsWith("/api/danmaku/v3/") && r.request().method() === "POST");
      await sendThroughDplayer(viewer, value, text);
      const res = await answer;
      expect(res.status(), `${value}: ${await res.text()}`).toBe(200);
      expect(((await res.json()) as { code: number }).code).toBe(0);
      sent.push({ text, color: colourNumber(value) });
      await context.close();
    }

    // A plain context: newVisitor's CF-Connecting-IP header would turn every cross-origin read into a preflighted one.
    const reader = await browser().newContext({ locale: "zh-CN" });
    const { page: other } = await newPage(reader);
    await other.goto(`${secondOrigin}/dplayer.html`);
    // DPlayer's `maximum` (…&max=) gives a URL nobody read before: the 5 s cache of the plain read may predate the last send.
    const read = await startDplayer(other, 3000);
    for (const comment of sent) expect(read, comment.text).toContainEqual(comment);
    await reader.close();
  });

  it("on another origin: a send is refused (the preflight of the write), and nothing is stored", async () => {
    // Signed in or not makes no difference: the site's SameSite cookie never goes with a cross-site write.
    const context = await browser().newContext({ locale: "zh-CN" });
    const { page } = await newPage(context);
    await page.goto(`${secondOrigin}/dplayer.html`);
    await startDplayer(page);
    const text = `别站 ${runTag}`;
    const failed = page.waitForEvent("requestfailed", (r) => r.url().endsWith("/api/danmaku/v3/") && r.method() === "POST");
    await sendThroughDplayer(page, "#fff", text);
    await failed;
    expect((await v3Texts()).map((item) => item[4])).not.toContain(text);
    await context.close();
  });
});

describe("an HLS player that is not hls.js", () => {
  it("Shaka Player on another origin plays the master playlist and shows the zh-CN subtitles", async () => {
    const context = await browser().newContext({ locale: "zh-CN" });
    const { page, log } = await newPage(context);
    await page.goto(`${secondOrigin}/shaka.html`);
    const tracks = await page.evaluate(async (url) => {
      interface ShakaPlayer {
        attach(video: HTMLVideoElement): Promise<void>;
        load(url: string): Promise<void>;
        getTextTracks(): Array<{ language: string; id: number }>;
        selectTextTrack(track: { id: number }): void;
      }
      const shaka = (window as unknown as { shaka: { polyfill: { installAll(): void }; Player: new () => ShakaPlayer } }).shaka;
      shaka.polyfill.installAll();
      const video = document.getElementById("video") as HTMLVideoElement;
      const player = new shaka.Player();
      await player.attach(video);
      try {
        await player.load(url);
      } catch (e) {
        throw new Error(JSON.stringify(e));
      }
      const text = player.getTextTracks();
      if (text[0]) player.selectTextTrack(text[0]);
      await video.play();
      return text.map((t) => t.language);
    }, `${baseURL()}${STREAM}`);
    expect(tracks).toContain("zh-CN");
    // Playing, and the subtitles' cues reached the video's text track.
    await page.waitForFunction(() => (document.getElementById("video") as HTMLVideoElement).currentTime > 0.5);
    await page.waitForFunction(() => Array.from((document.getElementById("video") as HTMLVideoElement).textTracks).some((t) => (t.cues?.length ?? 0) > 0));
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
