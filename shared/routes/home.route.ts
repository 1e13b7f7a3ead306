import type { RouteDeclaration, RouteSamples } from "./declare";

/** 首页: hero, category tiles, 热门/最新/高分 sections. */
export default {
  id: "home",
  page: () => import("../pages/HomePage").then((m) => m.HomePage),
  data: { "": "home" },
  html: "edge",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/"] };
