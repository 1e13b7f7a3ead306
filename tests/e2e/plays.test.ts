import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PLAYER, baseURL, browserForFile, media, open, waitForHydration } from "./browser";
import { newVisitor, PASSWORD, uniqueEmail, uniqueIp } from "./visitors";

/** Real playback in Chromium sends the play beacon (shared/player/usePlayBeacon.ts); the 排行榜 works without JavaScript. */

const browser = browserForFile();

/**
 * The worker's answers to the page's POSTs to `url`, in order. The beacon is a keepalive request,
 * whose response body neither Playwright's response objects nor CDP hand over: the request is
 * routed, sent on to the site unchanged (headers, cookies and address included) and its answer
 * recorded on the way back.
 */
async function postAnswers(page: Page, url: string): Promise<Array<{ status: number; body: string }>> {
  const answers: Array<{ status: number; body: string }> = [];
  await page.route(url, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const response = await route.fetch();
    answers.push({ status: response.status(), body: await response.text() });
    await route.fulfill({ response });
  });
  return answers;
}

describe("play counter in the browser", () => {
  it("the player reports a play after 10 seconds of playback, once; the worker counts a new visitor, once a day, and the page's count moves by one", async () => {
    const TITLE = "video_006";
    // The page shows real plays once a title has any (a random figure before): one play by another
    // visitor new to this run makes sure it has.
    const seed = await fetch(`${baseURL()}/api/plays/${TITLE}`, { method: "POST", headers: { "CF-Connecting-IP": uniqueIp() } });
    expect(await seed.json()).toEqual({ counted: true });
    // A visitor new to this run (its own address), signed in: its pages are rendered for it, never
    // an edge-cached copy, so they show the count as it is.
    const context = await newVisitor(browser());
    try {
      const signUp = await context.request.post(baseURL() + "/api/auth/sign-up", {
        data: { email: uniqueEmail("plays"), password: PASSWORD, confirmPassword: PASSWORD },
      });
      expect(signUp.status()).toBe(200);
      // The title's count as the worker renders it for this visitor now (its pages are never an edge
      // copy). Plays reach D1 with their shard's next flush (docs/decisions/0060-plays-aggregation.md);
      // until the seed has, the page shows a placeholder figure of 1000 or more.
      const renderedPlays = async () => {
        const html = await (await context.request.get(`${baseURL()}/video/${TITLE}`)).text();
        // The title's own line (the related cards below show their plays the same way; another
        // test's plays of one of them must not pass for this title's).
        const meta = /<p class="video-meta">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "";
        return Number(/<span>(\d+)(?:<!-- -->)?次播放<\/span>/.exec(meta)?.[1]);
      };
      await expect.poll(renderedPlays, { timeout: 40_000, interval: 1000 }).toBeLessThan(1000);
      const { page } = await open(context, `/video/${TITLE}`);
      const beaconUrl = `${baseURL()}/api/plays/${TITLE}`;
      const beacons = await postAnswers(page, beaconUrl);
      const plays = async () => Number(/^(\d+)次播放$/.exec((await page.locator(".video-meta span", { hasText: "次播放" }).innerText()).trim())?.[1]);
      // Rendered at page load, before any beacon of this visitor.
      const before = await plays();
      expect(before).toBeGreaterThanOrEqual(1);
      // Sent once the video has played about 10 seconds, not on page load.
      await page.waitForRequest((r) => r.method() === "POST" && r.url() === beaconUrl, { timeout: 45_000 });
      expect(await media(page, (v) => v.currentTime)).toBeGreaterThanOrEqual(9.5);
      await expect.poll(() => beacons.length).toBe(1);
      expect(beacons[0].status).toBe(200);
      expect(JSON.parse(beacons[0].body)).toEqual({ counted: true });
      // The same visitor again today: not counted a second time (the beacon's visit is in its play shard).
      const again = await page.evaluate(async (title) => (await fetch(`/api/plays/${title}`, { method: "POST" })).json(), TITLE);
      expect(again).toEqual({ counted: false });
      // Only one beacon per page view, however long it plays (to near the end of the 12 s local clip).
      let more = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url() === beaconUrl && r.frame() === page.mainFrame()) more++;
      });
      await page.waitForFunction((sel) => (document.querySelector<HTMLVideoElement>(sel)?.currentTime ?? 0) > 11, PLAYER, { timeout: 20_000 });
      expect(more).toBe(0);
      // The title's count, rendered afresh once the shard has flushed: this visitor's play, once.
      await expect.poll(renderedPlays, { timeout: 40_000, interval: 1000 }).toBe(before + 1);
    } finally {
      await context.close();
    }
  });

  it("/ranking: the tabs switch periods by URL, with and without JavaScript; linked from the header", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser().newContext({ javaScriptEnabled });
      try {
        const page = await context.newPage();
        await page.goto(baseURL() + "/");
        if (javaScriptEnabled) await waitForHydration(page);
        await page.locator(".main-nav").getByRole("link", { name: "排行榜" }).click();
        await page.waitForURL(/\/ranking$/);
        await expect.poll(() => page.locator('.ranking-tabs [aria-current="page"]').textContent()).toBe("日榜");
        await page.locator(".ranking-tabs").getByRole("link", { name: "周榜" }).click();
        await page.waitForURL(/\/ranking\?period=week$/);
        await expect.poll(() => page.locator('.ranking-tabs [aria-current="page"]').textContent()).toBe("周榜");
        await expect.poll(() => page.locator("h1").textContent()).toBe("排行榜");
      } finally {
        await context.close();
      }
    }
  });
});
