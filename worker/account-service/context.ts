/** What every route of the embedded account service works with. */
import type { Context } from "hono";
import { SITE_URL_MISSING_LOG } from "../config";
import { sendQuietly, type Mailer, type MailMessage } from "../mail/index";
import { clientAddress, clientCountry } from "../client-address";
import { API_VERSION, API_VERSION_HEADER } from "./errors";
import { storedSigningKey } from "./keys";
import type { SessionOrigin, SessionPolicy, TokenContext } from "./tokens";
import { DEFAULT_SESSION_POLICY } from "./tokens";

export interface AccountServiceOptions {
  /** D1 database with the tables of migrations/. */
  db: D1Database;
  /** HS256 key for access tokens; unset or empty → a random key generated once and kept in D1. */
  jwtSecret?: string;
  /** Origin the client uses, e.g. "http://localhost"; the `iss` claim is `${issuerBase}/auth/v1`. */
  issuerBase: string;
  /**
   * Origin of the links in e-mails (worker/config.ts `mailLinkOrigin`: SITE_URL, or a local
   * origin); unset → `issuerBase`; null → no trustworthy origin: mails with a link are not sent.
   */
  linkOrigin?: string | null;
  /** true: sign-up confirms the e-mail at once and returns a session. */
  autoConfirm: boolean;
  /** Session inactivity timeout and absolute lifetime (defaults 30 and 90 days). */
  sessionPolicy?: SessionPolicy;
  /** Where the account e-mails go (none: dropped with a log line). */
  mailer?: Mailer;
  /** Site name in the e-mails. */
  siteName?: string;
  /** Current time in milliseconds (tests move it); defaults to Date.now. */
  now?: () => number;
}

export const BASE_PATH = "/auth/v1";

export interface Service {
  db: D1Database;
  /** Origin of the site's links in e-mails; null: none can be built, such mails are not sent (logged `config:`). */
  linkOrigin: string | null;
  issuer: string;
  autoConfirm: boolean;
  policy: SessionPolicy;
  mailer: Mailer | null;
  siteName: string;
  clock: () => number;
  signingKey(): Promise<string>;
  tokenContext(nowMs: number): Promise<TokenContext>;
}

export function serviceOf(opts: AccountServiceOptions): Service {
  const origin = opts.issuerBase.replace(/\/+$/, "");
  const issuer = `${origin}${BASE_PATH}`;
  const policy = opts.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  const signingKey = () => (opts.jwtSecret ? Promise.resolve(opts.jwtSecret) : storedSigningKey(opts.db));
  return {
    db: opts.db,
    linkOrigin: opts.linkOrigin === undefined ? origin : opts.linkOrigin && opts.linkOrigin.replace(/\/+$/, ""),
    issuer,
    autoConfirm: opts.autoConfirm,
    policy,
    mailer: opts.mailer ?? null,
    siteName: opts.siteName ?? "影视站",
    clock: opts.now ?? Date.now,
    signingKey,
    tokenContext: async (nowMs) => ({ db: opts.db, key: await signingKey(), issuer, nowMs, policy }),
  };
}

/**
 * Sends a mail whose text holds a link to the site, built from `svc.linkOrigin`; without a
 * mailer nothing is sent, without a trustworthy origin nothing is sent and a `config:` line is logged.
 */
export async function sendLinkMail(svc: Service, build: (origin: string) => MailMessage): Promise<void> {
  if (!svc.mailer) return;
  if (!svc.linkOrigin) {
    console.error(SITE_URL_MISSING_LOG);
    return;
  }
  await sendQuietly(svc.mailer, build(svc.linkOrigin));
}

const SUCCESS_HEADERS = { "Cache-Control": "no-store", [API_VERSION_HEADER]: API_VERSION };

export function json(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...SUCCESS_HEADERS },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: SUCCESS_HEADERS });
}

/** Address, country and browser of the visitor (the worker forwards them on in-process calls). */
export function sessionOrigin(c: Context): SessionOrigin {
  const headers = c.req.raw.headers;
  const ip = clientAddress(headers);
  return { ip: ip === "unknown" ? null : ip, country: clientCountry(headers), userAgent: headers.get("User-Agent") };
}
