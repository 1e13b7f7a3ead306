import type { RouteDeclaration, RouteSamples } from "./declare";

/**
 * 我的片单: 我的追剧 and 稍后再看, read from the browser (the account's lists once signed in):
 * the server's HTML is the same for everyone, the lists arrive after hydration.
 */
export default {
  id: "library",
  page: () => import("../pages/LibraryPage").then((m) => m.LibraryPage),
  paths: ["library"],
  loader: () => () => null,
  html: "edge",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/library"] };
