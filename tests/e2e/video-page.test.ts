import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, baseURL, launchBrowser, browserForFile, media, open, screenshot, waitForHydration, waitPlaying, VIDEO, video } from "./browser";

/**
 * The detail page around the player (docs/product-spec.md §2, §4, §7; the choices beyond it in docs/decisions/) in
 * Chromium against `wrangler dev`: the server HTML, the page's parts, screenshots, structured data, share and
 * favourite, and the places of 从 m:ss 继续播放 and 点击开启声音.
 */

const browser = browserForFile();

/** Collects layout shifts from the very start of the page. */
/** Sums the page's layout shifts (without recent input) into `__cls`, and keeps what moved for the failure message. */
const CLS_SCRIPT = () => {
  const w = window as unknown as { __cls: number; __shifts: string[] };
  w.__cls = 0;
  w.__shifts = [];
  type Shift = { value: number; hadRecentInput: boolean; startTime: number; sources?: Array<{ node?: Node | null }> };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as unknown as Shift[]) {
      if (e.hadRecentInput) continue;
      w.__cls += e.value;
      const moved = (e.sources ?? []).map((s) =>
        s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName),
      );
      w.__shifts.push(`${e.value.toFixed(4)} at ${Math.round(e.startTime)} ms: ${moved.join(", ")}`);
    }
  }).observe({ type: "layout-shift", buffered: true });
};

describe("video detail page", () => {
  it("server HTML has the video with poster, source and muted autoplay (it starts before the page's JavaScript) and the 16:9 box", async () => {
    const res = await fetch(baseURL() + `/video/${VIDEO}`);
    const html = await res.text();
    const tag = html.match(/<video[^>]*>/)?.[0] ?? "";
    expect(tag).not.toMatch(/\ssrc=/); // the stream is the <source>: browsers with native HLS start on it before hydration
    expect(tag).toContain('poster="/1.webp"');
    expect(tag).toContain('preload="auto"');
    // Muted autoplay is always allowed, so the first frame does not wait for hydration; the player then applies the stored sound settings.
    expect(tag).toMatch(/\sautoplay=""/i);
    expect(tag).toMatch(/\smuted=""/);
    expect(html).toMatch(/<source src="\/stream\/1\/master.m3u8" type="application\/vnd.apple.mpegurl"\/?>/);
    // One track per language of the title (catalogue/titles.json: zh-CN and English), none loaded until chosen.
    expect(html).toMatch(/<track kind="captions" src="\/stream\/1\/subtitles-zh-CN.vtt" srcLang="zh-CN" label="简体中文"\/?>/i);
    expect(html).toMatch(/<track kind="captions" src="\/stream\/1\/subtitles-en.vtt" srcLang="en" label="English"\/?>/i);
    expect(html).toMatch(/<link rel="preload"[^>]*href="\/1.webp"/);
    expect(html).toMatch(/<link rel="preload"[^>]*href="\/stream\/1\/master.m3u8"[^>]*as="fetch"/);
    expect(html).toMatch(/<link rel="preload"[^>]*href="\/stream\/1\/270p.m3u8"[^>]*as="fetch"/);
    // The same two from the response headers, before the browser has parsed any HTML.
    expect(res.headers.get("link")).toMatch(/^<\/stream\/1\/master.m3u8>; rel=preload; as=fetch; crossorigin; fetchpriority=high, <\/stream\/1\/270p.m3u8>;/);
    expect(html).toContain('aria-label="播放进度"');
  });

  it("shows title, facts, actions, categories, tags, description, related and contact; no layout shift, no console errors", async () => {
    const context = await browser().newContext({ viewport: DESKTOP });
    await context.addInitScript(CLS_SCRIPT);
    const { page, log } = await open(context, `/video/${VIDEO}`);
    const v = video(VIDEO);
    await expect(page.textContent("h1")).resolves.toBe(v.title);
    const meta = (await page.textContent(".video-meta")) ?? "";
    expect(meta).toContain(String(v.year));
    expect(meta).toContain(v.duration);
    expect(meta).toContain(v.rating.toFixed(1));
    expect(meta).toMatch(/\d+(\.\d)?万?次播放/);
    expect(await page.getAttribute(".video-actions button[aria-pressed]", "aria-pressed")).toBe("false");
    expect(await page.textContent(".video-actions button[aria-pressed]")).toContain("收藏");
    expect(await page.locator(".video-actions").getByRole("button", { name: "分享", exact: true }).count()).toBe(1);
    expect(await page.locator(".video-actions").getByRole("button", { name: "从当前时间分享" }).count()).toBe(1);
    const categories = await page.$$eval(".video-categories a", (as) => as.map((a) => a.getAttribute("href")));
    expect(categories.map((h) => decodeURI(h ?? ""))).toEqual(v.category.map((c) => `/category/${c}`));
    const tags = (await page.textContent(".video-tags")) ?? "";
    for (const t of v.tags) expect(tags).toContain(`#${t}`);
    await expect(page.textContent(".video-description")).resolves.toBe(v.description);
    const sidebar = await page.$$eval(".video-sidebar .video-card a", (as) => as.map((a) => a.getAttribute("href")));
    expect(sidebar.length).toBeGreaterThan(0);
    expect(sidebar.length).toBeLessThanOrEqual(6);
    // Video pages: the catalogue's, or a film another test file published through the 管理后台 (video_9…).
    for (const href of sidebar) expect(href).toMatch(/^\/video\/video_\d+$/);
    expect(await page.textContent(".contact-box")).toContain("商务合作");
    expect(await page.locator("#more-title").count()).toBeLessThanOrEqual(1);

    // The player box is 16:9 and stays put when the video starts.
    const before = await page.locator(".player").boundingBox();
    await waitPlaying(page);
    const after = await page.locator(".player").boundingBox();
    expect(after).toEqual(before);
    expect(Math.abs((before?.width ?? 0) / (before?.height ?? 1) - 16 / 9)).toBeLessThan(0.02);
    const { cls, shifts } = await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __shifts: string[] };
      return { cls: w.__cls, shifts: w.__shifts };
    });
    expect(cls, shifts.join("; ")).toBe(0);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("screenshots at phone and desktop width", async () => {
    for (const [name, viewport] of [
      ["video-detail-phone", PHONE],
      ["video-detail-desktop", DESKTOP],
    ] as const) {
      const context = await browser().newContext({ viewport, deviceScaleFactor: 1 });
      const { page, log } = await open(context, `/video/${VIDEO}`);
      await waitPlaying(page, 1);
      await page.mouse.move(viewport.width / 2, 200);
      await media(page, (v) => v.pause());
      await page.waitForTimeout(200);
      await screenshot(page, name);
      // Nothing overflows the page sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      // Touch targets of the player are at least 44px.
      const small = await page.$$eval(".player button", (bs) =>
        bs
          .filter((b) => b.getClientRects().length > 0 && (b.clientWidth < 44 || b.clientHeight < 44))
          .map((b) => b.getAttribute("aria-label") ?? b.textContent),
      );
      expect(small).toEqual([]);
      expect(log.errors).toEqual([]);
      await context.close();
    }
  });

  it("structured data and Open Graph / Twitter player tags are complete and absolute", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    const ld = JSON.parse((await page.textContent('script[type="application/ld+json"]')) ?? "{}") as {
      name: string;
      description: string;
      thumbnailUrl: string[];
      uploadDate: string;
      duration: string;
      contentUrl: string;
      inLanguage: string;
      aggregateRating: { ratingValue: number; bestRating: number; ratingCount: number };
    };
    const v = video(VIDEO);
    expect(ld.name).toBe(v.title);
    expect(ld.description).toBe(v.description);
    expect(ld.thumbnailUrl).toEqual([`${baseURL()}/1.webp`]);
    expect(ld.uploadDate).toBe("2025-01-01");
    expect(ld.duration).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
    expect(ld.contentUrl).toBe(`${baseURL()}/1.mp4`);
    expect(ld.inLanguage).toBe("zh-CN");
    expect(ld.aggregateRating.ratingValue).toBe(v.rating);
    expect(ld.aggregateRating.bestRating).toBe(10);
    expect(ld.aggregateRating.ratingCount).toBeGreaterThanOrEqual(100);
    expect(ld.aggregateRating.ratingCount).toBeLessThanOrEqual(1099);
    const ogVideo = await page.getAttribute('meta[property="og:video"]', "content");
    const twitterPlayer = await page.getAttribute('meta[name="twitter:player"]', "content");
    expect(ogVideo).toBe(`${baseURL()}/1.mp4`);
    expect(twitterPlayer).toBe(`${baseURL()}/video/${VIDEO}`);
    expect(log.errors).toEqual([]);
    await context.close();
  });
});

describe("share and favourite", () => {
  it("without navigator.share the link is copied and 链接已复制到剪贴板 is shown", async () => {
    const context = await browser().newContext();
    await context.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL() });
    const { page, log } = await open(context, `/video/${VIDEO}`);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.accept();
    });
    await page.click(".video-actions button:has-text('分享')");
    await expect.poll(() => dialogs).toEqual(["alert: 链接已复制到剪贴板"]);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL()}/video/${VIDEO}`);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("with navigator.share it shares title, text and url; a cancelled share is not an error", async () => {
    const context = await browser().newContext();
    await context.addInitScript(() => {
      const w = window as unknown as { __shared: unknown[]; __cancel: boolean };
      w.__shared = [];
      w.__cancel = false;
      Object.defineProperty(Navigator.prototype, "share", {
        configurable: true,
        value: (data: unknown) => {
          w.__shared.push(data);
          return w.__cancel ? Promise.reject(new DOMException("Share canceled", "AbortError")) : Promise.resolve();
        },
      });
    });
    const { page, log } = await open(context, `/video/${VIDEO}`);
    page.on("dialog", (d) => void d.dismiss().then(() => log.errors.push(`unexpected dialog: ${d.message()}`)));
    await page.click(".video-actions button:has-text('分享')");
    await page.evaluate(() => ((window as unknown as { __cancel: boolean }).__cancel = true));
    await page.click(".video-actions button:has-text('分享')");
    await page.waitForTimeout(200);
    const shared = await page.evaluate(() => (window as unknown as { __shared: Array<Record<string, string>> }).__shared);
    const v = video(VIDEO);
    expect(shared).toHaveLength(2);
    expect(shared[0].title).toContain(v.title);
    expect(shared[0].text).toBe(v.description);
    expect(shared[0].url).toBe(`${baseURL()}/video/${VIDEO}`);
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("the favourite toggle survives a reload (and the stored state shifts nothing)", async () => {
    const context = await browser().newContext();
    await context.addInitScript(CLS_SCRIPT);
    const { page, log } = await open(context, `/video/${VIDEO}`);
    // 收藏 is the first of the toggles (追剧 and 稍后再看 follow it: tests/e2e/follow.test.ts).
    const button = page.locator(".video-actions button[aria-pressed]").first();
    await button.click();
    expect(await button.getAttribute("aria-pressed")).toBe("true");
    expect(await button.textContent()).toContain("已收藏");
    await page.reload();
    await waitForHydration(page);
    await page.waitForFunction(() => document.querySelector(".video-actions button[aria-pressed]")?.getAttribute("aria-pressed") === "true");
    await page.waitForTimeout(300);
    const { cls, shifts } = await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __shifts: string[] };
      return { cls: w.__cls, shifts: w.__shifts };
    });
    expect(cls, shifts.join("; ")).toBe(0);
    await button.click();
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    await page.reload();
    await waitForHydration(page);
    await page.waitForTimeout(300);
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it("on a phone, 从 m:ss 继续播放 and 点击开启声音 each keep their own place: no layout shift, no overlap", async () => {
    const strict = await launchBrowser(["--autoplay-policy=document-user-activation-required"]);
    try {
      const context = await strict.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
      await context.addInitScript(CLS_SCRIPT);
      // As in the refused-autoplay test, unmuted play() without a gesture is refused — here only after
      // 0.5 s, so that 点击开启声音 comes after 从 m:ss 继续播放 (as Lighthouse's runs showed it on a
      // slower page) and could push it down.
      await context.addInitScript(() => {
        const { play } = HTMLMediaElement.prototype as { play: (this: HTMLMediaElement) => Promise<void> };
        HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
          if (!this.muted)
            return new Promise<void>((_, reject) => setTimeout(() => reject(new DOMException("play() needs a user gesture", "NotAllowedError")), 500));
          return play.call(this);
        };
      });
      const { page, log } = await open(context, `/video/${VIDEO}`);
      await waitPlaying(page);
      await media(page, (v) => {
        v.currentTime = 6.4;
        v.pause(); // saves the position
      });
      await page.reload();
      await waitForHydration(page);
      const resume = page.getByRole("button", { name: "从 0:06 继续播放" });
      const unmute = page.getByRole("button", { name: "点击开启声音" });
      await resume.waitFor({ state: "visible" });
      await unmute.waitFor({ state: "visible" });
      await page.waitForTimeout(300);
      const { cls, shifts } = await page.evaluate(() => {
        const w = window as unknown as { __cls: number; __shifts: string[] };
        return { cls: w.__cls, shifts: w.__shifts };
      });
      expect(cls, shifts.join("; ")).toBe(0);
      const [a, b] = [await resume.boundingBox(), await unmute.boundingBox()];
      expect(a && b && (a.y >= b.y + b.height || b.y >= a.y + a.height)).toBe(true);
      expect(log.errors).toEqual([]);
      await context.close();
    } finally {
      await strict.close();
    }
  });

  it("offers 从 m:ss 继续播放 on return, which seeks there", async () => {
    const context = await browser().newContext();
    const { page, log } = await open(context, `/video/${VIDEO}`);
    await waitPlaying(page);
    expect(await page.locator(".player-resume").count()).toBe(0);
    await media(page, (v) => {
      v.currentTime = 6.4; // the local clips last 12 s; positions from 5 s to 5 s before the end are offered
      v.pause(); // pausing saves the position
    });
    await page.click(".site-header a[href='/']");
    await page.waitForURL((url) => url.pathname === "/");
    await page.goBack(); // a client-side return
    await page.waitForURL((url) => url.pathname === `/video/${VIDEO}`);
    const prompt = page.getByRole("button", { name: "从 0:06 继续播放" });
    await prompt.waitFor({ state: "visible" });
    await prompt.click();
    expect(await media(page, (v) => v.currentTime)).toBeGreaterThanOrEqual(6);
    expect(await prompt.count()).toBe(0);

    // A fresh load offers it too.
    await media(page, (v) => {
      v.currentTime = 5.5;
      v.pause();
    });
    await page.reload();
    await waitForHydration(page);
    await page.getByRole("button", { name: "从 0:05 继续播放" }).waitFor({ state: "visible" });
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
