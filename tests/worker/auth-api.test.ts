// The worker's account API (/api/auth/*) and the session cookie it keeps, inside workerd:
// cookie attributes, signed-in pages, redirects, broken cookies, refresh, CSRF, rate limits,
// body checks, validation messages, an unreachable account service, the saved library, the
// no-JavaScript form path and the EXPOSE_ACCOUNT_API switch.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index";
import type { Library } from "../../shared/library";
import type { SessionUser } from "../../shared/session-user";
import { base64UrlToBytes, bytesToBase64Url } from "../../worker/account-service/encoding";
import { uniqueEmail, uniqueIp } from "./helpers/unique";

const BASE = "https://yingshi.test";
const COOKIE = "yingshi-auth";
const PASSWORD = "secret-pass-1";

// ---- helpers -------------------------------------------------------------------------------

type Jar = Map<string, string>;

interface CallOptions {
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  contentType?: string;
  jar?: Jar;
  cookie?: string;
  ip?: string;
  headers?: Record<string, string>;
}

function buildRequest(method: string, path: string, o: CallOptions = {}): Request {
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

function call(method: string, path: string, o: CallOptions = {}): Promise<Response> {
  return SELF.fetch(buildRequest(method, path, o));
}

/** The worker app with some bindings overridden (what SELF cannot do per request). */
async function callWith(overrides: Partial<Env>, method: string, path: string, o: CallOptions = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(buildRequest(method, path, o), { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

interface SetCookie {
  name: string;
  value: string;
  attributes: string[];
  raw: string;
}

function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((raw) => {
    const [pair, ...attributes] = raw.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes, raw };
  });
}

const isCleared = (c: SetCookie) => c.attributes.some((a) => /^max-age=0$/i.test(a));

/** Applies a response's Set-Cookie headers to a jar. */
function absorb(jar: Jar, res: Response): Jar {
  for (const c of setCookies(res)) {
    if (isCleared(c) || c.value === "") jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return jar;
}

function cookieHeader(jar: Jar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The session JSON @supabase/ssr keeps in the cookie (`base64-` + base64url JSON, maybe chunked). */
function sessionValue(jar: Jar): string {
  if (jar.has(COOKIE)) return jar.get(COOKIE)!;
  let value = "";
  for (let i = 0; jar.has(`${COOKIE}.${i}`); i++) value += jar.get(`${COOKIE}.${i}`);
  return value;
}

const fromBase64Url = (text: string): string => new TextDecoder().decode(base64UrlToBytes(text) ?? new Uint8Array());
const toBase64Url = (text: string): string => bytesToBase64Url(new TextEncoder().encode(text));

interface StoredSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
  user: { id: string; email: string };
  [key: string]: unknown;
}

function decodeSession(jar: Jar): StoredSession {
  const value = sessionValue(jar);
  expect(value.startsWith("base64-")).toBe(true);
  return JSON.parse(fromBase64Url(value.slice("base64-".length))) as StoredSession;
}

/** A one-cookie jar holding `session` (the worker reads an unchunked cookie of any length). */
function jarWith(session: StoredSession): Jar {
  return new Map([[COOKIE, `base64-${toBase64Url(JSON.stringify(session))}`]]);
}

/** The same session, but its access token already expired as far as the client can tell. */
function expiredCopy(jar: Jar): Jar {
  const session = decodeSession(jar);
  return jarWith({ ...session, expires_at: Math.floor(Date.now() / 1000) - 120, expires_in: -120 });
}

/** GET and PUT /api/auth/user: the visitor and the saved library (nulls when signed out). */
interface UserBody {
  user: SessionUser | null;
  library: Library | null;
}

/** The same, where the test expects a signed-in visitor. */
interface SignedInBody {
  user: SessionUser;
  library: Library;
}

/** Every refusal of the account API. */
interface ErrorBody {
  error: { code: string; message: string };
}

/** The embedded account service's sign-up (/auth/v1/signup, GoTrue's session shape). */
interface ServiceSessionBody {
  access_token: string;
  user: { id: string; email: string };
}

/** The JSON body of an answer, as the shape `T` the test expects of it. */
async function json<T>(res: Response): Promise<T> {
  expect(res.headers.get("Content-Type") ?? "").toContain("application/json");
  return await res.json<T>();
}

async function signUp(tag = "user"): Promise<{ email: string; jar: Jar; res: Response }> {
  const email = uniqueEmail(tag);
  const res = await call("POST", "/api/auth/sign-up", { json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status).toBe(200);
  const jar = absorb(new Map(), res);
  expect(sessionValue(jar)).not.toBe("");
  return { email, jar, res };
}

async function signIn(email: string, password = PASSWORD): Promise<{ jar: Jar; res: Response }> {
  const res = await call("POST", "/api/auth/sign-in", { json: { email, password } });
  return { jar: absorb(new Map(), res), res };
}

/** Checks what every response that puts a session cookie must carry. */
function expectSessionCookies(res: Response): SetCookie[] {
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
function authErrorBox(html: string): string | null {
  return /<div class="auth-error"[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? null;
}

/** Every cookie name the request sent is expired by the response. */
function expectCleared(res: Response, names: string[]): void {
  const cleared = setCookies(res)
    .filter(isCleared)
    .map((c) => c.name);
  for (const name of names) expect(cleared).toContain(name);
  expect(res.headers.get("Cache-Control")).toBe("private, no-store");
}

// ---- cookies and tokens --------------------------------------------------------------------

describe("session cookie", () => {
  it("sign-up and sign-in set an HttpOnly, Secure, SameSite=Lax cookie on Path=/, privately, with no token in the body", async () => {
    const { email, jar, res } = await signUp("cookie");
    expectSessionCookies(res);
    const upBody = await res.text();
    const session = decodeSession(jar);
    expect(session.user.email).toBe(email);
    for (const secret of ["access_token", "refresh_token", session.access_token, session.refresh_token]) expect(upBody).not.toContain(secret);
    expect(JSON.parse(upBody)).toMatchObject({ user: { email }, confirmationRequired: false });

    const signedIn = await signIn(email);
    expect(signedIn.res.status).toBe(200);
    expectSessionCookies(signedIn.res);
    const inBody = await signedIn.res.text();
    const inSession = decodeSession(signedIn.jar);
    for (const secret of ["access_token", "refresh_token", inSession.access_token, inSession.refresh_token]) expect(inBody).not.toContain(secret);
    expect(JSON.parse(inBody)).toMatchObject({ user: { email }, library: { favourites: [], history: [] } });

    // Neither GET /user, PUT /user nor sign-out leaks a token either.
    const user = await call("GET", "/api/auth/user", { jar: signedIn.jar });
    const put = await call("PUT", "/api/auth/user", { jar: signedIn.jar, json: { data: { library: { favourites: [], history: [] } } } });
    const out = await call("POST", "/api/auth/sign-out", { jar: signedIn.jar, json: {} });
    for (const r of [user, put, out]) {
      const text = await r.text();
      for (const secret of ["access_token", "refresh_token", inSession.access_token, inSession.refresh_token]) expect(text).not.toContain(secret);
    }
  });

  it("the signed-in page's HTML carries no token", async () => {
    const { jar } = await signUp("html");
    const session = decodeSession(jar);
    const html = await (await call("GET", "/", { jar })).text();
    expect(html).not.toContain(session.access_token);
    expect(html).not.toContain(session.refresh_token);
  });
});

describe("GET /api/auth/user and signed-in pages", () => {
  it("is null when signed out", async () => {
    const res = await call("GET", "/api/auth/user");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ user: null, library: null });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("is the user when the sign-in cookie comes back", async () => {
    const { email } = await signUp("who");
    const { jar } = await signIn(email);
    const res = await call("GET", "/api/auth/user", { jar });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await json<SignedInBody>(res);
    expect(body.user.email).toBe(email);
    expect(typeof body.user.id).toBe("string");
    expect(Number.isNaN(Date.parse(body.user.createdAt))).toBe(false);
    expect(body.library).toEqual({ favourites: [], history: [] });
    expect(res.headers.get("X-Auth-Event")).toBeNull();
  });

  it("signed-in pages show 个人中心 and 退出登录 and are private; signed-out pages show 登录/注册", async () => {
    const { email, jar } = await signUp("page");
    for (const path of ["/", "/category/all", "/video/video_001"]) {
      const res = await call("GET", path, { jar });
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      const html = await res.text();
      expect(html).toContain('href="/profile"');
      expect(html).toContain("个人中心");
      expect(html).toContain("退出登录");
      expect(html).not.toContain("登录/注册");
      expect(html).toContain(email);
    }
    const anon = await call("GET", "/");
    expect(anon.status).toBe(200);
    expect(anon.headers.get("Cache-Control")).not.toContain("private");
    const html = await anon.text();
    expect(html).toContain("登录/注册");
    expect(html).not.toContain("退出登录");
    expect(html).not.toContain('href="/profile"');
  });

  it("/profile without a session redirects to /auth; /auth with a session redirects to /profile", async () => {
    const noSession = await call("GET", "/profile");
    expect(noSession.status).toBe(302);
    expect(noSession.headers.get("Location")).toBe("/auth?next=/profile");
    expect(noSession.headers.get("Cache-Control")).toBe("private, no-store");

    const { email, jar } = await signUp("guard");
    const auth = await call("GET", "/auth", { jar });
    expect(auth.status).toBe(302);
    expect(auth.headers.get("Location")).toBe("/profile");
    expect(auth.headers.get("Cache-Control")).toBe("private, no-store");

    const profile = await call("GET", "/profile", { jar });
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toContain(email);
    for (const text of ["注册时间", "使用天数", "正常", "我的收藏", "观看记录"]) expect(html).toContain(text);

    const anonAuth = await call("GET", "/auth");
    expect(anonAuth.status).toBe(200);
  });
});

// ---- broken cookies ------------------------------------------------------------------------

describe("a broken session cookie means signed out, cookies cleared, never a 500", () => {
  /** Every way of asking who is signed in with this cookie: the API, a page, /profile. */
  async function expectSignedOut(cookie: string, names: string[]) {
    const user = await call("GET", "/api/auth/user", { cookie });
    expect(user.status).toBe(200);
    expect(await json(user)).toEqual({ user: null, library: null });
    expectCleared(user, names);

    const page = await call("GET", "/", { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("登录/注册");
    expectCleared(page, names);

    const profile = await call("GET", "/profile", { cookie });
    expect(profile.status).toBe(302);
    expect(profile.headers.get("Location")).toBe("/auth?next=/profile");
    expectCleared(profile, names);

    const put = await call("PUT", "/api/auth/user", { cookie, json: { data: { library: { favourites: [], history: [] } } } });
    expect(put.status).toBe(401);
    expectCleared(put, names);
  }

  it("a tampered access token (signature changed)", async () => {
    const { jar } = await signUp("tamper");
    const session = decodeSession(jar);
    const token = session.access_token;
    const last = token.at(-2) === "A" ? "B" : "A";
    const forged = jarWith({ ...session, access_token: token.slice(0, -2) + last + token.at(-1) });
    await expectSignedOut(cookieHeader(forged), [COOKIE]);
  });

  it("characters flipped in the raw cookie value", async () => {
    const { jar } = await signUp("flip");
    const value = sessionValue(jar);
    for (const at of [10, 30, Math.floor(value.length / 2)]) {
      const flipped = value.slice(0, at) + (value[at] === "x" ? "y" : "x") + value.slice(at + 1);
      const user = await call("GET", "/api/auth/user", { cookie: `${COOKIE}=${flipped}` });
      expect(user.status).toBeLessThan(500);
      const body = await json<UserBody>(user);
      if (body.user === null) expectCleared(user, [COOKIE]);
      else throw new Error(`a cookie flipped at ${at} was still accepted`);
    }
  });

  it("a truncated cookie", async () => {
    const { jar } = await signUp("trunc");
    const value = sessionValue(jar);
    await expectSignedOut(`${COOKIE}=${value.slice(0, Math.floor(value.length / 2))}`, [COOKIE]);
  });

  it("garbage base64, plain garbage and an empty value", async () => {
    await expectSignedOut(`${COOKIE}=base64-!!!%%%***not-base64***`, [COOKIE]);
    await expectSignedOut(`${COOKIE}=base64-${toBase64Url("{not json")}`, [COOKIE]);
    await expectSignedOut(`${COOKIE}=${encodeURIComponent('{"hello":"world"}')}`, [COOKIE]);
    await expectSignedOut(`${COOKIE}.0=base64-AAAA; ${COOKIE}.1=zzzz`, [`${COOKIE}.0`, `${COOKIE}.1`]);
  });

  it("an expired access token whose refresh token was revoked (signed out elsewhere)", async () => {
    const { jar } = await signUp("revoked");
    const expired = expiredCopy(jar);
    const out = await call("POST", "/api/auth/sign-out", { jar, json: {} });
    expect(out.status).toBe(200);
    expectCleared(out, [COOKIE]);
    await expectSignedOut(cookieHeader(expired), [COOKIE]);
  });

  it("an expired access token whose refresh token was rotated away long ago (reuse → the whole session ends)", async () => {
    const { jar } = await signUp("reused");
    const original = decodeSession(jar);
    // Two refreshes: the original token is now a revoked grandparent of the active one.
    const first = await call("GET", "/api/auth/user", { jar: expiredCopy(jar) });
    expect(first.headers.get("X-Auth-Event")).toBe("TOKEN_REFRESHED");
    const second = await call("GET", "/api/auth/user", { jar: expiredCopy(absorb(new Map(), first)) });
    expect(second.headers.get("X-Auth-Event")).toBe("TOKEN_REFRESHED");
    const latest = absorb(new Map(), second);
    // Revoked a minute ago: outside the 10 s reuse window.
    await env.DB.prepare("UPDATE refresh_tokens SET updated_at = ?2 WHERE token = ?1")
      .bind(original.refresh_token, new Date(Date.now() - 60_000).toISOString())
      .run();
    await expectSignedOut(cookieHeader(expiredCopy(jar)), [COOKIE]);
    // Reuse ended the session: the newest cookie no longer works either.
    const after = await call("GET", "/api/auth/user", { jar: expiredCopy(latest) });
    expect((await json<UserBody>(after)).user).toBeNull();
    expectCleared(after, [COOKIE]);
  });
});

// ---- expiry and refresh --------------------------------------------------------------------

describe("an expired access token is refreshed by the worker", () => {
  it("GET /api/auth/user returns the user, new cookies and X-Auth-Event: TOKEN_REFRESHED", async () => {
    const { email, jar } = await signUp("refresh");
    const before = decodeSession(jar);
    const expired = expiredCopy(jar);
    const res = await call("GET", "/api/auth/user", { jar: expired });
    expect(res.status).toBe(200);
    expect((await json<SignedInBody>(res)).user.email).toBe(email);
    expect(res.headers.get("X-Auth-Event")).toBe("TOKEN_REFRESHED");
    expectSessionCookies(res);
    const refreshed = decodeSession(absorb(new Map(), res));
    expect(refreshed.refresh_token).not.toBe(before.refresh_token);
    expect(refreshed.expires_at).toBeGreaterThan(Date.now() / 1000 + 60);
    expect(refreshed.user.email).toBe(email);

    // The new session works without another refresh.
    const again = await call("GET", "/api/auth/user", { jar: jarWith(refreshed) });
    expect(again.status).toBe(200);
    expect((await json<SignedInBody>(again)).user.email).toBe(email);
    expect(again.headers.get("X-Auth-Event")).toBeNull();
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it("a page request with an expired token renders signed in and refreshes the cookie", async () => {
    const { jar } = await signUp("refresh-page");
    const res = await call("GET", "/", { jar: expiredCopy(jar) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("退出登录");
    expectSessionCookies(res);
  });

  it("10 concurrent requests with the same expiring session all get the user", async () => {
    const { email, jar } = await signUp("concurrent");
    const expired = expiredCopy(jar);
    const ip = uniqueIp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => call("GET", "/api/auth/user", { jar: expired, ip })));
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect((await json<UserBody>(res)).user?.email).toBe(email);
      expect(setCookies(res).filter(isCleared)).toEqual([]);
    }
  });
});

// ---- CSRF ----------------------------------------------------------------------------------

describe("CSRF", () => {
  it("refuses a cross-site Origin and Sec-Fetch-Site: cross-site; allows same-origin", async () => {
    const { email } = await signUp("csrf");
    const evil = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { Origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect((await json<ErrorBody>(evil)).error.code).toBe("csrf");
    expect(evil.headers.getSetCookie()).toEqual([]);

    const crossSite = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);

    const nullOrigin = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { Origin: "null" } });
    expect(nullOrigin.status).toBe(403);

    const same = await call("POST", "/api/auth/sign-in", { json: { email, password: PASSWORD }, headers: { Origin: BASE, "Sec-Fetch-Site": "same-origin" } });
    expect(same.status).toBe(200);
    expectSessionCookies(same);
  });

  it("cross-site sign-out and PUT /user are refused too; GET /api/auth/sign-out is 405", async () => {
    const { jar } = await signUp("csrf2");
    const out = await call("POST", "/api/auth/sign-out", { jar, json: {}, headers: { Origin: "https://evil.example" } });
    expect(out.status).toBe(403);
    const put = await call("PUT", "/api/auth/user", {
      jar,
      json: { data: { library: { favourites: ["video_001"], history: [] } } },
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(put.status).toBe(403);
    expect((await json<SignedInBody>(await call("GET", "/api/auth/user", { jar }))).library.favourites).toEqual([]);

    const get = await call("GET", "/api/auth/sign-out", { jar });
    expect(get.status).toBe(405);
    expect((await json<ErrorBody>(get)).error.code).toBe("method_not_allowed");
    expect(get.headers.getSetCookie()).toEqual([]);
    // still signed in
    expect((await json<UserBody>(await call("GET", "/api/auth/user", { jar }))).user).not.toBeNull();
  });
});

// ---- rate limit ----------------------------------------------------------------------------

describe("rate limit", () => {
  it("sign-ins and sign-ups share 30 per 5 minutes per IP (then 429 with a Chinese message); another IP is not affected", async () => {
    // The window is a fixed 5 minutes: do not start right before it rolls over.
    const intoWindow = Date.now() % 300_000;
    if (intoWindow > 290_000) await new Promise((r) => setTimeout(r, 300_000 - intoWindow + 100));
    const { email } = await signUp("limit");
    const ip = uniqueIp();
    for (let i = 0; i < 15; i++) {
      // Different unknown addresses: the per-account throttle never trips here.
      const res = await call("POST", "/api/auth/sign-in", { ip, json: { email: `nobody-${i}-${email}`, password: "wrong-password" } });
      expect(res.status).toBe(400);
      expect((await json<ErrorBody>(res)).error.message).toBe("邮箱或密码错误");
      const up = await call("POST", "/api/auth/sign-up", { ip, json: { email: "not an address", password: PASSWORD, confirmPassword: PASSWORD } });
      expect(up.status).toBe(400);
    }
    const limited = await call("POST", "/api/auth/sign-in", { ip, json: { email, password: PASSWORD } });
    expect(limited.status).toBe(429);
    const body = await json<ErrorBody>(limited);
    expect(body.error.code).toBe("over_request_rate_limit");
    expect(body.error.message).toBe("操作过于频繁，请稍后再试");
    expect(limited.headers.getSetCookie()).toEqual([]);

    // The form path of the same visitor is limited too, and says so on the page.
    const form = await call("POST", "/api/auth/sign-in", { ip, form: { email, password: PASSWORD }, headers: { Accept: "text/html" } });
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/auth?mode=signin&error=over_request_rate_limit");

    const other = await call("POST", "/api/auth/sign-in", { ip: uniqueIp(), json: { email, password: PASSWORD } });
    expect(other.status).toBe(200);
  });
});

// ---- request bodies ------------------------------------------------------------------------

describe("request bodies", () => {
  async function expectError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe("string");
    expect(body.error.message.length).toBeGreaterThan(0);
  }

  it("malformed JSON → 400", async () => {
    for (const raw of ["{", "not json", "", "[1,2]", "null", '"text"']) {
      await expectError(await call("POST", "/api/auth/sign-in", { body: raw, contentType: "application/json" }), 400, "bad_json");
    }
  });

  it("wrong content type → 415", async () => {
    await expectError(
      await call("POST", "/api/auth/sign-in", { body: '{"email":"a@b.c","password":"x"}', contentType: "text/plain" }),
      415,
      "unsupported_media_type",
    );
    await expectError(await call("POST", "/api/auth/sign-up", { body: "x", contentType: "multipart/form-data; boundary=x" }), 415, "unsupported_media_type");
    await expectError(await call("POST", "/api/auth/sign-in", { body: "{}" }), 415, "unsupported_media_type");
  });

  it("a body over 16 KB → 413 (declared or streamed)", async () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(17 * 1024) });
    await expectError(await call("POST", "/api/auth/sign-in", { body: big, contentType: "application/json" }), 413, "payload_too_large");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        controller.close();
      },
    });
    await expectError(await call("PUT", "/api/auth/user", { body: stream, contentType: "application/json" }), 413, "payload_too_large");
  });

  it("invalid UTF-8 → 400", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"e":"\xff\xfe"}
    await expectError(await call("POST", "/api/auth/sign-in", { body: bytes, contentType: "application/json" }), 400, "bad_json");
    await expectError(
      await call("POST", "/api/auth/sign-up", { body: new Uint8Array([0x65, 0x3d, 0xc3]), contentType: "application/x-www-form-urlencoded" }),
      400,
      "bad_json",
    );
  });

  it("an unknown API path is a JSON 404", async () => {
    await expectError(await call("GET", "/api/auth/nothing"), 404, "not_found");
    await expectError(await call("GET", "/api/other"), 404, "not_found");
  });
});

// ---- validation messages -------------------------------------------------------------------

describe("sign-up and sign-in messages", () => {
  it("mismatch, short password, existing e-mail and wrong password", async () => {
    const mismatch = await call("POST", "/api/auth/sign-up", { json: { email: uniqueEmail("v"), password: "abcdef", confirmPassword: "abcdeg" } });
    expect(mismatch.status).toBe(400);
    expect((await json<ErrorBody>(mismatch)).error.message).toBe("密码确认不匹配");

    const short = await call("POST", "/api/auth/sign-up", { json: { email: uniqueEmail("v"), password: "abc", confirmPassword: "abc" } });
    expect(short.status).toBe(400);
    expect((await json<ErrorBody>(short)).error.message).toBe("密码长度至少6位");

    const { email } = await signUp("exists");
    const again = await call("POST", "/api/auth/sign-up", { json: { email, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(again.status).toBe(400);
    expect((await json<ErrorBody>(again)).error.message).toContain("该邮箱已注册");
    expect(again.headers.getSetCookie()).toEqual([]);

    const wrong = await call("POST", "/api/auth/sign-in", { json: { email, password: "not-the-password" } });
    expect(wrong.status).toBe(400);
    const body = await json<ErrorBody>(wrong);
    expect(body.error).toEqual({ code: "invalid_credentials", message: "邮箱或密码错误" });
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const unknown = await call("POST", "/api/auth/sign-in", { json: { email: uniqueEmail("nobody"), password: PASSWORD } });
    expect(unknown.status).toBe(400);
    expect((await json<ErrorBody>(unknown)).error.message).toBe("邮箱或密码错误");

    const missing = await call("POST", "/api/auth/sign-in", { json: { email: "", password: "" } });
    expect(missing.status).toBe(400);
  });
});

// ---- account service unreachable -----------------------------------------------------------

describe("account service unreachable", () => {
  const DOWN: Partial<Env> = { SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "x" };

  it("sign-in answers 503; browsing still works; a signed-in cookie is kept", async () => {
    // (How many calls the worker makes to a service that is down: tests/worker/faults.test.ts.)
    const res = await callWith(DOWN, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("down"), password: PASSWORD } });
    expect(res.status).toBe(503);
    const body = await json<ErrorBody>(res);
    expect(body.error.code).toBe("service_unavailable");
    expect(["操作失败，请重试", "账号服务暂时不可用，请稍后重试"]).toContain(body.error.message);

    const signUpDown = await callWith(DOWN, "POST", "/api/auth/sign-up", {
      json: { email: uniqueEmail("down"), password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(signUpDown.status).toBe(503);

    const home = await callWith(DOWN, "GET", "/");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("登录/注册");

    // A session made while the service was up: a transient failure must not sign it out.
    const { jar } = await signUp("down-keep");
    const user = await callWith(DOWN, "GET", "/api/auth/user", { jar });
    expect(user.status).toBe(503);
    expect((await json<ErrorBody>(user)).error.code).toBe("service_unavailable");
    expect(setCookies(user).filter(isCleared)).toEqual([]);
    expect(user.headers.getSetCookie()).toEqual([]);

    const page = await callWith(DOWN, "GET", "/", { jar });
    expect(page.status).toBe(200);
    expect(setCookies(page).filter(isCleared)).toEqual([]);

    // The service is back: the same cookie is still a session.
    const back = await call("GET", "/api/auth/user", { jar });
    expect((await json<UserBody>(back)).user).not.toBeNull();
  });
});

// ---- saved library -------------------------------------------------------------------------

describe("PUT /api/auth/user saves the library", () => {
  it("saves, drops unknown ids, returns it on GET; signed out → 401", async () => {
    const { jar } = await signUp("library");
    const put = await call("PUT", "/api/auth/user", {
      jar,
      json: {
        data: {
          library: {
            favourites: ["video_001", "video_999", "nope", 7, "video_001"],
            history: [
              { id: "video_002", position: 30, duration: 120, updatedAt: 1000 },
              { id: "video_404", position: 1, duration: 2, updatedAt: 2000 },
            ],
          },
          role: "admin",
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get("Cache-Control")).toBe("private, no-store");
    const saved = await json<UserBody>(put);
    expect(saved.library).toEqual({ favourites: ["video_001"], history: [{ id: "video_002", position: 30, duration: 120, updatedAt: 1000 }] });

    const got = await json<UserBody>(await call("GET", "/api/auth/user", { jar }));
    expect(got.library).toEqual(saved.library);

    const simple = await call("PUT", "/api/auth/user", { jar, json: { data: { library: { favourites: ["video_001"], history: [] } } } });
    expect(simple.status).toBe(200);
    expect((await json<UserBody>(await call("GET", "/api/auth/user", { jar }))).library).toEqual({ favourites: ["video_001"], history: [] });

    const anon = await call("PUT", "/api/auth/user", { json: { data: { library: { favourites: ["video_001"], history: [] } } } });
    expect(anon.status).toBe(401);
    expect((await json<ErrorBody>(anon)).error.code).toBe("not_signed_in");
  });

  it("the saved library reaches the signed-in page's root data", async () => {
    const { jar } = await signUp("library-page");
    await call("PUT", "/api/auth/user", { jar, json: { data: { library: { favourites: ["video_003"], history: [] } } } });
    const html = await (await call("GET", "/profile", { jar })).text();
    expect(html).toContain('"favourites":["video_003"]');
  });
});

// ---- no-JavaScript forms -------------------------------------------------------------------

describe("the no-JavaScript form path", () => {
  const page = { Accept: "text/html,application/xhtml+xml" };

  it("sign-up and sign-in forms answer 303 to / with the cookie; a wrong password goes back with the message", async () => {
    const email = uniqueEmail("form");
    const up = await call("POST", "/api/auth/sign-up", { headers: page, form: { email, password: PASSWORD, confirmPassword: PASSWORD } });
    expect(up.status).toBe(303);
    expect(up.headers.get("Location")).toBe("/");
    expectSessionCookies(up);

    const signIn = await call("POST", "/api/auth/sign-in", { headers: page, form: { email, password: PASSWORD } });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("Location")).toBe("/");
    expectSessionCookies(signIn);
    const jar = absorb(new Map(), signIn);
    const home = await call("GET", "/", { jar });
    expect(await home.text()).toContain("退出登录");

    const wrong = await call("POST", "/api/auth/sign-in", { headers: page, form: { email, password: "wrong-password" } });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("Location")).toBe("/auth?mode=signin&error=invalid_credentials");
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const back = await call("GET", "/auth?mode=signin&error=invalid_credentials");
    expect(back.status).toBe(200);
    expect(authErrorBox(await back.text())).toBe("邮箱或密码错误");

    const out = await call("POST", "/api/auth/sign-out", { jar, headers: page, form: {} });
    expect(out.status).toBe(303);
    expect(out.headers.get("Location")).toBe("/");
    expectCleared(out, [COOKIE]);
    const after = await call("GET", "/api/auth/user", { jar });
    expect((await json<UserBody>(after)).user).toBeNull();
  });

  it("form sign-up errors go back to the sign-up form with the message", async () => {
    const mismatch = await call("POST", "/api/auth/sign-up", {
      headers: page,
      form: { email: uniqueEmail("formv"), password: "abcdef", confirmPassword: "abcxyz" },
    });
    expect(mismatch.status).toBe(303);
    expect(mismatch.headers.get("Location")).toBe("/auth?mode=signup&error=password_mismatch");
    expect(authErrorBox(await (await call("GET", mismatch.headers.get("Location")!)).text())).toBe("密码确认不匹配");

    const short = await call("POST", "/api/auth/sign-up", { headers: page, form: { email: uniqueEmail("formv"), password: "abc", confirmPassword: "abc" } });
    expect(short.headers.get("Location")).toBe("/auth?mode=signup&error=weak_password");
    expect(authErrorBox(await (await call("GET", short.headers.get("Location")!)).text())).toBe("密码长度至少6位");

    const noConfirm = await call("POST", "/api/auth/sign-up", { headers: page, form: { email: uniqueEmail("formv"), password: PASSWORD } });
    expect(noConfirm.headers.get("Location")).toBe("/auth?mode=signup&error=password_mismatch");

    const unknownCode = await call("GET", "/auth?mode=signin&error=whatever");
    expect(authErrorBox(await unknownCode.text())).toBe("操作失败，请重试");
  });
});

// ---- EXPOSE_ACCOUNT_API --------------------------------------------------------------------

describe("EXPOSE_ACCOUNT_API", () => {
  it("off by default: /auth/v1/* is not served", async () => {
    const get = await call("GET", "/auth/v1/settings");
    expect(get.status).toBe(404);
    expect(get.headers.get("Content-Type")).toContain("text/html");
    const post = await call("POST", "/auth/v1/signup", { json: { email: uniqueEmail("exposed"), password: PASSWORD }, headers: { apikey: "x" } });
    expect([404, 405]).toContain(post.status);
    expect(await post.text()).not.toContain("access_token");
  });

  it("set: the embedded service answers on /auth/v1/*", async () => {
    const email = uniqueEmail("exposed");
    const res = await callWith({ EXPOSE_ACCOUNT_API: "1" }, "POST", "/auth/v1/signup", { json: { email, password: PASSWORD }, headers: { apikey: "x" } });
    expect(res.status).toBe(200);
    const body = await json<ServiceSessionBody>(res);
    expect(body.user.email).toBe(email);
    expect(typeof body.access_token).toBe("string");

    // Never when a real project is configured.
    const real = await callWith({ EXPOSE_ACCOUNT_API: "1", SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "x" }, "GET", "/auth/v1/settings");
    expect(real.status).toBe(404);
  });
});
