import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { failureMessage, initialAuthForm, nextAuthForm, settleSubmission, type AuthFormState } from "../../shared/auth-form";
import { GENERIC_AUTH_ERROR } from "../../shared/auth-messages";
import { ConfirmPasswordField, EmailField, PasswordField } from "../../shared/components/AuthFields";

/** The state, messages and fields every account form shares (shared/auth-form.ts, shared/components/AuthFields.tsx). */

describe("account form state", () => {
  it("opens idle, or showing the message of the no-JavaScript path", () => {
    expect(initialAuthForm(null)).toEqual({ status: "idle", error: null });
    expect(initialAuthForm("邮箱或密码错误")).toEqual({ status: "error", error: "邮箱或密码错误" });
  });

  it("goes idle → submitting → done, or → error with the message", () => {
    const submitting = nextAuthForm(initialAuthForm(null), { type: "submit" });
    expect(submitting).toEqual({ status: "submitting", error: null });
    expect(nextAuthForm(submitting, { type: "settled", error: null })).toEqual({ status: "done", error: null });
    expect(nextAuthForm(submitting, { type: "settled", error: "邮箱或密码错误" })).toEqual({ status: "error", error: "邮箱或密码错误" });
  });

  it("clears the old message when sent again, and ignores a second submit while one is under way", () => {
    const failed: AuthFormState = { status: "error", error: "邮箱或密码错误" };
    const again = nextAuthForm(failed, { type: "submit" });
    expect(again).toEqual({ status: "submitting", error: null });
    expect(nextAuthForm(again, { type: "submit" })).toBe(again);
  });

  it("shows a client-side message, and clears it (a switched mode)", () => {
    const invalid = nextAuthForm(initialAuthForm(null), { type: "show", error: "密码确认不匹配" });
    expect(invalid).toEqual({ status: "error", error: "密码确认不匹配" });
    expect(nextAuthForm(invalid, { type: "show", error: null })).toEqual({ status: "idle", error: null });
  });
});

describe("account form messages", () => {
  it("shows a failure's own Chinese text, else 操作失败，请重试; no failure, no message", () => {
    expect(failureMessage({ code: "invalid_credentials", message: "邮箱或密码错误" })).toBe("邮箱或密码错误");
    expect(failureMessage({ code: "unknown", message: "" })).toBe(GENERIC_AUTH_ERROR);
    expect(failureMessage(null)).toBeNull();
  });

  it("passes a submission's message through", async () => {
    await expect(settleSubmission(() => Promise.resolve("邮箱或密码错误"))).resolves.toBe("邮箱或密码错误");
    await expect(settleSubmission(() => Promise.resolve(null))).resolves.toBeNull();
  });

  it("turns a submission that throws (a failed fetch) into 操作失败，请重试, never a rejection", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(settleSubmission(() => Promise.reject(new TypeError("Failed to fetch")))).resolves.toBe(GENERIC_AUTH_ERROR);
      await expect(
        settleSubmission(() => {
          throw new Error("synchronous");
        }),
      ).resolves.toBe(GENERIC_AUTH_ERROR);
      expect(logged).toHaveBeenCalledTimes(2);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("account form fields", () => {
  const none = () => {};

  it("the e-mail field: labelled 邮箱, name=email, autocomplete=email", () => {
    const html = renderToStaticMarkup(<EmailField value="" onChange={none} />);
    expect(html).toBe(
      '<label class="field"><span class="field-label">邮箱</span><input type="email" required="" autoComplete="email" inputMode="email" placeholder="name@example.com" name="email" value=""/></label>',
    );
  });

  it("the password with 显示/隐藏: its label points at it; the button is outside the label", () => {
    const html = renderToStaticMarkup(
      <PasswordField label="密码" autoComplete="current-password" placeholder="请输入密码" value="" onChange={none} toggle={{ shown: true, onToggle: none }} />,
    );
    const id = /<input id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<label class="field-label" for="${id}">密码</label>`);
    expect(html).toContain('type="text"');
    expect(html).toContain('aria-pressed="true" aria-label="隐藏密码">隐藏</button></span></div>');
  });

  it("the new password without the switch, and its confirmation (name=confirmPassword, new-password)", () => {
    expect(renderToStaticMarkup(<PasswordField label="新密码" autoComplete="new-password" placeholder="至少6位" value="" onChange={none} />)).toBe(
      '<label class="field"><span class="field-label">新密码</span><input type="password" required="" autoComplete="new-password" placeholder="至少6位" name="password" value=""/></label>',
    );
    expect(renderToStaticMarkup(<ConfirmPasswordField label="确认新密码" placeholder="请再次输入新密码" value="" onChange={none} />)).toBe(
      '<label class="field"><span class="field-label">确认新密码</span><input type="password" required="" autoComplete="new-password" placeholder="请再次输入新密码" name="confirmPassword" value=""/></label>',
    );
  });
});
