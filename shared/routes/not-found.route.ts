import { notFoundLoader } from "../loaders";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** Any other path: 404, the error boundary shows 404 页面未找到 (shared/pages/NotFoundPages.tsx). */
export default {
  id: "not-found",
  page: null,
  paths: ["*"],
  loader: () => notFoundLoader,
  html: "public",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: [], missing: { page: ["/no/such/page"] } };
