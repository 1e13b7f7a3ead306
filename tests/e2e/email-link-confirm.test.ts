import type { BrowserContext } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, browserForFile, newPage, waitForHydration } from "./browser";
import { newVisitor, PASSWORD, uniqueEmail } from "./visitors";

/**
 * An e-mail link never changes who is signed in by itself (worker/auth/email-links.ts): an
 * attacker who changes their own address and sends the link to a signed-in victim gets nothing —
 * the victim sees a confirmation page that says who they are signed in as, stays themselves after
 * confirming, is told the link is another account's, and their library stays out of that account.
 */

const browser = browserForFile();

interface Account {
  email: string;
  library: { favourites: string[] } | null;
}

async function accountOf(context: BrowserContext): Promise<Account | null> {
  const res = await context.request.get(baseURL() + "/api/auth/user");
  const body = (await res.json()) as { user: { email: string } | null; library: { favourites: string[] } | null };
  return body.user ? { email: body.user.email, library: body.library } : null;
}

async function signUp(context: BrowserContext, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const res = await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status()).toBe(200);
  return email;
}

/** Asks to move the signed-in account to a new address; the link mailed there (development mailbox). */
async function emailChangeLink(context: BrowserContext, newEmail: string): Promise<string> {
  expect((await context.request.put(baseURL() + "/api/auth/email", { data: { email: newEmail } })).status()).toBe(200);
  const mails = (await (await context.request.get(`${baseURL()}/dev/mail.json?to=${encodeURIComponent(newEmail)}`)).json()) as Array<{ text: string }>;
  const link = /https?:\/\/\S+/.exec(mails[0]?.text ?? "")?.[0];
  expect(link).toBeDefined();
  return link!;
}

describe("an e-mail link sent to someone else", () => {
  it("the signed-in victim stays themselves, is told the link is another account's, and keeps their library", async () => {
    const site = baseURL();
    const attacker = await newVisitor(browser());
    const victim = await newVisitor(browser());
    await signUp(attacker, "attacker");
    const attackerNew = uniqueEmail("attacker-new");
    const link = await emailChangeLink(attacker, attackerNew);
    expect(new URL(link).pathname).toBe("/auth/confirm");

    const victimEmail = await signUp(victim, "victim");
    const { page, log } = await newPage(victim);
    // The victim's browser holds their library (a favourite saved in the page).
    await page.goto(site + "/video/video_003", { waitUntil: "domcontentloaded" });
    await waitForHydration(page);
    await page.getByRole("button", { name: /收藏/ }).first().click();
    await expect.poll(async () => (await accountOf(victim))?.library?.favourites).toEqual(["video_003"]);

    // Opening the link: a page that asks; nobody is switched.
    await page.goto(link, { waitUntil: "domcontentloaded" });
    await waitForHydration(page);
    await page.getByText(`您当前已登录为 ${victimEmail}`).waitFor();
    expect((await accountOf(victim))?.email).toBe(victimEmail);

    // Confirming: still the victim, told the link is another account's.
    await Promise.all([page.waitForURL(/\/auth\/confirm\?type=email_change&notice=other-account$/), page.getByRole("button", { name: "确认新邮箱" }).click()]);
    await waitForHydration(page);
    await page.getByRole("heading", { name: "此链接属于另一个账号" }).waitFor();
    await page.getByText(`您仍登录为 ${victimEmail}，没有切换账号。`).waitFor();
    expect((await accountOf(victim))?.email).toBe(victimEmail);

    // The attacker's account got its own change and none of the victim's library.
    const after = await accountOf(attacker);
    expect(after?.email).toBe(attackerNew);
    expect(after?.library?.favourites ?? []).toEqual([]);
    expect(log.errors).toEqual([]);
    await attacker.close();
    await victim.close();
  });

  it("without JavaScript the page is a plain form: its owner, signed out, confirms and is signed in", async () => {
    const site = baseURL();
    const owner = await newVisitor(browser());
    await signUp(owner, "owner");
    const newEmail = uniqueEmail("owner-new");
    const link = await emailChangeLink(owner, newEmail);
    expect((await owner.request.post(site + "/api/auth/sign-out", { data: {} })).status()).toBe(200);

    const plain = await newVisitor(browser(), { javaScriptEnabled: false });
    await plain.addCookies(await owner.cookies());
    const page = await plain.newPage();
    await page.goto(link, { waitUntil: "domcontentloaded" });
    expect(await accountOf(plain)).toBeNull();
    await Promise.all([page.waitForURL(site + "/profile?notice=email-changed"), page.getByRole("button", { name: "确认新邮箱" }).click()]);
    expect((await accountOf(plain))?.email).toBe(newEmail);
    await owner.close();
    await plain.close();
  });
});
