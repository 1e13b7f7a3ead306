// What the 管理后台's end-to-end files share: each screen checked at 390 and 1366 px (axe, no
// horizontal overflow, a screenshot in test-output/screenshots/), and an admin made through
// `npm run admin`'s own function and enrolled through the JSON API with a code the TOTP library
// computes (tests/e2e/admin.test.ts goes through the enrol screen itself).
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { changeRole } from "../../scripts/admin/roles";
import { totpCode } from "../../worker/admin/totp";
import { axeViolations } from "./axe";
import { baseURL, PHONE, screenshot } from "./browser";
import { E2E_STATE } from "./site-env";
import { newVisitor, PASSWORD, uniqueEmail } from "./visitors";

export const DESKTOP_1366 = { width: 1366, height: 900 } as const;

/** The screen at phone and desktop width: screenshot `admin-<name>-<width>`, axe clean, nothing wider than the window. */
export async function shots(page: Page, name: string): Promise<void> {
  for (const [width, viewport] of [
    [390, PHONE],
    [1366, DESKTOP_1366],
  ] as const) {
    await page.setViewportSize(viewport);
    await screenshot(page, `admin-${name}-${width}`);
    expect(await axeViolations(page), `${name} at ${width}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} at ${width}: horizontal overflow`).toBe(true);
  }
}

/** A new account granted `role` (the command line's function, on the e2e site's local state), signed in and past the second step in its own context. */
export async function enrolledAdmin(browser: Browser, role: "admin" | "moderator" = "admin"): Promise<{ email: string; context: BrowserContext }> {
  const email = uniqueEmail(role);
  const context = await newVisitor(browser);
  const signUp = await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(signUp.status()).toBe(200);
  await changeRole({ command: "grant", email, role, remote: false }, { persistPath: path.join(E2E_STATE, "v3"), log: () => {} });
  const headers = { Origin: baseURL() };
  const enrol = await context.request.post(baseURL() + "/api/admin/two-step/enrol", { headers, data: {} });
  expect(enrol.status(), await enrol.text()).toBe(200);
  const secret = ((await enrol.json()) as { secret: string }).secret.replace(/\s/g, "");
  const confirm = await context.request.post(baseURL() + "/api/admin/two-step/confirm", { headers, data: { code: totpCode(secret, Date.now()) } });
  expect(confirm.status(), await confirm.text()).toBe(200);
  return { email, context };
}
