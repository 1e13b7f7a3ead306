import { describe, expect, it } from "vitest";
import { matchRoutes, type RouteObject } from "../../shared/router";
import { decodePath, matchPattern } from "../../shared/router/match";
import { createRoutes, declarationOf } from "../../shared/routes/create-routes";

/**
 * The router's matcher (shared/router/match.ts) on the site's own table: the page a path shows,
 * with React Router's rules the site relied on (ranking, case, a trailing "/", decoding).
 */

const noLoader = () => null;
const routes = createRoutes({ rootLoader: noLoader, sessionUser: noLoader, pageData: () => noLoader, ranking: () => Promise.reject(new Error("not called")) });

/** The declared page and the parameters a path matches. */
function pageAt(pathname: string) {
  const matches = matchRoutes(routes, pathname);
  const leaf = matches?.at(-1);
  return { ids: matches?.map((m) => m.route.id), page: declarationOf(leaf?.route ?? {})?.id, routeId: leaf?.route.id, params: leaf?.params };
}

describe("matchRoutes on the site's table", () => {
  it("gives the branch root → pages → the page, with the page's parameters", () => {
    expect(pageAt("/video/video_001")).toEqual({ ids: ["root", "pages", "video"], page: "video", routeId: "video", params: { id: "video_001" } });
    expect(pageAt("/video/video_003/2")).toMatchObject({ page: "video", routeId: "video-1", params: { id: "video_003", episode: "2" } });
    expect(pageAt("/")).toMatchObject({ page: "home", params: {} });
    expect(pageAt("/info/about")).toMatchObject({ page: "info", params: { page: "about" } });
  });

  it("ranks static paths before parameters before the catch-all", () => {
    expect(pageAt("/auth/confirm").page).toBe("confirm-link");
    expect(pageAt("/auth/reset").page).toBe("reset-password");
    expect(pageAt("/latest").page).toBe("listing");
    expect(pageAt("/top-rated").page).toBe("listing");
    expect(pageAt("/no/such/page")).toMatchObject({ page: "not-found", params: { "*": "no/such/page" } });
    expect(pageAt("/video").page).toBe("not-found");
    expect(pageAt("/video/a/b/c").page).toBe("not-found");
  });

  it("is case-insensitive and takes one trailing slash, as React Router did", () => {
    expect(pageAt("/VIDEO/video_001")).toMatchObject({ page: "video", params: { id: "video_001" } });
    expect(pageAt("/latest/").page).toBe("listing");
    expect(pageAt("/video/video_001/")).toMatchObject({ page: "video", params: { id: "video_001" } });
  });

  it("decodes parameters; an encoded '/' stays inside its parameter; an undecodable path keeps its escapes", () => {
    expect(pageAt("/category/%E7%94%B5%E5%BD%B1").params).toEqual({ name: "电影" });
    expect(pageAt("/category/a%2Fb").params).toEqual({ name: "a/b" });
    expect(pageAt("/info/%E0%A4%A")).toMatchObject({ page: "info", params: { page: "%E0%A4%A" } });
    expect(decodePath("/a%20b/%E7%94%B5")).toBe("/a b/电");
    expect(decodePath("/%ZZ/%E7")).toBe("/%ZZ/%E7");
  });
});

describe("matchPattern", () => {
  it("fits the whole path", () => {
    expect(matchPattern("/video/:id", "/video/x")).toEqual({ id: "x" });
    expect(matchPattern("/video/:id", "/video/x/y")).toBeNull();
    expect(matchPattern("/video/:id", "/videos/x")).toBeNull();
    expect(matchPattern("/", "/")).toEqual({});
    expect(matchPattern("/", "/a")).toBeNull();
    expect(matchPattern("/*", "/")).toEqual({ "*": "" });
    expect(matchPattern("/a.b", "/aXb")).toBeNull();
  });
});

describe("a table of its own", () => {
  const table: RouteObject[] = [
    {
      id: "root",
      path: "/",
      children: [
        { id: "index", index: true },
        { id: "about", path: "about" },
      ],
    },
    { id: "admin", path: "/admin", children: [{ id: "users", path: "users" }] },
  ];
  it("a parent with a path matches alone too; an index route wins over its parent", () => {
    expect(matchRoutes(table, "/")?.map((m) => m.route.id)).toEqual(["root", "index"]);
    expect(matchRoutes(table, "/admin")?.map((m) => m.route.id)).toEqual(["admin"]);
    expect(matchRoutes(table, "/admin/users")?.map((m) => m.route.id)).toEqual(["admin", "users"]);
    expect(matchRoutes(table, "/nothing")).toBeNull();
  });

  it("a static segment outranks a parameter, and a parameter the catch-all, whatever the table's order", () => {
    const pages: RouteObject[] = [
      { id: "any", path: "*" },
      { id: "video", path: "video/:id" },
      { id: "upload", path: "video/new" },
    ];
    expect(matchRoutes(pages, "/video/new")?.[0].route.id).toBe("upload");
    expect(matchRoutes(pages, "/video/x")?.[0].route.id).toBe("video");
    expect(matchRoutes(pages, "/videos")?.[0].route.id).toBe("any");
  });
});
