import { describe, expect, it } from "vitest";
import { browserForFile } from "./browser";
import { PASSWORD, uniqueEmail, visit } from "./visitors";

/**
 * Every account form (shared/components/useAuthForm.ts) when its request never gets an answer (the
 * connection fails): the form shows 操作失败，请重试, nothing is left as an uncaught error, and the
 * button can be pressed again.
 */

const browser = browserForFile();

const FORMS = [
  { name: "sign-in", path: "/auth", api: "sign-in", button: "登录", fields: { email: "e", password: PASSWORD } },
  { name: "sign-up", path: "/auth?mode=signup", api: "sign-up", button: "注册", fields: { email: "e", password: PASSWORD, confirmPassword: PASSWORD } },
  { name: "忘记密码", path: "/auth?mode=forgot", api: "recover", button: "发送重设邮件", fields: { email: "e" } },
  {
    name: "设置新密码",
    path: "/auth/reset?token_hash=never-sent",
    api: "reset",
    button: "设置新密码",
    fields: { password: PASSWORD, confirmPassword: PASSWORD },
  },
] as const;

describe("account forms on a failed connection", () => {
  for (const form of FORMS) {
    it(`${form.name}: 操作失败，请重试, and the button works again`, async () => {
      const { context, page, log } = await visit(browser(), form.path);
      try {
        let aborted = 0;
        await page.route(`**/api/auth/${form.api}`, (route) => {
          aborted += 1;
          return route.abort("connectionfailed");
        });
        for (const [name, value] of Object.entries(form.fields)) {
          await page.locator(`.auth-form input[name=${name}]`).fill(name === "email" ? uniqueEmail("offline") : value);
        }
        const submit = page.locator(".auth-form button[type=submit]");
        await submit.click();
        await expect.poll(() => page.locator(".auth-error").textContent()).toBe("操作失败，请重试");
        await expect.poll(() => submit.isEnabled()).toBe(true);
        expect(await submit.textContent()).toBe(form.button);

        await submit.click();
        await expect.poll(() => aborted).toBe(2);
        await expect.poll(() => submit.isEnabled()).toBe(true);
        expect(await page.locator(".auth-error").textContent()).toBe("操作失败，请重试");
        expect(log.errors.filter((e) => e.startsWith("pageerror"))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
