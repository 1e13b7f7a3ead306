import { INFO_PAGE_TYPES } from "../content/info-page-types";
import { infoLoader } from "../loaders";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** The information pages (关于我们, 帮助中心, …). */
export default {
  id: "info",
  page: () => import("../pages/InfoPage").then((m) => m.InfoPage),
  paths: ["info/:page"],
  loader: () => infoLoader,
  html: "edge",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: /* @__PURE__ */ INFO_PAGE_TYPES.map((type) => `/info/${type}`), missing: { info: ["/info/nope"] } };
