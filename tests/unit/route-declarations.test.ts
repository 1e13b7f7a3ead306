import fs from "node:fs";
import path from "node:path";
import { matchRoutes } from "../../shared/router";
import { describe, expect, it } from "vitest";
import { createRoutes, declarationOf, isDataPageIn } from "../../shared/routes/create-routes";
import { isDataRoute, pathsOf } from "../../shared/routes/declare";
import { routeAt } from "../../shared/routes/route-at";
import { SITE_ROUTES } from "../../shared/routes/site-routes";
import { catalogueLoaders } from "../../worker/catalogue/loaders";
import { MISSING_SAMPLES, PAGE_SAMPLES, REDIRECT_SAMPLES, ROUTE_FILES } from "../route-samples";

/**
 * The route declarations (shared/routes/) are consistent: each file is listed once under its own
 * name, paths are unique, every data page has its loader in the worker and in the browser, and
 * what the worker matches before rendering (page cache, GET /api/page) is what the router renders.
 */

const ROUTES_DIR = path.join(import.meta.dirname, "../../shared/routes");
const noLoader = () => {
  throw new Error("not called");
};
const browserLoader = () => null;
const routes = createRoutes({ rootLoader: noLoader, sessionUser: noLoader, pageData: () => browserLoader, ranking: noLoader });

describe("route declarations", () => {
  it("every shared/routes/*.route.ts is listed once (shared/routes/pages.ts), with its file name as id", () => {
    const files = fs.readdirSync(ROUTES_DIR).filter((f) => f.endsWith(".route.ts"));
    expect(files.map((f) => f.replace(/\.route\.ts$/, "")).sort()).toEqual([...ROUTE_FILES.keys()].sort());
    for (const [id, module] of ROUTE_FILES) {
      expect(module.default.id, `${id}.route.ts`).toBe(id);
      expect(
        SITE_ROUTES.filter((r) => r === module.default),
        `${id} in SITE_ROUTES`,
      ).toHaveLength(1);
    }
    expect(SITE_ROUTES).toHaveLength(ROUTE_FILES.size);
  });

  it("no path is declared twice, and exactly one route is the catch-all", () => {
    const paths = SITE_ROUTES.flatMap(pathsOf);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((p) => p === "*")).toHaveLength(1);
    for (const p of paths) expect(p, "paths are relative to /").not.toMatch(/^\/|\/$/);
  });

  it("every data page's catalogue key has a worker loader, and no worker loader is unused", () => {
    const worker = catalogueLoaders(noLoader);
    const keys = SITE_ROUTES.filter(isDataRoute).flatMap((r) => Object.values(r.data));
    for (const key of keys) expect(typeof worker[key], key).toBe("function");
    expect(new Set(keys)).toEqual(new Set(Object.keys(worker)));
  });

  it("every declared path is a route with its declaration as handle; data pages get the platform's page-data loader", () => {
    const pages = routes[0].children?.[0].children ?? [];
    expect(pages).toHaveLength(SITE_ROUTES.flatMap(pathsOf).length);
    for (const page of pages) {
      const route = declarationOf(page);
      expect(route).toBeDefined();
      if (route && isDataRoute(route)) expect(page.loader).toBe(browserLoader);
      else expect(page.loader).not.toBe(browserLoader);
      expect(typeof page.lazy === "function" || page.element === null).toBe(true);
    }
  });

  it("every route has samples; the worker's exact match and the router agree on each of them", () => {
    for (const [id, { samples }] of ROUTE_FILES) {
      const count = samples.pages.length + Object.values(samples.missing ?? {}).flat().length + (samples.redirects ?? []).length;
      expect(count, `${id}.route.ts samples`).toBeGreaterThan(0);
    }
    for (const { route, url } of [...PAGE_SAMPLES, ...MISSING_SAMPLES, ...REDIRECT_SAMPLES]) {
      const { pathname } = new URL(url, "https://x.test");
      expect(routeAt(pathname)?.route.id, url).toBe(route.id);
      expect(declarationOf(matchRoutes(routes, pathname)?.at(-1)?.route ?? {})?.id, url).toBe(route.id);
      expect(isDataPageIn(routes, pathname), url).toBe(isDataRoute(route));
    }
  });

  it("a path with a trailing slash is the catch-all's for the worker's exact match and no data page for prefetching", () => {
    expect(routeAt("/latest/")?.route.id).toBe("not-found");
    expect(isDataPageIn(routes, "/latest/")).toBe(false);
    expect(isDataPageIn(routes, "/latest")).toBe(true);
    expect(isDataPageIn(routes, "/")).toBe(true);
    expect(isDataPageIn(routes, "/ranking")).toBe(false);
  });

  it("a player page is a data page (its Link header reads the page data)", () => {
    for (const route of SITE_ROUTES.filter((r) => r.player)) expect(isDataRoute(route), route.id).toBe(true);
  });
});
