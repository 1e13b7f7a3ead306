import type { LoaderFunctionArgs } from "../router";
import { resetPageData } from "../auth-page-data";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** 重置密码, opened from the e-mail link: its HTML carries the link's token. */
export default {
  id: "reset-password",
  page: () => import("../pages/ResetPasswordPage").then((m) => m.ResetPasswordPage),
  paths: ["auth/reset"],
  loader:
    () =>
    ({ request }: LoaderFunctionArgs) =>
      resetPageData(new URL(request.url)),
  html: "private",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/auth/reset"] };
