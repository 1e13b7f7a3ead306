import { rankingLoader } from "../ranking";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** 排行榜: plays per title over a day, a week or a month (?period=). */
export default {
  id: "ranking",
  page: () => import("../pages/RankingPage").then((m) => m.RankingPage),
  paths: ["ranking"],
  loader: ({ ranking }) => rankingLoader(ranking),
  html: "edge",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/ranking", "/ranking?period=week"] };
