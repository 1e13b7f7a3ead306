/**
 * The account e-mails (Chinese, plain text plus simple HTML). Links point at this site (the
 * origin is SITE_URL, never a request header: worker/config.ts `mailLinkOrigin`):
 * /auth/confirm?token_hash=…&type=signup|email_change shows a page whose button (a POST) confirms
 * and /auth/reset?token_hash=… shows the new-password form — opening a link never signs anyone
 * in by itself. With a real Supabase project, its e-mail templates should link to the same
 * addresses ({{ .SiteURL }} and {{ .TokenHash }}); the older /api/auth/verify?… links lead to
 * the confirmation page too.
 */
import { html } from "hono/html";
import type { MailMessage } from "./index";

export const LINK_VALID_MINUTES = 60;

export function verifyLink(origin: string, tokenHash: string, type: "signup" | "email_change"): string {
  return `${origin}/auth/confirm?token_hash=${encodeURIComponent(tokenHash)}&type=${type}`;
}

export function resetLink(origin: string, tokenHash: string): string {
  return `${origin}/auth/reset?token_hash=${encodeURIComponent(tokenHash)}`;
}

function message(to: string, subject: string, lines: string[], link?: { href: string; label: string }): MailMessage {
  const text = [...lines, ...(link ? [`${link.label}：${link.href}`] : []), "", "如果这不是您本人的操作，请忽略本邮件。"].join("\n");
  const body = html`<div style="font-family:sans-serif;line-height:1.6">
    ${lines.map((line) => html`<p>${line}</p>`)}${
      link
        ? html`<p><a href="${link.href}">${link.label}</a></p>
            <p style="color:#888;font-size:13px;word-break:break-all">${link.href}</p>`
        : ""
    }
    <p style="color:#888;font-size:13px">如果这不是您本人的操作，请忽略本邮件。</p>
  </div>`;
  // `html` answers a promise only when a value interpolated into it is one; none here is.
  if (body instanceof Promise) throw new Error("mail: a template resolved asynchronously");
  return { to, subject, text, html: body.toString() };
}

export function confirmSignUpMail(site: string, to: string, link: string): MailMessage {
  return message(
    to,
    `【${site}】请验证您的邮箱`,
    [`欢迎注册${site}！`, `请在 ${LINK_VALID_MINUTES} 分钟内点击下面的链接，在打开的页面上确认验证邮箱，验证后即自动登录。该链接只能使用一次。`],
    {
      href: link,
      label: "验证邮箱",
    },
  );
}

export function existingAccountMail(site: string, to: string, signInLink: string): MailMessage {
  return message(
    to,
    `【${site}】有人尝试用您的邮箱注册`,
    [`有人刚刚用此邮箱在${site}注册账号，但该邮箱已有账号。`, "如果是您本人，请直接登录；忘记密码可在登录页点击“忘记密码？”重设。"],
    {
      href: signInLink,
      label: "前往登录",
    },
  );
}

export function recoveryMail(site: string, to: string, link: string): MailMessage {
  return message(
    to,
    `【${site}】重设密码`,
    ["我们收到了重设您账号密码的请求。", `请在 ${LINK_VALID_MINUTES} 分钟内点击下面的链接设置新密码。该链接只能使用一次。`],
    {
      href: link,
      label: "设置新密码",
    },
  );
}

export function emailChangeMail(site: string, to: string, link: string): MailMessage {
  return message(
    to,
    `【${site}】确认新的邮箱地址`,
    [`您申请把${site}账号的邮箱改为 ${to}。`, `请在 ${LINK_VALID_MINUTES} 分钟内点击下面的链接，在打开的页面上确认。该链接只能使用一次。`],
    {
      href: link,
      label: "确认新邮箱",
    },
  );
}

export function emailChangeNoticeMail(site: string, to: string, newEmail: string): MailMessage {
  return message(to, `【${site}】邮箱变更申请`, [
    `有人申请把您在${site}的账号邮箱改为 ${newEmail}。`,
    "确认链接已发送到新邮箱；如果不是您本人的操作，请尽快登录并修改密码。",
  ]);
}
