// The account service failing, each fault with its defined response (inside workerd, against the
// real worker): down, slow (timeout) or answering garbage, sign-in gets a clear 503, browsing keeps
// working, a valid session cookie is never dropped, and the worker's calls to it stay bounded.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_SERVICE_TIMEOUT_MS, accountServiceTimeoutMs } from "../../worker/auth/session";
import { REFRESH_FIRST_DELAY_MS } from "../../worker/auth/service-fetch";
import { collectErrorLogs } from "./helpers/error-log";
import { callRead, callWith, COOKIE, expiringCopy, PASSWORD, signUp, uniqueEmail, type Jar } from "./helpers/visitor";

const GENERIC = "操作失败，请重试";
/** What the worker logged for the operator (worker/auth/responses.ts). */
const errorLogs = collectErrorLogs();

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
  const logsBefore = errorLogs.length;
  const signIn = await service.during(() => callWith(overrides, "POST", "/api/auth/sign-in", { json: { email: uniqueEmail("fault"), password: PASSWORD } }));
  expect(signIn.result.res.status).toBe(503);
  expect(errorBody(signIn.result.text)).toEqual({ code: "service_unavailable", message: GENERIC });
  // The operator sees why in the log.
  expect(errorLogs.slice(logsBefore).some((line) => line.startsWith("account service unavailable:"))).toBe(true);
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
