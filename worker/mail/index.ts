/**
 * Outbound mail, one adapter for the whole worker. In order of preference:
 *  1. an HTTP mail API (MAIL_API_URL + MAIL_API_KEY secrets): POST JSON {from, to, subject, html, text}
 *     with `Authorization: Bearer <key>` (the shape Resend and similar services take);
 *  2. Cloudflare's Email Service binding `EMAIL` ([[send_email]] in wrangler.toml) with MAIL_FROM;
 *  3. when the site is served from localhost: the development mailbox (D1 table dev_mail, shown at
 *     /dev/mail and /dev/mail.json — see worker/mail/dev-mailbox.ts);
 *  4. otherwise none: the message is dropped with a log line (never a crash, never a 5xx).
 */
import type { Config } from "../config";
import { isLocalHost } from "../local-host";
import { storeDevMail } from "./dev-mailbox";
import { withDeadline } from "../deadline";

/** The most sending one e-mail may take (the HTTP API and the binding alike). */
const MAIL_TIMEOUT_MS = 10_000;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Short name for logs and tests ("http", "binding", "dev-mailbox", "none"). */
  readonly kind: string;
  send(message: MailMessage): Promise<void>;
}

function httpMailer(url: string, key: string, from: string): Mailer {
  return {
    kind: "http",
    async send(message) {
      const response = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from, ...message }),
        signal: AbortSignal.timeout(MAIL_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`mail API answered ${response.status}`);
    },
  };
}

function bindingMailer(binding: SendEmail, from: string): Mailer {
  return {
    kind: "binding",
    async send(message) {
      await withDeadline(
        binding.send({ from, to: message.to, subject: message.subject, html: message.html, text: message.text }),
        MAIL_TIMEOUT_MS,
        "EMAIL.send",
      );
    },
  };
}

const noMailer: Mailer = {
  kind: "none",
  send(message) {
    console.error(`mail: no mail transport configured (MAIL_API_URL or the EMAIL binding); dropped "${message.subject}"`);
    return Promise.resolve();
  },
};

/** The mailer for a request to `requestUrl` under this configuration. */
export function mailerFor(env: Env, config: Config, requestUrl: string): Mailer {
  const from = config.MAIL_FROM ?? `${config.SITE_NAME} <no-reply@localhost>`;
  if (config.MAIL_API_URL && config.MAIL_API_KEY) return httpMailer(config.MAIL_API_URL, config.MAIL_API_KEY, from);
  if (env.EMAIL && config.MAIL_FROM) return bindingMailer(env.EMAIL, config.MAIL_FROM);
  if (isLocalHost(new URL(requestUrl).hostname)) return { kind: "dev-mailbox", send: (message) => storeDevMail(env.DB, message) };
  return noMailer;
}

/** Sends without ever failing the caller: a transport error is logged (the answer must not differ). */
export async function sendQuietly(mailer: Mailer, message: MailMessage): Promise<void> {
  try {
    await mailer.send(message);
  } catch (error) {
    console.error(`mail: sending "${message.subject}" through ${mailer.kind} failed`, error);
  }
}
