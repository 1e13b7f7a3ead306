import type { LoaderFunctionArgs } from "../router";
import { confirmPageData } from "../auth-page-data";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** An e-mail link's confirmation (sign-up, e-mail change), confirmed by a POST: its HTML carries the token. */
export default {
  id: "confirm-link",
  page: () => import("../pages/ConfirmLinkPage").then((m) => m.ConfirmLinkPage),
  paths: ["auth/confirm"],
  loader:
    () =>
    ({ request }: LoaderFunctionArgs) =>
      confirmPageData(new URL(request.url)),
  html: "private",
} satisfies RouteDeclaration;

export const samples: RouteSamples = {
  pages: ["/auth/confirm?token_hash=x&type=signup", "/auth/confirm?token_hash=x&type=email_change", "/auth/confirm?type=email_change&notice=other-account"],
};
