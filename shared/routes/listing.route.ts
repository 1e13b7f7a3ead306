import type { RouteDeclaration, RouteSamples } from "./declare";

/** The listings: a category (or `all`), 最新更新, 高分推荐 — filters, sort, view and page in the query. */
export default {
  id: "listing",
  page: () => import("../pages/ListingPage").then((m) => m.ListingPage),
  data: { "category/:name": "category", latest: "latest", "top-rated": "topRated" },
  html: "edge",
} satisfies RouteDeclaration;

export const samples: RouteSamples = {
  pages: [
    "/category/all",
    "/category/all?view=list&sort=title&page=2",
    "/category/电影?sort=rating&page=2",
    "/category/短剧?rating=9",
    "/latest",
    "/top-rated",
  ],
  // A category without titles (any text of a made-up link) is not a page.
  missing: { page: ["/category/nope"] },
};
