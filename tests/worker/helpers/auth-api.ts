// The worker's account API (/api/auth/*) through SELF, with the session cookie's raw attributes:
// requests with a cookie jar, the worker app with bindings overridden, the stored session and the
// answers' shapes. Shared by tests/worker/auth-*.test.ts.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import app from "../../../worker/index";
import type { Library } from "../../../shared/library";
import type { SessionUser } from "../../../shared/session-user";
import { base64UrlToBytes, bytesToBase64Url } from "../../../worker/account-service/encoding";
import { uniqueEmail, uniqueIp } from "./unique";
export const BASE = "https://yingshi.test";
export const COOKIE = "yingshi-auth";
export const PASSWORD = "secret-pass-1";

export type Jar = Map<string, string>;

export interface CallOptions {
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  contentType?: string;
  jar?: Jar;
  cookie?: string;
  ip?: string;
  headers?: Record<string, string>;
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
  const cookie = o.cookie ?? (o.jar ? cookieHeader(o.jar) : "");
  if (cookie) headers.set("Cookie", cookie);
  return new Request(BASE + path, { method, headers, body, redirect: "manual" });
}

export function call(method: string, path: string, o: CallOptions = {}): Promise<Response> {
  return SELF.fetch(buildRequest(method, path, o));
}

/** The worker app with some bindings overridden (what SELF cannot do per request). */
export async function callWith(overrides: Partial<Env>, method: string, path: string, o: CallOptions = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(buildRequest(method, path, o), { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export interface SetCookie {
  name: string;
  value: string;
  attributes: string[];
  raw: string;
}

export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((raw) => {
    const [pair, ...attributes] = raw.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes, raw };
  });
}

export const isCleared = (c: SetCookie) => c.attributes.some((a) => /^max-age=0$/i.test(a));

/** Applies a response's Set-Cookie headers to a jar. */
export function absorb(jar: Jar, res: Response): Jar {
  for (const c of setCookies(res)) {
    if (isCleared(c) || c.value === "") jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return jar;
}

export function cookieHeader(jar: Jar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
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

/** A one-cookie jar holding `session` (the worker reads an unchunked cookie of any length). */
export function jarWith(session: StoredSession): Jar {
  return new Map([[COOKIE, `base64-${toBase64Url(JSON.stringify(session))}`]]);
}

/** The same session, but its access token already expired as far as the client can tell. */
export function expiredCopy(jar: Jar): Jar {
  const session = decodeSession(jar);
  return jarWith({ ...session, expires_at: Math.floor(Date.now() / 1000) - 120, expires_in: -120 });
}

/** GET and PUT /api/auth/user: the visitor and the saved library (nulls when signed out). */
export interface UserBody {
  user: SessionUser | null;
  library: Library | null;
}

/** The same, where the test expects a signed-in visitor. */
export interface SignedInBody {
  user: SessionUser;
  library: Library;
}

/** Every refusal of the account API. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** The embedded account service's sign-up (/auth/v1/signup, GoTrue's session shape). */
export interface ServiceSessionBody {
  access_token: string;
  user: { id: string; email: string };
}

/** The JSON body of an answer, as the shape `T` the test expects of it. */
export async function json<T>(res: Response): Promise<T> {
  expect(res.headers.get("Content-Type") ?? "").toContain("application/json");
  return await res.json<T>();
}

export async function signUp(tag = "user"): Promise<{ email: string; jar: Jar; res: Response }> {
  const email = uniqueEmail(tag);
  const res = await call("POST", "/api/auth/sign-up", { json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status).toBe(200);
  const jar = absorb(new Map(), res);
  expect(sessionValue(jar)).not.toBe("");
  return { email, jar, res };
}

export async function signIn(email: string, password = PASSWORD): Promise<{ jar: Jar; res: Response }> {
  const res = await call("POST", "/api/auth/sign-in", { json: { email, password } });
  return { jar: absorb(new Map(), res), res };
}

/** Checks what every response that puts a session cookie must carry. */
export function expectSessionCookies(res: Response): SetCookie[] {
  const cookies = setCookies(res).filter((c) => c.name === COOKIE || c.name.startsWith(`${COOKIE}.`));
  expect(cookies.length).toBeGreaterThan(0);
  for (const c of cookies) {
    const attrs = c.attributes.map((a) => a.toLowerCase());
    expect(attrs).toContain("httponly");
    expect(attrs).toContain("secure");
    expect(attrs).toContain("samesite=lax");
    expect(attrs).toContain("path=/");
  }
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  return cookies;
}

/** The red box of the auth form. */
export function authErrorBox(html: string): string | null {
  return /<div class="auth-error"[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? null;
}

/** Every cookie name the request sent is expired by the response. */
export function expectCleared(res: Response, names: string[]): void {
  const cleared = setCookies(res)
    .filter(isCleared)
    .map((c) => c.name);
  for (const name of names) expect(cleared).toContain(name);
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
}
