// A visitor of the worker inside workerd: requests with an address, cookie jars, the session
// cookie @supabase/ssr writes, and the development mailbox.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import { base64UrlToBytes, bytesToBase64Url } from "../../../worker/account-service/encoding";
import app from "../../../worker/index";
import { uniqueEmail, uniqueIp } from "./unique";

/** The site's origin in the worker tests. */
export const BASE = "https://yingshi.test";
/** The development origin: the mailbox and the development-only answers are served there only. */
export const LOCAL = "http://localhost";
export const COOKIE = "yingshi-auth";
export const PASSWORD = "secret-pass-1";

export { runTag, uniqueEmail, uniqueIp } from "./unique";

export type Jar = Map<string, string>;

export interface CallOptions {
  json?: unknown;
  form?: Record<string, string>;
  jar?: Jar;
  ip?: string;
  headers?: Record<string, string>;
  /** Bindings to override for this request. */
  env?: Partial<Env>;
  /** Origin of the request (default https://yingshi.test). */
  base?: string;
}

function request(method: string, path: string, o: CallOptions): Request {
  const headers = new Headers(o.headers);
  headers.set("CF-Connecting-IP", o.ip ?? uniqueIp());
  let body: string | undefined;
  if (o.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(o.json);
  } else if (o.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(o.form).toString();
  }
  if (o.jar?.size) headers.set("Cookie", [...o.jar].map(([n, v]) => `${n}=${v}`).join("; "));
  return new Request((o.base ?? BASE) + path, { method, headers, body, redirect: "manual" });
}

/** The worker's answer, once everything it handed to waitUntil has finished (body not read yet). */
export async function call(method: string, path: string, o: CallOptions = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request(method, path, o), { ...env, ...o.env }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * The worker's answer with its body read to the end, then everything it handed to waitUntil
 * finished (e.g. the edge cache's copy of a streamed page, which is written as the body goes out).
 */
export async function callRead(method: string, path: string, o: CallOptions = {}): Promise<{ res: Response; text: string }> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request(method, path, o), { ...env, ...o.env }, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

/** The worker with some bindings overridden, its body read and its waitUntil work done. */
export const callWith = (overrides: Partial<Env>, method: string, path: string, o: CallOptions = {}) => callRead(method, path, { ...o, env: overrides });

export function setCookies(res: Response): Array<{ name: string; value: string; cleared: boolean }> {
  return res.headers.getSetCookie().map((raw) => {
    const [pair, ...attributes] = raw.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), cleared: attributes.some((a) => /^max-age=0$/i.test(a)) };
  });
}

/** Applies a response's Set-Cookie headers to a jar. */
export function absorb(jar: Jar, res: Response): Jar {
  for (const c of setCookies(res)) {
    if (c.cleared || c.value === "") jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return jar;
}

export interface StoredSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
  [key: string]: unknown;
}

export function decodeSession(jar: Jar): StoredSession {
  const value = jar.get(COOKIE) ?? "";
  expect(value.startsWith("base64-")).toBe(true);
  return JSON.parse(new TextDecoder().decode(base64UrlToBytes(value.slice(7)) ?? new Uint8Array())) as StoredSession;
}

/** The same session; the client believes its access token expires `secondsLeft` from now (negative: already expired). */
export function expiringCopy(jar: Jar, secondsLeft: number): Jar {
  const session = decodeSession(jar);
  const changed = { ...session, expires_at: Math.floor(Date.now() / 1000) + secondsLeft, expires_in: secondsLeft };
  return new Map([[COOKIE, `base64-${bytesToBase64Url(new TextEncoder().encode(JSON.stringify(changed)))}`]]);
}

export async function signUp(tag: string, o: CallOptions = {}): Promise<{ email: string; jar: Jar }> {
  const email = uniqueEmail(tag);
  const res = await call("POST", "/api/auth/sign-up", { ...o, json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status, await res.clone().text()).toBe(200);
  return { email, jar: absorb(new Map(), res) };
}

export async function userOf(jar: Jar, o: CallOptions = {}): Promise<{ res: Response; email: string | null }> {
  const res = await call("GET", "/api/auth/user", { ...o, jar });
  const body = res.status === 200 ? await res.json<{ user: { email: string } | null }>() : null;
  return { res, email: body?.user?.email ?? null };
}

export interface DevMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The newest mails to `to` in the development mailbox (served from localhost only). */
export async function mailTo(to: string): Promise<DevMail[]> {
  const res = await call("GET", `/dev/mail.json?to=${encodeURIComponent(to)}`, { base: "http://localhost" });
  expect(res.status).toBe(200);
  return await res.json<DevMail[]>();
}

/** The first link to this site in a mail's text. */
export function linkIn(mail: DevMail): URL {
  const match = /https?:\/\/[^\s]+/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  return new URL(match![0]);
}
