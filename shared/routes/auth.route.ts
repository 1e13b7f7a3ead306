import type { LoaderFunctionArgs } from "../router";
import { authPageData, type AuthPageData } from "../auth-page-data";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** 登录 / 注册 / 找回密码, for signed-out visitors (a signed-in one goes to /profile). */
export default {
  id: "auth",
  page: () => import("../pages/AuthPage").then((m) => m.AuthPage),
  paths: ["auth"],
  loader:
    () =>
    (args: LoaderFunctionArgs): AuthPageData =>
      authPageData(new URL(args.request.url)),
  html: "public",
  visitor: "signed-out",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/auth", "/auth?mode=signup", "/auth?mode=signin&error=invalid_credentials"] };
