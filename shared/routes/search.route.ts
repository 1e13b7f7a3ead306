import type { RouteDeclaration, RouteSamples } from "./declare";

/** 搜索: results, or 热门推荐 when nothing matches. Not kept at the edge: endless keys, echoed input. */
export default {
  id: "search",
  page: () => import("../pages/SearchPage").then((m) => m.SearchPage),
  data: { search: "search" },
  html: "public",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/search?q=爱", "/search?q=zzzz", "/search"] };
