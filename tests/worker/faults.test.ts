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
import { REFRESH_FIRST_DELAY_MS } from "../../worker/auth/service-fetch";
import { withPageCache } from "../../worker/page-cache";
import { securityHeaders } from "../../worker/security";
import { anonymousRootData, renderWithHandler } from "../../worker/ssr";
import { callRead, COOKIE, expiringCopy, PASSWORD, signUp, uniqueEmail, type CallOptions, type Jar } from "./helpers/visitor";

const BASE = "https://yingshi.test";
const GENERIC = "操作失败，请重试";

// ---- helpers -------------------------------------------------------------------------------

/** The worker with some bindings overridden, its body read and its waitUntil work done. */
const callWith = (overrides: Partial<Env>, method: string, path: string, o: CallOptions = {}) => callRead(method, path, { ...o, env: overrides });

/** A signed-up visitor's session (made while the embedded service is up). */
async function session(): Promise<Jar> {
  return (await signUp("fault")).jar;
}

/** The same session with its access token expired, so that reading the user needs a refresh. */
const expired = (jar: Jar): Jar => expiringCopy(jar, -120);

function errorBody(text: string): { code: string; message: string } {
  return (JSON.parse(text) as { error: { code: string; message: string } }).error;
}

/** No Set-Cookie at all: the session the visitor has is kept as it is. */
function expectCookieKept(res: Response) {
  expect(res.headers.getSetCookie()).toEqual([]);
}

/**
 * The most account-service calls one account step may make with a budget of `timeoutMs`: the
 * call itself, and a refused token refresh tried again after 200, 400, 800 ms … while the waits
 * fit in half the budget (worker/auth/service-fetch.ts). supabase-js on its own would retry a
 * failed refresh for up to 30 s; a bound on the calls catches that without timing anything.
 */
function maxCallsPerStep(timeoutMs: number): number {
  let calls = 1;
  for (let delay = REFRESH_FIRST_DELAY_MS, waited = 0; waited + delay <= timeoutMs / 2; waited += delay, delay *= 2) calls++;
  return calls;
}

/**
 * The most calls one signed-in request may make: its account step (reading the user, with the
 * refresh), then, after a transient failure, one check of the stored access token
 * (worker/auth/session.ts userFromStoredToken).
 */
const maxCallsPerRequest = (timeoutMs: number): number => maxCallsPerStep(timeoutMs) + 1;

/** A watched account service: every call the worker made to it (with a live signal), in order. */
interface Watched {
  calls: string[];
  /** The calls one request made (how many were added while `run` ran). */
  during<T>(run: () => Promise<T>): Promise<{ result: T; calls: string[] }>;
}

/** What every account fault must give: sign-in 503, pages fine, sessions kept, a bounded number of service calls. */
async function expectAccountFaultHandled(overrides: Partial<Env>, service: Watched) {
  const perRequest = maxCallsPerRequest(accountServiceTimeoutMs({ ...env, ...overrides }));
  const signIn = await service.during(() => callWith(overrides, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("fault"), password: PASSWORD } }));
  expect(signIn.result.res.status).toBe(503);
  expect(errorBody(signIn.result.text)).toEqual({ code: "service_unavailable", message: GENERIC });
  expect(signIn.result.res.headers.get("Cache-Control")).toBe("no-store");
  // One password grant, never tried again.
  expect(signIn.calls).toEqual(["POST /auth/v1/token?grant_type=password"]);

  const signUpDown = await service.during(() =>
    callWith(overrides, "POST", "/api/auth/sign-up", { json: { email: uniqueEmail("fault"), password: PASSWORD, confirmPassword: PASSWORD } }),
  );
  expect(signUpDown.result.res.status).toBe(503);
  expect(signUpDown.calls).toHaveLength(1);

  // Browsing without an account is not touched at all: no call to the service.
  for (const path of ["/", "/video/video_005", "/search?q=家"]) {
    const page = await service.during(() => callWith(overrides, "GET", path));
    expect(page.result.res.status).toBe(200);
    expect(page.result.text).toContain("</html>");
    expect(page.calls, path).toEqual([]);
  }

  const jar = await session();
  for (const [label, sent] of [
    ["fresh session", jar],
    ["expired access token (needs a refresh)", expired(jar)],
  ] as const) {
    const user = await service.during(() => callWith(overrides, "GET", "/api/auth/user", { jar: sent }));
    expect(user.result.res.status, label).toBe(503);
    expect(errorBody(user.result.text).code).toBe("service_unavailable");
    expectCookieKept(user.result.res);
    expect(user.calls.length, `${label}: ${user.calls.join(", ")}`).toBeLessThanOrEqual(perRequest);

    const page = await service.during(() => callWith(overrides, "GET", "/video/video_005", { jar: sent }));
    expect(page.result.res.status, label).toBe(200);
    expect(page.result.text).toContain("</html>");
    expectCookieKept(page.result.res);
    expect(page.calls.length, `${label}: ${page.calls.join(", ")}`).toBeLessThanOrEqual(perRequest);

    const put = await callWith(overrides, "PUT", "/api/auth/user", { jar: sent, json: { data: { library: { favourites: [], history: [] } } } });
    expect(put.res.status, label).toBe(503);
    expectCookieKept(put.res);
  }

  // Signing out still signs out (the cookies go), without waiting for the service.
  const out = await service.during(() => callWith(overrides, "POST", "/api/auth/sign-out", { jar: expired(jar) }));
  expect(out.result.res.status).toBe(200);
  expect(out.result.res.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`) && /max-age=0/i.test(c))).toBe(true);
  expect(out.calls.length, out.calls.join(", ")).toBeLessThanOrEqual(perRequest);

  // The service is back: the same cookie is still a session (expired one refreshed).
  const back = await callRead("GET", "/api/auth/user", { jar: expired(jar) });
  expect(back.res.status).toBe(200);
  expect((JSON.parse(back.text) as { user: unknown }).user).not.toBeNull();
}

afterEach(() => {
  vi.restoreAllMocks();
});

// ---- account service -----------------------------------------------------------------------

const REMOTE = "https://accounts.fault.test";
/** Nothing listens there: the connection is refused. */
const REFUSED = "http://127.0.0.1:9";

/**
 * Watches the worker's calls to the account service at `origin`: each gets `answer` (by default
 * the real network, e.g. a refused connection); anything else goes to the real fetch.
 */
function watchAccountService(origin: string, answer?: (request: Request, signal: AbortSignal | null | undefined) => Promise<Response>): Watched {
  const realFetch = globalThis.fetch;
  const calls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(origin)) return realFetch(input, init);
    // A call whose signal is already aborted never reaches the network (fetch rejects at once):
    // only calls that do are counted.
    if (!init?.signal?.aborted) calls.push(`${req.method} ${new URL(req.url).pathname}${new URL(req.url).search}`);
    return answer ? answer(req, init?.signal) : realFetch(input, init);
  });
  return {
    calls,
    async during(run) {
      const before = calls.length;
      const result = await run();
      return { result, calls: calls.slice(before) };
    },
  };
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
    const service = watchAccountService(REFUSED);
    await expectAccountFaultHandled({ SUPABASE_URL: REFUSED, SUPABASE_ANON_KEY: "k" }, service);
  });

  it("slow (never answers): every account step gives up after the timeout", async () => {
    const aborted: unknown[] = [];
    const service = watchAccountService(
      REMOTE,
      (_req, signal) =>
        new Promise<Response>((_, reject) => {
          signal?.addEventListener(
            "abort",
            () => {
              aborted.push(signal.reason);
              reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
            },
            { once: true },
          );
        }),
    );
    const SLOW: Partial<Env> = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k", ACCOUNT_SERVICE_TIMEOUT_MS: "300" };
    // The service never answers: the 503 can only come from the worker giving up on the call
    // (without a timeout this request would hang until the test's own timeout fails it).
    const signIn = await service.during(() => callWith(SLOW, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("slow"), password: PASSWORD } }));
    expect(signIn.result.res.status).toBe(503);
    expect(errorBody(signIn.result.text).message).toBe(GENERIC);
    expect(signIn.calls).toEqual(["POST /auth/v1/token?grant_type=password"]);
    // The call was cut off by its timeout signal.
    expect(aborted).toHaveLength(1);
    expect((aborted[0] as Error).name).toBe("TimeoutError");
    await expectAccountFaultHandled(SLOW, service);
  });

  it("a service that ignores the abort signal is still cut off at the timeout", async () => {
    const service = watchAccountService(REMOTE, () => new Promise<Response>(() => {}));
    const SLOW: Partial<Env> = { SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k", ACCOUNT_SERVICE_TIMEOUT_MS: "200" };
    // Nothing ever answers: only the worker's own deadline can end these requests.
    const signIn = await service.during(() => callWith(SLOW, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("slow"), password: PASSWORD } }));
    expect(signIn.result.res.status).toBe(503);
    expect(signIn.calls).toHaveLength(1);
    const jar = await session();
    const user = await service.during(() => callWith(SLOW, "GET", "/api/auth/user", { jar: expired(jar) }));
    expect(user.result.res.status).toBe(503);
    expectCookieKept(user.result.res);
    expect(user.calls.length).toBeLessThanOrEqual(maxCallsPerRequest(200));
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
    const service = watchAccountService(REMOTE, () => Promise.resolve(answer()));
    await expectAccountFaultHandled({ SUPABASE_URL: REMOTE, SUPABASE_ANON_KEY: "k", ACCOUNT_SERVICE_TIMEOUT_MS: "2000" }, service);
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
