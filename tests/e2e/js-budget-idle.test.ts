import { gzipSync } from "node:zlib";
import type { Page, Response } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MISSING_SAMPLES, PAGE_SAMPLES, type Sample } from "../route-samples";
import { baseURL, browserForFile, newPage, PHONE, waitForHydration } from "./browser";

/**
 * The JavaScript budget counted honestly (docs/performance.md, budgets; issue 31): everything a
 * page makes the browser load without any interaction, by network idle, on a first visit (a new
 * context: an empty cache) — its route's first JavaScript and every chunk that follows hydration
 * (on a player page the player island, the 弹幕 layer, the stream chunks) — is at most 125 KB
 * gzip (-9 of each file, as tests/worker/js-budget.test.ts and `npm run bench` count). Only
 * hls.js itself is left out, and only where the page chose it to play the video (the player says
 * data-engine="hlsjs"): it is then part of playback, like the media. On the native-HLS path it
 * counts if it is loaded at all. A player page is loaded on both engine paths (`?engine=`).
 *
 * tests/worker/js-budget.test.ts counts what a page fetches before it can hydrate; this file
 * counts what it has fetched once the network is idle after hydration.
 */

const BUDGET_BYTES = 125 * 1024;

/** No request in flight for this long: Playwright's (and Lighthouse's) "network idle". */
const NETWORK_IDLE_MS = 500;

/** The build's name for hls.js's chunk (node_modules/hls.js/dist/hls.light.mjs, loaded by shared/player/load-hls.ts). */
const HLS_JS_CHUNK = /\/assets\/hls\.light-[\w-]+\.js$/;

/** Every declared route's first page and its first 404, as tests/worker/js-budget.test.ts takes them; a player page on both engines. */
function pagesToLoad(): string[] {
  const first = (samples: readonly Sample[]) => [...new Set(samples.map((s) => s.route))].flatMap((route) => samples.find((s) => s.route === route) ?? []);
  const pages = first(PAGE_SAMPLES).flatMap(({ route, url }) =>
    route.player ? ["native", "hlsjs"].map((engine) => `${url}${url.includes("?") ? "&" : "?"}engine=${engine}`) : [url],
  );
  const missing = first(MISSING_SAMPLES)
    .map((s) => s.url)
    .filter((url) => !pages.includes(url));
  return [...pages, ...missing];
}

interface ScriptFile {
  path: string;
  gzipBytes: number;
}

interface PageFigures {
  url: string;
  /** The engine the player ran (its data-engine), null without a player. */
  engine: string | null;
  /** Every script file loaded by network idle, once each, in the order their responses came. */
  files: ScriptFile[];
  /** Their gzip bytes, hls.js left out where the page chose it. */
  counted: number;
  /** The files left out (hls.js on the hls.js path). */
  leftOut: string[];
}

/** Resolves once no request of the page has been in flight for NETWORK_IDLE_MS (a timer re-armed by every request event). */
function trackNetwork(page: Page): { idle: () => Promise<void> } {
  let inFlight = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiter: (() => void) | null = null;
  const arm = () => {
    clearTimeout(timer);
    if (inFlight === 0 && waiter) timer = setTimeout(() => waiter?.(), NETWORK_IDLE_MS);
  };
  page.on("request", () => {
    inFlight++;
    arm();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    arm();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return {
    idle: () =>
      new Promise<void>((resolve) => {
        waiter = resolve;
        arm();
      }),
  };
}

async function loadUntilIdle(url: string): Promise<PageFigures> {
  const context = await browser().newContext({ viewport: PHONE, locale: "zh-CN", hasTouch: true, isMobile: true });
  try {
    const { page } = await newPage(context);
    const network = trackNetwork(page);
    // By path: a file fetched twice (a preload and its import) counts once.
    const files = new Map<string, Promise<ScriptFile>>();
    page.on("response", (response: Response) => {
      if (response.request().resourceType() !== "script") return;
      const path = new URL(response.url()).pathname;
      if (files.has(path)) return;
      files.set(
        path,
        response.body().then((body) => {
          expect(response.status(), path).toBe(200);
          return { path, gzipBytes: gzipSync(body, { level: 9 }).length };
        }),
      );
    });
    await page.goto(baseURL() + url, { waitUntil: "commit" });
    // Hydrated (and the player island with it), the effects that follow have run, then the network went quiet.
    await waitForHydration(page);
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
    await network.idle();
    const engine = await page.evaluate(() => document.querySelector<HTMLElement>(".player")?.dataset.engine ?? null);
    const loaded = await Promise.all(files.values());
    const leftOut = engine === "hlsjs" ? loaded.filter((f) => HLS_JS_CHUNK.test(f.path)).map((f) => f.path) : [];
    const counted = loaded.filter((f) => !leftOut.includes(f.path)).reduce((sum, f) => sum + f.gzipBytes, 0);
    return { url, engine, files: loaded, counted, leftOut };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function table(figures: readonly PageFigures[]): string {
  return figures
    .map((f) => {
      const over = f.counted > BUDGET_BYTES;
      const head = `${over ? "OVER" : "ok  "} ${f.url.padEnd(44)} ${kb(f.counted).padStart(9)} gzip, ${f.files.length - f.leftOut.length} scripts${f.engine ? ` (engine ${f.engine}${f.leftOut.length ? `; hls.js left out: ${f.leftOut.join(", ")}` : ""})` : ""}`;
      if (!over) return head;
      const files = [...f.files].sort((a, b) => b.gzipBytes - a.gzipBytes).map((s) => `       ${kb(s.gzipBytes).padStart(9)}  ${s.path}`);
      return [head, ...files].join("\n");
    })
    .join("\n");
}

const browser = browserForFile();

describe("JavaScript loaded by network idle, without interaction", () => {
  it("every route's page stays within 125 KB gzip (hls.js left out where the page plays with it)", async () => {
    const pages = pagesToLoad();
    const figures: PageFigures[] = [];
    // A few pages at once (each in its own context: a first visit), in the order listed.
    for (let i = 0; i < pages.length; i += 3) figures.push(...(await Promise.all(pages.slice(i, i + 3).map(loadUntilIdle))));

    // Each player page ran the engine it was sent to, and on the hls.js path hls.js was loaded and left out.
    for (const f of figures.filter((x) => /[?&]engine=/.test(x.url))) {
      expect(f.url).toContain(`engine=${f.engine ?? "none"}`);
      if (f.engine === "hlsjs") expect(f.leftOut, f.url).toHaveLength(1);
    }
    const over = figures.filter((f) => f.counted > BUDGET_BYTES).map((f) => `${f.url} ${kb(f.counted)}`);
    expect(over, `JavaScript by network idle (budget ${kb(BUDGET_BYTES)} gzip):\n${table(figures)}\n`).toEqual([]);
  }, 240_000);
});
