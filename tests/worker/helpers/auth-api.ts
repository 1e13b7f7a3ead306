// What only the account-API tests (tests/worker/auth-*.test.ts) need on top of helpers/visitor.ts:
// signing in, forged session cookies, the answers' shapes and the checks of the session cookie's
// attributes. Requests, jars, cookies, the stored session and sign-up come from helpers/visitor.ts.
import { expect } from "vitest";
import type { Library } from "../../../shared/library";
import type { SessionUser } from "../../../shared/session-user";
import { absorb, call, COOKIE, decodeSession, isCleared, PASSWORD, setCookies, toBase64Url, type Jar, type SetCookie, type StoredSession } from "./visitor";

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
