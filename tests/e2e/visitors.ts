// Unique visitors for the e2e layer: addresses and e-mails no other test (or earlier run against
// the same state) uses, so per-address and per-account limits of one test never reach another.
// `wrangler dev` keeps a CF-Connecting-IP sent by the client, so each browser context can be its
// own visitor.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { baseURL, DESKTOP, open, waitForHydration, type ConsoleLog } from "./browser";

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

// ---- accounts in the browser: pages, the header, the auth form ------------------------------

/** Failed responses of each page, to say why a page did not hydrate. */
export const failedResponses = new WeakMap<Page, string[]>();

export function watchFailures(page: Page): void {
  if (failedResponses.has(page)) return;
  const failures: string[] = [];
  failedResponses.set(page, failures);
  page.on("response", (r) => {
    if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
  });
}

export async function hydrated(page: Page): Promise<void> {
  try {
    await waitForHydration(page);
  } catch (error) {
    throw new Error(`${page.url()} did not hydrate; failed responses: ${JSON.stringify(failedResponses.get(page) ?? [])}`, { cause: error });
  }
}

/** Goes to `path` and waits for hydration (not for media: the player's video may still load). */
export async function go(page: Page, path: string): Promise<void> {
  watchFailures(page);
  await page.goto(baseURL() + path, { waitUntil: "domcontentloaded" });
  await hydrated(page);
}

/** A new account made through the worker's API; the context is signed in afterwards. */
export async function signUpViaApi(context: BrowserContext, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const res = await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status()).toBe(200);
  return email;
}

/** Signs the context out through the worker's API. */
export async function signOutViaApi(context: BrowserContext): Promise<void> {
  const res = await context.request.post(baseURL() + "/api/auth/sign-out", { data: {} });
  expect(res.status()).toBe(200);
}

export const header = (page: Page) => page.locator(".site-header .header-account");
export const errorBox = (page: Page) => page.locator(".auth-error");
export const submit = (page: Page) => page.locator(".auth-form button[type=submit]");
export const field = (page: Page, name: "email" | "password" | "confirmPassword") => page.locator(`.auth-form input[name=${name}]`);

export async function expectSignedInHeader(page: Page): Promise<void> {
  await header(page).getByRole("link", { name: "个人中心" }).waitFor();
  await header(page).getByRole("button", { name: "退出登录" }).waitFor();
  expect(await header(page).getByRole("link", { name: "登录/注册" }).count()).toBe(0);
}

export async function expectSignedOutHeader(page: Page): Promise<void> {
  await header(page).getByRole("link", { name: "登录/注册" }).waitFor();
  expect(await header(page).getByRole("link", { name: "个人中心" }).count()).toBe(0);
  expect(await header(page).getByRole("button", { name: "退出登录" }).count()).toBe(0);
}

export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await field(page, "email").fill(email);
  await field(page, "password").fill(password);
}

export async function fillSignUp(page: Page, email: string, password: string, confirm: string): Promise<void> {
  await field(page, "email").fill(email);
  await field(page, "password").fill(password);
  await field(page, "confirmPassword").fill(confirm);
}

/** Signs in through the form of /auth (JavaScript on) and waits for the home page. */
export async function signInWithForm(page: Page, email: string): Promise<void> {
  await go(page, "/auth");
  await fillSignIn(page, email, PASSWORD);
  await submit(page).click();
  await page.waitForURL(baseURL() + "/");
  await expectSignedInHeader(page);
}

export const path = (page: Page) => new URL(page.url()).pathname;
