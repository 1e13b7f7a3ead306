// A visitor of the worker inside workerd: requests with an address, cookie jars, the session
// cookie @supabase/ssr writes (with its raw attributes), and the development mailbox. The one base
// of the worker test layer: helpers/auth-api.ts only adds what the account-API tests alone need.
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
  /** A raw body (sent as is; set its type with `contentType`). */
  body?: BodyInit;
  /** Content-Type, overriding the one `json`/`form` set. */
  contentType?: string;
  jar?: Jar;
  /** A raw Cookie header (instead of `jar`). */
  cookie?: string;
  ip?: string;
  headers?: Record<string, string>;
  /** Bindings to override for this request. */
  env?: Partial<Env>;
  /** Origin of the request (default https://yingshi.test). */
  base?: string;
}

export function cookieHeader(jar: Jar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

export function buildRequest(method: string, path: string, o: CallOptions = {}): Request {
  const headers = new Headers(o.headers);
  headers.set("CF-Connecting-IP", o.ip ?? uniqueIp());
  let body: BodyInit | undefined = o.body;
  if (o.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(o.json);
  } else if (o.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(o.form).toString();
  }
  if (o.contentType) headers.set("Content-Type", o.contentType);
  // As over HTTP (and through SELF): a body's length is declared (a Request built here carries none by itself).
  if (typeof body === "string") headers.set("Content-Length", String(new TextEncoder().encode(body).byteLength));
  else if (body instanceof Uint8Array) headers.set("Content-Length", String(body.byteLength));
  const cookie = o.cookie ?? (o.jar ? cookieHeader(o.jar) : "");
  if (cookie) headers.set("Cookie", cookie);
  return new Request((o.base ?? BASE) + path, { method, headers, body, redirect: "manual" });
}

/** The worker's answer, once everything it handed to waitUntil has finished (body not read yet). */
export async function call(method: string, path: string, o: CallOptions = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(buildRequest(method, path, o), { ...env, ...o.env }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * The worker's answer with its body read to the end, then everything it handed to waitUntil
 * finished (e.g. the edge cache's copy of a streamed page, which is written as the body goes out).
 */
export async function callRead(method: string, path: string, o: CallOptions = {}): Promise<{ res: Response; text: string }> {
  const ctx = createExecutionContext();
  const res = await app.fetch(buildRequest(method, path, o), { ...env, ...o.env }, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

/** The worker with some bindings overridden, its body read and its waitUntil work done. */
export const callWith = (overrides: Partial<Env>, method: string, path: string, o: CallOptions = {}) => callRead(method, path, { ...o, env: overrides });

export interface SetCookie {
  name: string;
  value: string;
  /** The attributes after the name=value pair, as sent (e.g. "HttpOnly", "Max-Age=0"). */
  attributes: string[];
  /** The cookie expires now (Max-Age=0). */
  cleared: boolean;
  raw: string;
}

export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((raw) => {
    const [pair, ...attributes] = raw.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes, cleared: attributes.some((a) => /^max-age=0$/i.test(a)), raw };
  });
}

export const isCleared = (c: SetCookie): boolean => c.cleared;

/** Applies a response's Set-Cookie headers to a jar. */
export function absorb(jar: Jar, res: Response): Jar {
  for (const c of setCookies(res)) {
    if (c.cleared || c.value === "") jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return jar;
}

/** The session JSON @supabase/ssr keeps in the cookie (`base64-` + base64url JSON, maybe chunked). */
export function sessionValue(jar: Jar): string {
  if (jar.has(COOKIE)) return jar.get(COOKIE)!;
  let value = "";
  for (let i = 0; jar.has(`${COOKIE}.${i}`); i++) value += jar.get(`${COOKIE}.${i}`);
  return value;
}

export const fromBase64Url = (text: string): string => new TextDecoder().decode(base64UrlToBytes(text) ?? new Uint8Array());
export const toBase64Url = (text: string): string => bytesToBase64Url(new TextEncoder().encode(text));

export interface StoredSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
  user: { id: string; email: string };
  [key: string]: unknown;
}

export function decodeSession(jar: Jar): StoredSession {
  const value = sessionValue(jar);
  expect(value.startsWith("base64-")).toBe(true);
  return JSON.parse(fromBase64Url(value.slice("base64-".length))) as StoredSession;
}

/** The same session; the client believes its access token expires `secondsLeft` from now (negative: already expired). */
export function expiringCopy(jar: Jar, secondsLeft: number): Jar {
  const session = decodeSession(jar);
  const changed = { ...session, expires_at: Math.floor(Date.now() / 1000) + secondsLeft, expires_in: secondsLeft };
  return new Map([[COOKIE, `base64-${toBase64Url(JSON.stringify(changed))}`]]);
}

/** A new account with a unique e-mail, signed in: its e-mail, the jar holding its session, the answer. */
export async function signUp(tag = "user", o: CallOptions = {}): Promise<{ email: string; jar: Jar; res: Response }> {
  const email = uniqueEmail(tag);
  const res = await call("POST", "/api/auth/sign-up", { ...o, json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status, await res.clone().text()).toBe(200);
  const jar = absorb(new Map(), res);
  expect(sessionValue(jar)).not.toBe("");
  return { email, jar, res };
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
  const res = await call("GET", `/dev/mail.json?to=${encodeURIComponent(to)}`, { base: LOCAL });
  expect(res.status).toBe(200);
  return await res.json<DevMail[]>();
}

/** The first link to this site in a mail's text. */
export function linkIn(mail: DevMail): URL {
  const match = /https?:\/\/[^\s]+/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  return new URL(match![0]);
}
