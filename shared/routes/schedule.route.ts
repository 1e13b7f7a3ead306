import type { RouteDeclaration, RouteSamples } from "./declare";

/** 追剧周表: the series updating on a weekday, one tab (a link) per weekday, today's first (?day=1–7). */
export default {
  id: "schedule",
  page: () => import("../pages/SchedulePage").then((m) => m.SchedulePage),
  data: { schedule: "schedule" },
  html: "edge",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/schedule", "/schedule?day=5"] };
