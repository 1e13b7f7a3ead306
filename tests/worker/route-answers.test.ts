import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { NotFoundKind } from "../../shared/loaders";
import type { RouteDeclaration } from "../../shared/routes/declare";
import app from "../../worker/index";
import { PAGE_DATA_CACHE, type PageDataNotFound } from "../../worker/catalogue/api";
import { ANONYMOUS_HTML_CACHE } from "../../worker/page-cache";
import { MISSING_SAMPLES, PAGE_SAMPLES, REDIRECT_SAMPLES } from "../route-samples";
import { inlineScripts } from "./helpers/page-scripts";

/**
 * What every declared route answers (shared/routes/*.route.ts and their samples): its status, who
 * may keep its HTML (`html`: stored at the edge, public, private), whether GET /api/page answers
 * its data (`data`), and the player page's Link header (`player`). A new page is covered here by
 * its declaration.
 */

const BASE = "https://routes.test";

/** A GET of the worker, its body read and every cache write it started finished. */
async function settledGet(url: string): Promise<{ res: Response; body: string }> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(BASE + url), env, ctx);
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, body };
}

const htmlCacheControl = (route: RouteDeclaration) => (route.html === "private" ? "private, no-store" : ANONYMOUS_HTML_CACHE);

describe("the declared routes' answers", () => {
  it.each(PAGE_SAMPLES.map((s) => [s.url, s.route] as const))("%s: 200, kept at the edge only where declared", async (url, route) => {
    const first = await settledGet(url);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("Cache-Control")).toBe(htmlCacheControl(route));
    expect(first.res.headers.get("X-Cache")).toBe(route.html === "edge" ? "MISS" : null);
    const second = await settledGet(url);
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get("X-Cache")).toBe(route.html === "edge" ? "HIT" : null);
    // The player page's additions (worker/player-page.ts) only where declared.
    expect(first.res.headers.has("Link")).toBe(route.player === true);
    const startScripts = inlineScripts(first.body).filter((script) => script.body.includes("modulepreload"));
    expect(startScripts).toHaveLength(route.player ? 2 : 0);
  });

  it.each(MISSING_SAMPLES.map((s) => s.url))("%s: 404, never stored", async (url) => {
    for (let i = 0; i < 2; i++) {
      const { res } = await settledGet(url);
      expect(res.status).toBe(404);
      expect(res.headers.get("X-Cache")).not.toBe("HIT");
      expect(res.headers.has("Link")).toBe(false);
    }
  });

  it.each(REDIRECT_SAMPLES.map((s) => s.url))("%s: an anonymous visitor is redirected, privately", async (url) => {
    const { res } = await settledGet(url);
    expect(res.status).toBe(302);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it.each(PAGE_SAMPLES.filter((s) => !s.url.startsWith("/?") && s.url !== "/").map((s) => s.url))(
    "%s with a trailing slash: 301 to the page itself, the query kept",
    async (url) => {
      const page = new URL(url, BASE);
      const query = (page.search ? page.search + "&" : "?") + "from=%F0%9F%98%80";
      const { res, body } = await settledGet(`${page.pathname}/${query}`);
      expect(res.status).toBe(301);
      expect(res.headers.get("Location")).toBe(page.pathname + query);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=86400");
      expect(body).not.toContain("<html");
    },
  );

  it("GET /api/page answers the data pages' data (and their 404 kinds), nothing else", async () => {
    for (const { url, route } of PAGE_SAMPLES) {
      const { res, body } = await settledGet("/api/page" + url);
      if ("data" in route) {
        expect(res.status, url).toBe(200);
        expect(res.headers.get("Cache-Control"), url).toBe(PAGE_DATA_CACHE);
        expect(typeof JSON.parse(body), url).toBe("object");
      } else {
        expect(res.status, url).toBe(404);
        expect(JSON.parse(body), url).toEqual({ notFound: "page" } satisfies PageDataNotFound);
      }
    }
    for (const { url, route, kind } of MISSING_SAMPLES) {
      const { res, body } = await settledGet("/api/page" + url);
      expect(res.status, url).toBe(404);
      const expected: NotFoundKind = "data" in route ? kind : "page";
      expect(JSON.parse(body), url).toEqual({ notFound: expected } satisfies PageDataNotFound);
    }
  });
});
