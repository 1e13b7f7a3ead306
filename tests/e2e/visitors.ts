// Unique visitors for the e2e layer: addresses and e-mails no other test (or earlier run against
// the same state) uses, so per-address and per-account limits of one test never reach another.
// `wrangler dev` keeps a CF-Connecting-IP sent by the client, so each browser context can be its
// own visitor.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DESKTOP, open, type ConsoleLog } from "./browser";

export const PASSWORD = "e2e-secret-1";

/** A tag unique to this test process: it keeps addresses and texts apart across runs and files. */
export const runTag = crypto.randomUUID().slice(0, 4);
let ipSeq = 0;
let emailSeq = 0;

/**
 * An IPv6 address (documentation range) nobody else uses in this run, each in its own /64: the
 * play counter and other per-network limits count a /64 as one network.
 */
export const uniqueIp = (): string => `2001:db8:${runTag}:${(++ipSeq).toString(16)}::e2e`;

/** An e-mail address nobody else uses, in this run or any earlier one on the same state. */
export const uniqueEmail = (tag: string): string => `${tag}-${runTag}${(++emailSeq).toString(36)}-${crypto.randomUUID().slice(0, 6)}@example.com`;

export interface VisitorOptions {
  viewport?: { width: number; height: number };
  javaScriptEnabled?: boolean;
  /** Extra context options (e.g. hasTouch, isMobile). */
  hasTouch?: boolean;
  isMobile?: boolean;
}

/** A browser context that is its own visitor: zh-CN, its own address. */
export function newVisitor(
  browser: Browser,
  { viewport = DESKTOP, javaScriptEnabled = true, hasTouch, isMobile }: VisitorOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({ viewport, locale: "zh-CN", javaScriptEnabled, hasTouch, isMobile, extraHTTPHeaders: { "CF-Connecting-IP": uniqueIp() } });
}

/** A new visitor (its own context) with a hydrated page at `path`; close the context when done. */
export async function visit(browser: Browser, path: string, options: VisitorOptions = {}): Promise<{ context: BrowserContext; page: Page; log: ConsoleLog }> {
  const context = await newVisitor(browser, options);
  const { page, log } = await open(context, path);
  return { context, page, log };
}
