/**
 * A bench page behind a link (scripts/bench-video/): a new browser context (a first visit, an
 * empty cache) with its CDP session, the browser's own link estimate set to the link's, and on
 * `--throttle cdp` Chromium's network emulation; and a count of the JavaScript a page loads.
 */
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from "playwright-core";
import type { NetworkProfile } from "./measure";

export interface ThrottledPage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}

/** A phone at 390 px with touch, as the first-tap figures of issue 31 were taken. */
export const TOUCH_PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

/**
 * `throttle` "front": the caller has set the front's link for this page; "cdp": Chromium emulates it.
 * `initScripts` run in the page before its own (after tsx's `__name` helper).
 */
export async function throttledPage(
  browser: Browser,
  profile: NetworkProfile,
  throttle: "front" | "cdp",
  contextOptions: BrowserContextOptions,
  initScripts: ReadonlyArray<() => void>,
): Promise<ThrottledPage> {
  const context = await browser.newContext(contextOptions);
  // tsx (esbuild keepNames) wraps named functions in `__name(…)`: give the page that helper too.
  await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  for (const script of initScripts) await context.addInitScript(script);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  // The browser's own estimate of the link (navigator.connection), as on a phone that has been on
  // this link for a while: the page's engine choice reads it (decision 0059). It changes no byte's
  // timing: the link itself is the front's (or CDP's, below).
  const conditions = { offline: false, latency: profile.rttMs, downloadThroughput: profile.downBps / 8, uploadThroughput: profile.upBps / 8 };
  await cdp.send("Network.overrideNetworkState", conditions);
  if (throttle === "cdp") await cdp.send("Network.emulateNetworkConditions", conditions);
  return { context, page, cdp };
}

/** The build's name for hls.js's chunk (node_modules/hls.js/dist/hls.light.mjs, shared/player/load-hls.ts). */
export const HLS_JS_CHUNK = /\/assets\/hls\.light-[\w-]+\.js$/;

export interface ScriptCount {
  /** gzip -9 bytes of every script file the page loaded while counting, hls.js left out where `leaveOutHlsJs`. */
  gzipBytes: number;
  files: number;
}

/**
 * Counts the script files a page loads (CDP, type Script; each file once), from now until
 * `stop()`: their bodies gzip -9, as tests/e2e/js-budget-idle.test.ts and `npm run bench` count
 * (the front's own compression is brotli where the browser asks for it).
 */
export function recordScripts(cdp: CDPSession): { stop: () => void; count: (leaveOutHlsJs: boolean) => Promise<ScriptCount> } {
  const scripts = new Map<string, string>();
  const sizes = new Map<string, Promise<number>>();
  let open = true;
  cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string }; type?: string }) => {
    if (open && e.type === "Script") scripts.set(e.requestId, new URL(e.request.url).pathname);
  });
  cdp.on("Network.loadingFinished", (e: { requestId: string }) => {
    const path = scripts.get(e.requestId);
    if (path === undefined || sizes.has(path)) return;
    sizes.set(
      path,
      cdp.send("Network.getResponseBody", { requestId: e.requestId }).then(
        ({ body, base64Encoded }) => gzipSync(Buffer.from(body, base64Encoded ? "base64" : "utf8"), { level: 9 }).length,
        () => 0,
      ),
    );
  });
  return {
    stop: () => void (open = false),
    count: async (leaveOutHlsJs) => {
      const counted = [...sizes.entries()].filter(([path]) => !(leaveOutHlsJs && HLS_JS_CHUNK.test(path)));
      const bytes = await Promise.all(counted.map(([, size]) => size));
      return { gzipBytes: bytes.reduce((a, b) => a + b, 0), files: counted.length };
    },
  };
}
