import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations } from "./axe";
import { baseURL, browserForFile, DESKTOP, newPage, open, PHONE, screenshot } from "./browser";
import { go, newVisitor, runTag, signUpViaApi } from "./visitors";

/**
 * 评论区 in Chromium against `wrangler dev` (docs/decisions/0110-comments.md): two accounts post a
 * comment and a reply, like, sort 最热/最新, report a comment, and the first sees 回复我的's unread
 * count on the profile; the comment client loads only when the section comes into view; the first
 * page is there without JavaScript; axe finds nothing on the section (390 and 1440 px).
 */

const browser = browserForFile();

const SAME_SITE = () => ({ Origin: baseURL() });

async function setNickname(context: BrowserContext, nickname: string): Promise<void> {
  const res = await context.request.put(baseURL() + "/api/comments/me/nickname", { data: { nickname }, headers: SAME_SITE() });
  expect(res.status(), await res.text()).toBe(200);
}

/** Scrolls to the 评论区 and waits for its client (the 发表 button is the client's; signed out: the list's buttons answer). */
async function commentsReady(page: Page): Promise<void> {
  await page.locator("#comments").scrollIntoViewIfNeeded();
  await page.locator("#comments section.comments[aria-busy=false]").waitFor();
}

const section = (page: Page) => page.locator("#comments");
/** A top-level comment (its own article first, then its replies) by its text. */
const entry = (page: Page, text: string) =>
  section(page)
    .locator(".comment-list > li.comment")
    .filter({ has: page.locator(".comment-text", { hasText: text }) });

/** Types into the form whose box is labelled `box`, sends, and waits for the text to be on the page. */
async function send(page: Page, box: string, text: string): Promise<void> {
  const form = section(page)
    .locator("form.comment-form")
    .filter({ has: page.getByLabel(box, { exact: true }) });
  await form.getByLabel(box, { exact: true }).fill(text);
  await form.getByRole("button", { name: "发表" }).click();
  await section(page).locator(".comment-text", { hasText: text }).waitFor();
}

describe("评论区", () => {
  it("two accounts comment, reply, like, sort and report; 回复我的 counts the reply", async () => {
    const title = "/video/video_044";
    const first = `第一条评论 ${runTag}`;
    const second = `第二条评论 ${runTag}`;
    const reply = `回复一下 ${runTag}`;
    const a = await newVisitor(browser(), { viewport: PHONE });
    await signUpViaApi(a, "comments-a");
    await setNickname(a, `甲${runTag}`);
    const b = await newVisitor(browser(), { viewport: DESKTOP });
    await signUpViaApi(b, "comments-b");
    await setNickname(b, `乙${runTag}`);

    const { page: pageA } = await open(a, title);
    const loaded: string[] = [];
    pageA.on("request", (r) => void (/CommentsClient-[\w-]+\.js$/.test(r.url()) && loaded.push(r.url())));
    expect(loaded, "the comment client is not loaded before the section is in view").toEqual([]);
    await commentsReady(pageA);
    expect(loaded).toHaveLength(1);
    await send(pageA, "发表评论", first);
    await entry(pageA, first).getByText(`甲${runTag}`).waitFor();

    const { page: pageB } = await open(b, title);
    await commentsReady(pageB);
    const theirs = entry(pageB, first);
    await theirs.getByRole("button", { name: `回复甲${runTag}` }).click();
    await send(pageB, `回复 @甲${runTag}`, reply);
    await section(pageB).getByRole("status").filter({ hasText: "回复成功" }).waitFor();
    await theirs.locator(".comment-replies").getByText(reply).waitFor();
    const like = theirs.locator("article").first().getByRole("button", { name: /^点赞/ });
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
    expect(await like.innerText()).toBe("点赞 1");
    // 举报 of the comment: the dialog's reasons, then the queue's answer.
    await theirs.getByRole("button", { name: `举报甲${runTag}的评论` }).click();
    const dialog = pageB.getByRole("dialog", { name: "举报评论" });
    await dialog.waitFor();
    await dialog.getByRole("radio", { name: "垃圾广告" }).check();
    await dialog.getByRole("button", { name: "提交" }).click();
    await dialog.getByText("举报已提交，感谢你的反馈").waitFor();
    await dialog.getByRole("button", { name: "关闭" }).click();
    expect(await axeViolations(pageB, "#comments"), "the 评论区 at 1440 px").toEqual([]);
    await screenshot(pageB, "comments-1440");

    // A second comment (the rate limit's gap has long passed): 最新 puts it first, 最热 the liked and answered one.
    await send(pageA, "发表评论", second);
    await pageA.reload();
    await commentsReady(pageA);
    const texts = () => section(pageA).locator(".comment-list > li.comment > article .comment-text").allInnerTexts();
    expect((await texts()).slice(0, 2)).toEqual([first, second]);
    await section(pageA).getByRole("button", { name: "最新" }).click();
    await expect.poll(async () => (await texts()).slice(0, 2)).toEqual([second, first]);
    expect(await section(pageA).getByRole("button", { name: "最新" }).getAttribute("aria-pressed")).toBe("true");
    expect(await axeViolations(pageA, "#comments"), "the 评论区 at 390 px").toEqual([]);
    await screenshot(pageA, "comments-390");

    // 回复我的 on A's profile: one unread reply, then read.
    await go(pageA, "/profile");
    const inbox = pageA.locator("section.comment-inbox");
    await inbox.getByText("1 条未读").waitFor();
    await inbox.getByText(reply).waitFor();
    expect(await axeViolations(pageA, "section.comment-inbox"), "the profile's 回复我的").toEqual([]);
    await inbox.getByRole("button", { name: "全部标为已读" }).click();
    await inbox.getByText("1 条未读").waitFor({ state: "detached" });
    await a.close();
    await b.close();
  });

  it("the first page is in the HTML without JavaScript, with Comment structured data", async () => {
    const writer = await newVisitor(browser());
    await signUpViaApi(writer, "comments-nojs");
    const text = `不用脚本也能读到 ${runTag}`;
    const res = await writer.request.post(baseURL() + "/api/comments/title/video_045", { data: { text }, headers: SAME_SITE() });
    expect(res.status(), await res.text()).toBe(201);
    await writer.close();

    const reader = await newVisitor(browser(), { viewport: PHONE, javaScriptEnabled: false });
    const { page } = await newPage(reader);
    await page.goto(baseURL() + "/video/video_045");
    await section(page).getByText(text).waitFor();
    expect(await section(page).locator(".comments-count").innerText()).toBe("1");
    await section(page).getByRole("link", { name: "登录" }).waitFor();
    const data = await page.locator('script[type="application/ld+json"]').allTextContents();
    const comments = data.map((d) => JSON.parse(d) as { comment?: Array<{ "@type": string; text: string }> }).find((d) => d.comment);
    expect(comments?.comment?.[0]).toMatchObject({ "@type": "Comment", text });
    await screenshot(page, "comments-nojs-390");
    await reader.close();
  });
});
