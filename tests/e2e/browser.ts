import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from "playwright-core";
import { afterAll, beforeAll, inject, onTestFailed } from "vitest";
import { getVideo, type Video } from "../../scripts/catalogue/titles";
import { parseMasterPlaylist } from "../../shared/stream/hls-parse";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/chromium";

/** Debian's Chromium; `npm test` installs it when missing (never a downloaded browser). */
export { CHROMIUM } from "../../scripts/chromium";

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1440, height: 900 } as const;

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../test-output/screenshots");

export function baseURL(): string {
  return inject("baseURL");
}

/**
 * Headless Debian Chromium. `args` are added after the defaults; a later
 * `--autoplay-policy=…` replaces the default one (e.g. to test refused autoplay).
 */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  const defaults = CHROMIUM_FLAGS;
  const overridden = new Set(args.map((a) => a.split("=")[0]));
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...defaults.filter((a) => !overridden.has(a.split("=")[0])), ...args],
  });
}

/**
 * The test file's Chromium: launched before its first test and closed after its last. Call once at
 * the top of a file; the returned function gives the browser inside tests and hooks.
 */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("browserForFile: the browser is launched in beforeAll, use it inside a test or hook");
    return browser;
  };
}

/** Console errors, warnings and page errors of one page, for the "no console errors" checks. */
export interface ConsoleLog {
  errors: string[];
}

/** Holds back `page`'s requests whose URL matches `pattern` (a file on a slow link) until the returned function is called. */
export async function holdRequests(page: Page, pattern: RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** A new page that records console errors and uncaught exceptions. */
export async function newPage(context: BrowserContext): Promise<{ page: Page; log: ConsoleLog }> {
  const page = await context.newPage();
  const log: ConsoleLog = { errors: [] };
  page.on("console", (msg) => {
    if (msg.type() === "error" || (msg.type() === "warning" && /hydrat|did not match|React/i.test(msg.text()))) {
      log.errors.push(`${msg.type()}: ${msg.text()}`);
    }
  });
  page.on("pageerror", (err) => log.errors.push(`pageerror: ${err.message}`));
  // A test that times out (a page.goto waiting for "load") says which of the page's requests never finished.
  const open = new Map<Request, number>();
  const opened = Date.now();
  page.on("request", (request) => open.set(request, Date.now()));
  page.on("requestfinished", (request) => open.delete(request));
  page.on("requestfailed", (request) => open.delete(request));
  const report = () => {
    if (page.isClosed() || open.size === 0) return;
    const lines = [...open].map(([request, at]) => `  +${at - opened} ms ${request.method()} ${request.url()}`);
    console.error(`requests of the page at ${page.url()} still open when the test failed:\n${lines.join("\n")}`);
  };
  // Only where vitest knows the test (in a describe.concurrent, after an await, it may not).
  try {
    onTestFailed(report);
  } catch {
    // no current test: no report
  }
  return { page, log };
}

/**
 * Waits until React has hydrated the document (the entry marks <html> when done) and, on a detail
 * page, the player too: it is a lazy island that hydrates once its own chunk is there (it then
 * marks .player with the engine it uses).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.documentElement.dataset.hydrated === "true" && (!document.querySelector(".player") || !!document.querySelector(".player[data-engine]")),
    undefined,
    { timeout: 15_000 },
  );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * A listing navigation has finished: the URL matches and the page shows it. React Router
 * changes the URL a moment before React commits the new page (the update is a transition),
 * so a key pressed right after the URL changed could act on the previous page's links.
 */
export async function listingShows(page: Page, match: Parameters<Page["waitForURL"]>[0]): Promise<void> {
  await page.waitForURL(match);
  await page.waitForFunction(() => {
    const state = (search: string) => {
      const p = new URLSearchParams(search);
      return { year: p.get("year") ?? "", view: p.get("view") ?? "grid", page: p.get("page") ?? "1" };
    };
    const want = state(location.search);
    const year = (document.querySelector("select[name=year]") as { value?: string } | null)?.value ?? "";
    const view = document.querySelector(".video-list") ? "list" : "grid";
    const current = document.querySelector(".pagination [aria-current=page]")?.textContent?.trim() ?? "1";
    const toggle = document.querySelector(".view-toggle a")?.getAttribute("href") ?? "";
    const toggleQuery = new URLSearchParams(new URL(toggle, location.href).search);
    const here = new URLSearchParams(location.search);
    const same = (name: string) => (toggleQuery.get(name) ?? "") === (here.get(name) ?? "");
    return year === want.year && view === want.view && current === want.page && same("rating") && same("sort") && same("year");
  });
}

/** The detail page's <video>. */
export const PLAYER = "video.player-video";

/** A new page of `context` at `path`, once hydrated (if it does not hydrate, the error names the failed responses). */
export async function open(context: BrowserContext, path: string): Promise<{ page: Page; log: ConsoleLog }> {
  const { page, log } = await newPage(context);
  const failed: string[] = [];
  const onResponse = (r: Response) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  page.on("response", onResponse);
  try {
    await page.goto(baseURL() + path);
    await waitForHydration(page);
  } catch (error) {
    throw new Error(`${baseURL() + path} did not hydrate; failed responses: ${JSON.stringify(failed)}`, { cause: error });
  } finally {
    page.off("response", onResponse);
  }
  return { page, log };
}

/** Waits until the player plays past `after` seconds. */
export async function waitPlaying(page: Page, after = 0.2): Promise<void> {
  await page.waitForFunction(
    ({ sel, after }) => {
      const v = document.querySelector<HTMLVideoElement>(sel);
      return !!v && !v.paused && v.currentTime > after;
    },
    { sel: PLAYER, after },
    { timeout: 20_000 },
  );
}

/** Runs `fn` on the player's <video> in the page. */
export const media = <T>(page: Page, fn: (v: HTMLVideoElement) => T): Promise<T> => page.$eval(PLAYER, fn as (v: Element) => T);

// ---- the video the player tests open --------------------------------------------------------

/** The title whose detail page the player tests open (its media is packed for the e2e site). */
export const VIDEO = "video_001";

/** A title of the catalogue, which must exist. */
export function video(id: string): Video {
  const v = getVideo(id);
  if (!v) throw new Error(`no ${id}`);
  return v;
}

/** The path of the page's current URL. */
export const pathname = (page: Page) => new URL(page.url()).pathname;

// ---- the stream of that video (tests/e2e/streaming.test.ts, tests/e2e/stream-controls.test.ts) ----

/** Its media number, and its detail page. */
export const N = 1;
export const PAGE = "/video/video_001";

/** Its master playlist as the site serves it. */
export async function master() {
  const text = await (await fetch(`${baseURL()}/stream/${N}/master.m3u8`)).text();
  return parseMasterPlaylist(text);
}

/** Segment requests of a page (path names), in order. */
export function recordSegments(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (/\.m4s$/.test(path)) seen.push(path);
  });
  return seen;
}
