import { redirect, type LoaderFunctionArgs } from "react-router";
import { authPageData, type AuthPageData } from "../auth-page-data";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** 登录 / 注册 / 找回密码. A signed-in visitor goes to /profile (worker/pages.ts before any HTML). */
export default {
  id: "auth",
  page: () => import("../pages/AuthPage").then((m) => m.AuthPage),
  paths: ["auth"],
  loader:
    ({ sessionUser }) =>
    async (args: LoaderFunctionArgs): Promise<AuthPageData> => {
      if (await sessionUser(args)) throw redirect("/profile");
      return authPageData(new URL(args.request.url));
    },
  html: "public",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/auth", "/auth?mode=signup", "/auth?mode=signin&error=invalid_credentials"] };
