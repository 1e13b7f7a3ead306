import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { changeRole } from "../../scripts/admin/roles";
import { totpCode } from "../../worker/admin/totp";
import { axeViolations } from "./axe";
import { baseURL, browserForFile, newPage, PHONE, screenshot } from "./browser";
import { E2E_STATE } from "./site-env";
import { newVisitor, runTag, signUpViaApi } from "./visitors";

/**
 * 视频管理 in Chromium against `wrangler dev` (docs/admin.md): an admin (granted with
 * `npm run admin`'s function, enrolled through the API with a code from the TOTP library) creates
 * a series with one episode in the form, publishes it, gives it a cover made in the browser (a
 * PNG drawn on a canvas, turned into a 640×360 WebP by the admin script), finds it on
 * /category/all, in search and in the provide API, takes it down from the list and sees its page
 * answer 404. Each screen is audited with axe at 360, 390 and 1366 px and saved at 390 and 1366
 * (test-output/screenshots/).
 */

const browser = browserForFile();
const SCREEN_WIDTHS = [
  [360, { width: 360, height: 780 }],
  [390, PHONE],
  [1366, { width: 1366, height: 900 }],
] as const;

async function shots(page: Page, name: string): Promise<void> {
  for (const [width, viewport] of SCREEN_WIDTHS) {
    await page.setViewportSize(viewport);
    if (width !== 360) await screenshot(page, `admin-${name}-${width}`);
    expect(await axeViolations(page), `${name} at ${width}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} fits ${width} px`).toBe(true);
  }
}

/** An admin whose context is past the second step. */
async function enrolledAdmin(): Promise<BrowserContext> {
  const context = await newVisitor(browser());
  const email = await signUpViaApi(context, "titles-admin");
  await changeRole({ command: "grant", email, role: "admin", remote: false }, { persistPath: path.join(E2E_STATE, "v3"), log: () => {} });
  const headers = { Origin: baseURL() };
  const enrol = await context.request.post(baseURL() + "/api/admin/two-step/enrol", { headers, data: {} });
  expect(enrol.status()).toBe(200);
  const secret = ((await enrol.json()) as { secret: string }).secret.replace(/\s/g, "");
  const confirm = await context.request.post(baseURL() + "/api/admin/two-step/confirm", { headers, data: { code: totpCode(secret, Date.now()) } });
  expect(confirm.status()).toBe(200);
  return context;
}

/** A PNG of `width`×`height` drawn by the page (the picture an operator would choose). */
async function pngFrom(page: Page, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "#1d5fd1";
      context.fillRect(0, 0, w, h);
      context.fillStyle = "#f5c400";
      context.fillRect(w / 4, h / 4, w / 2, h / 2);
      return canvas.toDataURL("image/png");
    },
    [width, height] as const,
  );
  return Buffer.from(dataUrl.split(",")[1], "base64");
}

describe("视频管理", () => {
  it("create a series with an episode, publish it, find it everywhere, take it down: 404", async () => {
    const context = await enrolledAdmin();
    const { page, log } = await newPage(context);
    const number = 9300 + Math.floor(Math.random() * 600);
    const id = `video_${number}`;
    const name = `管理测试剧${runTag}`;

    await page.goto(baseURL() + "/admin/titles");
    await page.getByRole("heading", { name: "视频管理" }).waitFor();
    await shots(page, "titles");

    await page.getByRole("link", { name: "新建视频" }).click();
    await page.getByRole("heading", { name: "新建视频" }).waitFor();
    await page.getByLabel("编号").fill(id);
    await page.getByLabel("标题").fill(name);
    await page.getByLabel("年份").fill("2100");
    await page.getByLabel("评分").fill("9.9");
    await page.getByLabel("时长", { exact: true }).fill("45:00");
    await page.getByLabel("简介").fill("管理后台端到端测试建立的剧集。");
    await page.getByLabel("分类").fill("电视剧，剧情");
    await page.getByLabel("视频文件", { exact: true }).fill(`${number}.mp4`);
    await page.getByLabel("封面文件").fill(`${number}.webp`);
    // 剧集: the blank row of the 剧集 rows (the title's own file: it is episode 1).
    await page.getByLabel("新的一集：视频文件").fill(`${number}.mp4`);
    await page.getByLabel("新的一集：时长").fill("45:00");
    await page.getByLabel("新的一集：名称").fill("第1集：开端");
    await page.getByLabel("已发布（立即公开）").check();
    await shots(page, "title-new");
    await page.getByRole("button", { name: "创建" }).click();
    await page.waitForURL(`${baseURL()}/admin/titles/${id}?done=created`);
    await page.getByText("已创建").waitFor();

    // The cover: a 1200×900 PNG becomes a 640×360 WebP in the browser, stored as the title's N.webp.
    await page.getByLabel(/上传新封面/).setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await pngFrom(page, 1200, 900) });
    await page.getByText(/封面已更新（640×360/).waitFor();
    const cover = await context.request.get(`${baseURL()}/${number}.webp`);
    expect(cover.headers()["content-type"]).toBe("image/webp");
    const bytes = await cover.body();
    expect(bytes.subarray(0, 4).toString("latin1") + bytes.subarray(8, 12).toString("latin1")).toBe("RIFFWEBP");
    const shown = await page.evaluate(async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      return [image.naturalWidth, image.naturalHeight];
    }, `/${number}.webp?check=1`);
    expect(shown).toEqual([640, 360]);
    await shots(page, "title-edit");

    // A viewer finds it on /category/all, in search and in the provide API.
    const viewer = await newVisitor(browser());
    const { page: look } = await newPage(viewer);
    await look.goto(`${baseURL()}/category/all?sort=latest`);
    await look.locator(`a[href="/video/${id}"]`).first().waitFor();
    await look.goto(`${baseURL()}/search?q=${encodeURIComponent(name)}`);
    await look.locator(`a[href="/video/${id}"]`).first().waitFor();
    const provide = await viewer.request.get(`${baseURL()}/api.php/provide/vod/?ac=detail&wd=${encodeURIComponent(name)}`);
    expect(((await provide.json()) as { list: Array<{ vod_name: string }> }).list.map((v) => v.vod_name)).toContain(name);
    expect((await look.goto(`${baseURL()}/video/${id}`))?.status()).toBe(200);

    // Taken down from the list: its page answers 404 to the viewer.
    await page.goto(`${baseURL()}/admin/titles?q=${encodeURIComponent(name)}`);
    await page.getByRole("checkbox", { name: `选择 ${name}` }).check();
    await page.getByLabel("对选中的视频").selectOption("unpublish");
    await page.getByRole("button", { name: "执行" }).click();
    await page.getByText("已下架 1 个视频").waitFor();
    expect(await page.locator(".state-unpublished").count()).toBe(1);
    expect((await look.goto(`${baseURL()}/video/${id}`))?.status()).toBe(404);
    const gone = await viewer.request.get(`${baseURL()}/api.php/provide/vod/?ac=detail&wd=${encodeURIComponent(name)}`);
    expect(((await gone.json()) as { list: unknown[] }).list).toEqual([]);

    expect(log.errors).toEqual([]);
    await viewer.close();
    await context.close();
  });
});
