// Media and render faults, each with its defined response (inside workerd, against the real worker):
//  - R2 get/head throwing: 503 + no-store for media, the pages still render;
//  - a render error before the shell: the Chinese 500 page; after the shell: the Suspense
//    boundary's fallback stays in the HTML, a log line names the path, the page still ends
//    with </html>, and the edge cache does not keep it; pages stream in few chunks.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { createElement as h, Suspense, use } from "react";
import type { RouteObject } from "../../shared/router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../worker/app-env";
import { withPageCache } from "../../worker/page-cache";
import { securityHeaders } from "../../worker/security";
import { anonymousRootData, renderWithRoutes } from "../../worker/ssr";
import { BASE, callWith } from "./helpers/visitor";

afterEach(() => {
  vi.restoreAllMocks();
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

function renderApp(routes: RouteObject[], cached = false): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  pages.use("*", securityHeaders);
  pages.get("*", (c) => {
    const render = () => renderWithRoutes(routes, c, anonymousRootData(c));
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

/** A page whose shell is sent at once and whose Suspense content waits for `promise`. */
function suspendedPage(promise: Promise<string>) {
  return [
    {
      id: "page",
      path: "/",
      element: h("main", null, h("h1", null, "外壳已发送"), h(Suspense, { fallback: h("div", { className: "loading" }, "加载中…") }, h(LateBoom, { promise }))),
    },
  ];
}

/** A page whose Suspense content fails `delayMs` after the shell; `failed` settles after that. */
function lateFailure(delayMs: number) {
  const failure = new Promise<string>((_, reject) => setTimeout(() => reject(new Error("late render failure (test)")), delayMs));
  const failed = failure.then(
    () => undefined,
    () => undefined,
  );
  return { routes: suspendedPage(failure), failed };
}

describe("render errors", () => {
  it("before the shell: the Chinese 500 page, no-store, and a log line with the path", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const pages = renderApp([{ id: "page", path: "/", element: h(Boom) }]);
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
        id: "page",
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
    const fine = renderApp([{ id: "page", path: "/", element: h("p", null, "好页面") }], true);
    const okUrl = `https://render-${crypto.randomUUID().slice(0, 8)}.test/`;
    expect((await fetchApp(fine, okUrl)).res.headers.get("X-Cache")).toBe("MISS");
    const hit = await fetchApp(fine, okUrl);
    expect(hit.res.headers.get("X-Cache")).toBe("HIT");
    expect(hit.html).toContain("好页面");
  });

  it("a boundary that never settles: at the render's deadline the page ends with its fallback, a log line, and is not cached", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const routes = suspendedPage(new Promise<string>(() => {}));
    const pages = new Hono<AppEnv>();
    pages.use("*", securityHeaders);
    pages.get("*", (c) => withPageCache(c, () => renderWithRoutes(routes, c, anonymousRootData(c), { deadlineMs: 300 })));
    const url = `https://render-${crypto.randomUUID().slice(0, 8)}.test/`;
    const first = await fetchApp(pages, url);
    expect(first.res.status).toBe(200);
    expect(first.html).toContain("外壳已发送");
    expect(first.html).toContain('<div class="loading">加载中…</div>');
    expect(first.html.includes("<!--$!-->") || first.html.includes("$RX")).toBe(true);
    expect(first.html.trimEnd().endsWith("</html>")).toBe(true);
    expect(errors.mock.calls.some((args) => String(args[0]) === "SSR render error on /")).toBe(true);
    const second = await fetchApp(pages, url);
    expect(second.res.headers.get("X-Cache")).toBe("MISS");
  });

  it("a request aborted after the shell still ends the document", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const late = lateFailure(500);
    const pages = new Hono<AppEnv>();
    pages.use("*", securityHeaders);
    const controller = new AbortController();
    pages.get("*", (c) => renderWithRoutes(late.routes, c, anonymousRootData(c)));
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
        id: "page",
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
    const pages = renderApp([{ id: "page", path: "/", element: h("main", null, rows) }]);
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
