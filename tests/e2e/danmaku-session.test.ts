import type { BrowserContext, Page, WebSocket } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../shared/danmaku/model";
import { baseURL, browserForFile, open } from "./browser";
import { newVisitor, PASSWORD, runTag, uniqueEmail } from "./visitors";

/**
 * 弹幕 after signing out elsewhere, in Chromium against `wrangler dev`: a viewer signed in on a
 * video page signs out everywhere from another tab of the same browser; the first page's socket,
 * still open, may no longer post — its comment is refused (the viewer reads why, in Chinese) and
 * never reaches a second viewer of the video, nor the room's stored comments.
 */

const browser = browserForFile();

const VIDEO = "video_009";
/** The room's comments, read past the 5 s edge cache of the page's own window request (another URL). */
const STORED = `/api/danmaku/${VIDEO}?from=0&to=86399`;

async function signUp(context: BrowserContext, tag: string): Promise<void> {
  const email = uniqueEmail(tag);
  const res = await context.request.post(baseURL() + "/api/auth/sign-up", { data: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status()).toBe(200);
}

/** Every message the pages of `context` receive on their 弹幕 sockets (listening from before the page loads). */
function roomMessages(context: BrowserContext): ServerMessage[] {
  const messages: ServerMessage[] = [];
  const listen = (ws: WebSocket) => {
    if (!ws.url().includes("/api/danmaku/")) return;
    ws.on("framereceived", (frame) => messages.push(JSON.parse(String(frame.payload)) as ServerMessage));
  };
  context.on("page", (page: Page) => page.on("websocket", listen));
  return messages;
}

/** The video page with the 弹幕 bar mounted and the room's socket saying hello. */
async function openVideo(context: BrowserContext, messages: ServerMessage[]): Promise<Page> {
  const { page } = await open(context, `/video/${VIDEO}`);
  await page.locator(".danmaku-bar").waitFor();
  await expect.poll(() => messages.some((m) => m.type === "hello"), { timeout: 15_000 }).toBe(true);
  // The local clips last a few seconds and the player moves on to another video at the end: stay on this one.
  await page.evaluate(() => {
    (document.querySelector("video") as HTMLVideoElement).loop = true;
  });
  return page;
}

const texts = (messages: ServerMessage[]) => messages.flatMap((m) => (m.type === "comment" || m.type === "ack" ? [m.comment.text] : []));

describe("弹幕 and the session", () => {
  it("after signing out everywhere in another tab, the open page's socket can no longer post", async () => {
    const [poster, watcher, other] = [await newVisitor(browser()), await newVisitor(browser()), await newVisitor(browser())];
    const posterMessages = roomMessages(poster);
    const watcherMessages = roomMessages(watcher);
    await signUp(poster, "dms-e2e");
    const page = await openVideo(poster, posterMessages);
    expect(posterMessages.find((m) => m.type === "hello")).toMatchObject({ canPost: true });
    await openVideo(watcher, watcherMessages);

    // Another tab of the same browser signs out everywhere (a request of that page, like a sign-out
    // on another device: the account client's tab broadcast would also switch the first page's bar
    // to 登录后发送弹幕, and nothing would be typed into it).
    const { page: tab } = await open(poster, "/");
    const status = await tab.evaluate(async () => {
      const res = await fetch("/api/auth/sign-out", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ scope: "global" }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    expect(await (await poster.request.get(baseURL() + "/api/auth/user")).json()).toMatchObject({ user: null });

    // The first page still shows the input (it has not reloaded) and its socket is open.
    const text = `登出后发送${runTag}`;
    const input = page.getByRole("textbox", { name: "弹幕内容" });
    await input.fill(text);
    await input.press("Enter");
    await expect.poll(() => page.locator(".danmaku-message").textContent()).toBe("请先登录后再发送弹幕");
    // The socket refused it first (the session ended); the page then tried DPlayer's POST, which has no session either.
    expect(posterMessages.filter((m) => m.type === "error")).toEqual([
      expect.objectContaining({ code: "sessionEnded", message: "登录已失效，请重新登录后再发送弹幕" }) as ServerMessage,
    ]);
    expect(await itemCount(page, text)).toBe(0);

    // A later comment of someone else reaches the second viewer: the refused one never came before it.
    await signUp(other, "dms-e2e-other");
    const marker = `之后的弹幕${runTag}`;
    const posted = await other.request.post(baseURL() + "/api/danmaku/v3/", {
      data: { id: VIDEO, time: 1, text: marker, color: 0xffffff, type: 0 },
      headers: { Origin: baseURL() },
    });
    expect(posted.status()).toBe(200);
    await expect.poll(() => texts(watcherMessages).includes(marker), { timeout: 10_000 }).toBe(true);
    expect(texts(watcherMessages)).not.toContain(text);
    expect(texts(posterMessages)).not.toContain(text);
    const stored = (await (await watcher.request.get(baseURL() + STORED)).json()) as { comments: Array<{ text: string }> };
    expect(stored.comments.map((c) => c.text)).not.toContain(text);

    await Promise.all([poster.close(), watcher.close(), other.close()]);
  });
});

function itemCount(page: Page, text: string): Promise<number> {
  return page.locator(".danmaku-layer .danmaku-item", { hasText: text }).count();
}
