// Faults, each with its defined response (inside workerd, against the real worker):
//  - the account service down, slow (timeout) or answering garbage: sign-in gets a clear 503,
//    browsing keeps working, a valid session cookie is never dropped;
//  - R2 get/head throwing: 503 + no-store for media, the pages still render;
//  - a render error before the shell: the Chinese 500 page; after the shell: the Suspense
//    boundary's fallback stays in the HTML, a log line names the path, the page still ends
//    with </html>, and the edge cache does not keep it.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { createElement as h, Suspense, use } from "react";
import { createStaticHandler } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../worker/app-env";
import { ACCOUNT_SERVICE_TIMEOUT_MS, accountServiceTimeoutMs } from "../../worker/auth/session";
import app from "../../worker/index";
import { withPageCache } from "../../worker/page-cache";
import { securityHeaders } from "../../worker/security";
import { anonymousRootData, renderWithHandler } from "../../worker/ssr";
import { base64UrlToBytes, bytesToBase64Url } from "../../worker/account-service/encoding";

const BASE = "https://yingshi.test";
const COOKIE = "yingshi-auth";
const PASSWORD = "secret-pass-1";
const GENERIC = "操作失败，请重试";

const runTag = crypto.randomUUID().slice(0, 4);
let ipSeq = 0;
const uniqueIp = () => `2001:db8:${runTag}:fa::${(++ipSeq).toString(16)}`;
const uniqueEmail = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`;

// ---- helpers -------------------------------------------------------------------------------

interface CallOptions {
  json?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
}

function request(method: string, path: string, o: CallOptions = {}, base = BASE): Request {
  const headers = new Headers(o.headers);
  headers.set("CF-Connecting-IP", uniqueIp());
  if (o.cookie) headers.set("Cookie", o.cookie);
  let body: string | undefined;
  if (o.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(o.json);
  }
  return new Request(base + path, { method, headers, body, redirect: "manual" });
}

/** The worker with some bindings overridden; also how long it took. */
async function callWith(overrides: Partial<Env>, method: string, path: string, o: CallOptions = {}): Promise<{ res: Response; ms: number; text: string }> {
  const ctx = createExecutionContext();
  const started = Date.now();
  const res = await app.fetch(request(method, path, o), { ...env, ...overrides }, ctx);
  const text = await res.text();
  const ms = Date.now() - started;
  await waitOnExecutionContext(ctx);
  return { res, ms, text };
}

const call = (method: string, path: string, o: CallOptions = {}) => callWith({}, method, path, o);

const fromBase64Url = (text: string): string => new TextDecoder().decode(base64UrlToBytes(text) ?? new Uint8Array());
const toBase64Url = (text: string): string => bytesToBase64Url(new TextEncoder().encode(text));

/** A signed-up visitor's session cookie (made while the embedded service is up). */
async function sessionCookie(): Promise<string> {
  const { res } = await call("POST", "/api/auth/sign-up", { json: { email: uniqueEmail("fault"), password: PASSWORD, confirmPassword: PASSWORD } });
  expect(res.status).toBe(200);
  const pairs = res.headers.getSetCookie().map((raw) => raw.split(";")[0]);
  const cookie = pairs.find((p) => p.startsWith(`${COOKIE}=`));
  expect(cookie).toBeDefined();
  return cookie!;
}

/** The same session with its access token expired, so that reading the user needs a refresh. */
function expired(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(COOKIE.length + 1));
  const session = JSON.parse(fromBase64Url(value.slice("base64-".length))) as Record<string, unknown>;
  const stale = { ...session, expires_at: Math.floor(Date.now() / 1000) - 120, expires_in: -120 };
  return `${COOKIE}=base64-${toBase64Url(JSON.stringify(stale))}`;
}

function errorBody(text: string): { code: string; message: string } {
  return (JSON.parse(text) as { error: { code: string; message: string } }).error;
}

/** No Set-Cookie at all: the session the visitor has is kept as it is. */
function expectCookieKept(res: Response) {
  expect(res.headers.getSetCookie()).toEqual([]);
}

/** What every account fault must give: sign-in 503 fast, pages fine, sessions kept. */
async function expectAccountFaultHandled(overrides: Partial<Env>, maxMs: number) {
  const signIn = await callWith(overrides, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("fault"), password: PASSWORD } });
  expect(signIn.res.status).toBe(503);
  expect(errorBody(signIn.text)).toEqual({ code: "service_unavailable", message: GENERIC });
  expect(signIn.res.headers.get("Cache-Control")).toBe("no-store");
  expect(signIn.ms).toBeLessThan(maxMs);

  const signUp = await callWith(overrides, "POST", "/api/auth/sign-up", {
    json: { email: uniqueEmail("fault"), password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(signUp.res.status).toBe(503);
  expect(signUp.ms).toBeLessThan(maxMs);

  // Browsing without an account is not touched at all.
  for (const path of ["/", "/video/video_005", "/search?q=家"]) {
    const page = await callWith(overrides, "GET", path);
    expect(page.res.status).toBe(200);
    expect(page.text).toContain("</html>");
  }

  const cookie = await sessionCookie();
  for (const [label, sent] of [
    ["fresh session", cookie],
    ["expired access token (needs a refresh)", expired(cookie)],
  ] as const) {
    const user = await callWith(overrides, "GET", "/api/auth/user", { cookie: sent });
    expect(user.res.status, label).toBe(503);
    expect(errorBody(user.text).code).toBe("service_unavailable");
    expectCookieKept(user.res);
    expect(user.ms, label).toBeLessThan(maxMs);

    const page = await callWith(overrides, "GET", "/video/video_005", { cookie: sent });
    expect(page.res.status, label).toBe(200);
    expect(page.text).toContain("</html>");
    expectCookieKept(page.res);
    expect(page.ms, label).toBeLessThan(maxMs);

    const put = await callWith(overrides, "PUT", "/api/auth/user", { cookie: sent, json: { data: { library: { favourites: [], history: [] } } } });
    expect(put.res.status, label).toBe(503);
    expectCookieKept(put.res);
  }

  // Signing out still signs out (the cookies go), without waiting for the service.
  const out = await callWith(overrides, "POST", "/api/auth/sign-out", { cookie: expired(cookie) });
  expect(out.res.status).toBe(200);
  expect(out.res.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`) && /max-age=0/i.test(c))).toBe(true);
  expect(out.ms).toBeLessThan(maxMs);

  // The service is back: the same cookie is still a session (expired one refreshed).
  const back = await call("GET", "/api/auth/user", { cookie: expired(cookie) });
  expect(back.res.status).toBe(200);
  expect((JSON.parse(back.text) as { user: unknown }).user).not.toBeNull();
}

afterEach(() => {
  vi.restoreAllMocks();
});

// ---- account service -----------------------------------------------------------------------

const REMOTE = "https://accounts.fault.test";

/** Stands in for the network: calls to REMOTE get `answer`, anything else the real fetch. */
function fakeAccountService(answer: (request: Request, signal: AbortSignal | null | undefined) => Promise<Response>) {
  const realFetch = globalThis.fetch;
  const calls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(REMOTE)) return realFetch(input, init);
    calls.push(`${req.method} ${new URL(req.url).pathname}${new URL(req.url).search}`);
    return answer(req, init?.signal);
  });
  return calls;
}

describe("account service faults", () => {
  it("the timeout comes from ACCOUNT_SERVICE_TIMEOUT_MS, 8000 ms by default", () => {
    expect(ACCOUNT_SERVICE_TIMEOUT_MS).toBe(8000);
    expect(accountServiceTimeoutMs({} as Env)).toBe(8000);
    expect(accountServiceTimeoutMs({ ACCOUNT_SERVICE_TIMEOUT_MS: "250" } as Env)).toBe(250);
    // Bad values are configuration errors (worker/config.ts), never silently replaced.
    for (const bad of ["", "abc", "-5", "0"])
      expect(() => accountServiceTimeoutMs({ ACCOUNT_SERVICE_TIMEOUT_MS: bad } as Env)).toThrow(/ACCOUNT_SERVICE_TIMEOUT_MS/);
  });

  it("down (connection refused): sign-in 503, browsing works, sessions kept — and no 30 s refresh retries", async () => {
    await expectAccountFaultHandled({ SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "k" }, 3000);
  });

  it("slow (never answers): every account step gives up after the timeout", async () => {
    const calls = fakeAccountService(
      (_req, signal) =>
        new Promise<Response>((_, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted")), { once: true });
        }),
    );
    const SLOW: Partial<Env> = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k", ACCOUNT_SERVICE_TIMEOUT_MS: "300" };
    const signIn = await callWith(SLOW, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("slow"), password: PASSWORD } });
    expect(signIn.res.status).toBe(503);
    expect(errorBody(signIn.text).message).toBe(GENERIC);
    expect(signIn.ms).toBeGreaterThanOrEqual(250);
    expect(signIn.ms).toBeLessThan(2000);
    expect(calls).toEqual(["POST /auth/v1/token?grant_type=password"]);
    await expectAccountFaultHandled(SLOW, 2000);
  });

  it("a service that ignores the abort signal is still cut off at the timeout", async () => {
    fakeAccountService(() => new Promise<Response>(() => {}));
    const SLOW: Partial<Env> = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k", ACCOUNT_SERVICE_TIMEOUT_MS: "200" };
    const signIn = await callWith(SLOW, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("slow"), password: PASSWORD } });
    expect(signIn.res.status).toBe(503);
    expect(signIn.ms).toBeLessThan(2000);
    const user = await callWith(SLOW, "GET", "/api/auth/user", { cookie: expired(await sessionCookie()) });
    expect(user.res.status).toBe(503);
    expectCookieKept(user.res);
    expect(user.ms).toBeLessThan(2000);
  });

  const garbage: Array<[string, () => Response]> = [
    ["an HTML page with 200", () => new Response("<!doctype html><h1>Welcome to nginx</h1>", { headers: { "Content-Type": "text/html" } })],
    ["an HTML error page with 502", () => new Response("<html><body>Bad Gateway</body></html>", { status: 502, headers: { "Content-Type": "text/html" } })],
    ["{} with 200", () => Response.json({})],
    ["invalid JSON with 200", () => new Response('{"access_token": ', { headers: { "Content-Type": "application/json" } })],
    ["a 200 with no user", () => Response.json({ user: null, access_token: null })],
    ["an empty 500", () => new Response(null, { status: 500 })],
    ["plain text 400", () => new Response("nope", { status: 400, headers: { "Content-Type": "text/plain" } })],
  ];

  it.each(garbage)("answering garbage (%s): sign-in 503, browsing works, sessions kept", async (_label, answer) => {
    fakeAccountService(() => Promise.resolve(answer()));
    await expectAccountFaultHandled({ SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k", ACCOUNT_SERVICE_TIMEOUT_MS: "2000" }, 2500);
  });
});

// ---- R2 ------------------------------------------------------------------------------------

describe("R2 faults", () => {
  const broken = {
    get: () => Promise.reject(new Error("R2 get failed (test)")),
    head: () => Promise.reject(new Error("R2 head failed (test)")),
    list: () => Promise.reject(new Error("R2 list failed (test)")),
  } as unknown as R2Bucket;
  const R2_DOWN: Partial<Env> = { MEDIA: broken };

  it("media answers 503 + no-store with a Chinese message; pages still render", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const cases: Array<[string, string, Record<string, string>]> = [
      ["GET", "/5.mp4", {}],
      ["GET", "/5.mp4", { Range: "bytes=0-99" }],
      ["GET", "/5.mp4", { Range: "bytes=-100" }],
      ["GET", "/5.mp4", { "If-None-Match": '"x"' }],
      ["HEAD", "/5.mp4", {}],
      ["GET", "/5.webp", {}],
    ];
    for (const [method, path, headers] of cases) {
      const { res, text } = await callWith(R2_DOWN, method, path, { headers });
      expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(503);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("Retry-After")).not.toBeNull();
      if (method === "GET") expect(text).toBe("媒体服务暂时不可用，请稍后重试");
    }
    expect(errors).toHaveBeenCalled();

    for (const path of ["/video/video_005", "/", "/category/all"]) {
      const page = await callWith(R2_DOWN, "GET", path);
      expect(page.res.status).toBe(200);
      expect(page.text).toContain("</html>");
    }
  });
});

// ---- render errors -------------------------------------------------------------------------

function Boom(): never {
  throw new Error("render failed (test)");
}

/** Suspends, then fails once the shell has long been sent. */
function LateBoom({ promise }: { promise: Promise<string> }) {
  return h("p", null, use(promise));
}

function renderApp(routes: Parameters<typeof createStaticHandler>[0], cached = false): Hono<AppEnv> {
  const handler = createStaticHandler(routes);
  const pages = new Hono<AppEnv>();
  pages.use("*", securityHeaders);
  pages.get("*", (c) => {
    const render = () => renderWithHandler(handler, c, anonymousRootData(c));
    return cached ? withPageCache(c, render) : render();
  });
  return pages;
}

async function fetchApp(pages: Hono<AppEnv>, url: string): Promise<{ res: Response; html: string }> {
  const ctx = createExecutionContext();
  const res = await pages.fetch(new Request(url), env, ctx);
  const html = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, html };
}

function lateFailingRoutes(delayMs = 30) {
  return lateFailure(delayMs).routes;
}

/** A page whose Suspense content fails `delayMs` after the shell; `failed` settles after that. */
function lateFailure(delayMs: number) {
  const failure = new Promise<string>((_, reject) => setTimeout(() => reject(new Error("late render failure (test)")), delayMs));
  const failed = failure.then(
    () => undefined,
    () => undefined,
  );
  const routes = [
    {
      path: "/",
      element: h(
        "main",
        null,
        h("h1", null, "外壳已发送"),
        h(Suspense, { fallback: h("div", { className: "loading" }, "加载中…") }, h(LateBoom, { promise: failure })),
      ),
    },
  ];
  return { routes, failed };
}

describe("render errors", () => {
  it("before the shell: the Chinese 500 page, no-store, and a log line with the path", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const pages = renderApp([{ path: "/", element: h(Boom) }]);
    const { res, html } = await fetchApp(pages, `${BASE}/`);
    expect(res.status).toBe(500);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain("页面暂时无法显示");
    expect(html).toContain("服务器出现了问题，请稍后刷新重试。");
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(errors.mock.calls.some((args) => String(args[0]).includes("on /"))).toBe(true);
  });

  it("a loader that throws is the route's error element, not a 500", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const pages = renderApp([
      {
        path: "/",
        loader: () => {
          throw new Error("loader failed (test)");
        },
        element: h("p", null, "never"),
        errorElement: h("p", null, "页面加载失败"),
      },
    ]);
    const { res, html } = await fetchApp(pages, `${BASE}/`);
    expect(res.status).toBe(500);
    expect(html).toContain("页面加载失败");
    expect(html).not.toContain("loader failed (test)");
  });

  it("after the shell: 200 with the Suspense fallback and React's client-render marker, a log line, and a complete document", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const pages = renderApp(lateFailingRoutes());
    const { res, html } = await fetchApp(pages, `${BASE}/`);
    expect(res.status).toBe(200);
    expect(html).toContain("外壳已发送");
    expect(html).toContain('<div class="loading">加载中…</div>');
    // The boundary is marked for client rendering ("$!" comment, or the $RX instruction).
    expect(html.includes("<!--$!-->") || html.includes("$RX")).toBe(true);
    // (React's development build also puts the error message there, for its overlay; production does not.)
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(errors.mock.calls.some((args) => String(args[0]) === "SSR render error on /")).toBe(true);
  });

  it("a page whose render failed after the shell is not kept by the edge cache", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const url = `https://render-${crypto.randomUUID().slice(0, 8)}.test/`;
    const failing = renderApp(lateFailingRoutes(), true);
    const first = await fetchApp(failing, url);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("X-Cache")).toBe("MISS");
    const second = await fetchApp(failing, url);
    expect(second.res.headers.get("X-Cache")).toBe("MISS");

    // A page that rendered fine is kept (so the check above is meaningful).
    const fine = renderApp([{ path: "/", element: h("p", null, "好页面") }], true);
    const okUrl = `https://render-${crypto.randomUUID().slice(0, 8)}.test/`;
    expect((await fetchApp(fine, okUrl)).res.headers.get("X-Cache")).toBe("MISS");
    const hit = await fetchApp(fine, okUrl);
    expect(hit.res.headers.get("X-Cache")).toBe("HIT");
    expect(hit.html).toContain("好页面");
  });

  it("a request aborted after the shell still ends the document", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const late = lateFailure(500);
    const handler = createStaticHandler(late.routes);
    const pages = new Hono<AppEnv>();
    pages.use("*", securityHeaders);
    const controller = new AbortController();
    pages.get("*", (c) => renderWithHandler(handler, c, anonymousRootData(c)));
    const ctx = createExecutionContext();
    const res = await pages.fetch(new Request(`${BASE}/`, { signal: controller.signal }), env, ctx);
    setTimeout(() => controller.abort(new Error("visitor went away (test)")), 20);
    const html = await res.text();
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(html).toContain("外壳已发送");
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    // The failure still happens later: let it (and anything React logs about it) happen while
    // console.error is mocked, not while the test file is being torn down.
    await late.failed;
    await new Promise((r) => setTimeout(r, 50));
  });
});

describe("streamed delivery", () => {
  /** The body's chunks as the worker hands them out, decoded, with `onChunk` called after each. */
  async function chunksOf(res: Response, onChunk: (received: string) => void = () => {}): Promise<string[]> {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      chunks.push(decoder.decode(value, { stream: true }));
      onChunk(chunks.join(""));
    }
  }

  it("sends the shell while a Suspense boundary is still waiting, then the boundary's content", async () => {
    let release!: (text: string) => void;
    const late = new Promise<string>((resolve) => (release = resolve));
    const pages = renderApp([
      {
        path: "/",
        element: h("main", null, h("h1", null, "外壳已发送"), h(Suspense, { fallback: h("p", null, "加载中…") }, h(LateBoom, { promise: late }))),
      },
    ]);
    const ctx = createExecutionContext();
    const res = await pages.fetch(new Request(`${BASE}/`), env, ctx);
    let shellSeenWithoutContent = false;
    const chunks = await chunksOf(res, (received) => {
      if (received.includes("外壳已发送") && !received.includes("晚到的内容")) {
        shellSeenWithoutContent = true;
        release("晚到的内容");
      }
    });
    await waitOnExecutionContext(ctx);
    const html = chunks.join("");
    expect(shellSeenWithoutContent).toBe(true);
    expect(html).toContain("晚到的内容");
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
  });

  it("a page of over 50 KB goes out in a few chunks, not one per 4 KB piece React writes", async () => {
    const rows = Array.from({ length: 900 }, (_, i) => h("p", { key: i, className: "row" }, `第 ${i} 行：精彩影视，免费畅享`));
    const pages = renderApp([{ path: "/", element: h("main", null, rows) }]);
    const ctx = createExecutionContext();
    const res = await pages.fetch(new Request(`${BASE}/`), env, ctx);
    const chunks = await chunksOf(res);
    await waitOnExecutionContext(ctx);
    const html = chunks.join("");
    expect(new TextEncoder().encode(html).length).toBeGreaterThan(50 * 1024);
    expect(html).toContain("第 899 行：精彩影视，免费畅享");
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(chunks.length).toBeLessThanOrEqual(3);
  });
});
