/**
 * The development mailbox: account e-mails of a site served from localhost are kept in D1
 * (table dev_mail) and shown at /dev/mail (HTML) and /dev/mail.json, newest first, so developers
 * and tests can follow the links. Both pages answer 404 on any other host.
 */
import { Hono } from "hono";
import { html, raw } from "hono/html";
import type { AppEnv } from "../app-env";
import { isLocalHost } from "../local-host";
import type { MailMessage } from "./index";

const KEEP = 200;

export async function storeDevMail(db: D1Database, message: MailMessage): Promise<void> {
  await db.batch([
    db
      .prepare("INSERT INTO dev_mail (to_address, subject, text_body, html_body, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(message.to, message.subject, message.text, message.html, new Date().toISOString()),
    db.prepare("DELETE FROM dev_mail WHERE id <= (SELECT MAX(id) FROM dev_mail) - ?1").bind(KEEP),
  ]);
}

interface DevMailRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: string;
}

async function latestMail(db: D1Database, to: string | undefined): Promise<DevMailRow[]> {
  const query = to
    ? db.prepare("SELECT * FROM dev_mail WHERE to_address = ?1 ORDER BY id DESC LIMIT 50").bind(to.toLowerCase())
    : db.prepare("SELECT * FROM dev_mail ORDER BY id DESC LIMIT 50");
  return (await query.all<DevMailRow>()).results;
}

/** Mounted by worker/index.ts for localhost requests only; checks the host again itself. */
export const devMailbox = new Hono<AppEnv>().basePath("/dev");

devMailbox.use("*", async (c, next) => {
  if (!isLocalHost(new URL(c.req.url).hostname)) return c.text("404", 404);
  await next();
  c.header("Cache-Control", "no-store");
});

devMailbox.get("/mail.json", async (c) => {
  const mail = await latestMail(c.env.DB, c.req.query("to"));
  return c.json(mail.map((m) => ({ id: m.id, to: m.to_address, subject: m.subject, text: m.text_body, html: m.html_body, createdAt: m.created_at })));
});

devMailbox.get("/mail", async (c) => {
  const mail = await latestMail(c.env.DB, c.req.query("to"));
  // The mails' own HTML comes from worker/mail/templates.ts (escaped there), shown as sent.
  const items = mail.map(
    (m) =>
      html`<article class="mail">
        <h2>${m.subject}</h2>
        <p class="meta">收件人：${m.to_address} · ${m.created_at}</p>
        ${raw(m.html_body)}
      </article>`,
  );
  return c.html(
    html`<!doctype html>
      <html lang="zh-CN">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <link rel="icon" href="data:," />
          <title>开发邮箱</title>
          <style>
            body {
              font-family: system-ui, sans-serif;
              max-width: 720px;
              margin: 0 auto;
              padding: 16px;
              background: #111;
              color: #eee;
            }
            .mail {
              background: #1c1c1c;
              border-radius: 8px;
              padding: 16px;
              margin: 12px 0;
            }
            .meta {
              color: #999;
              font-size: 14px;
              overflow-wrap: anywhere;
            }
            .mail p {
              overflow-wrap: anywhere;
            }
            a {
              color: #f5a623;
            }
          </style>
        </head>
        <body>
          <h1>开发邮箱</h1>
          <p class="meta">仅在本机（localhost）可见；共 ${mail.length} 封，最新在前。</p>
          ${items.length ? items : html`<p>还没有邮件。</p>`}
        </body>
      </html>`,
  );
});
