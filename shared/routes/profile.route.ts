import type { LoaderFunctionArgs } from "../router";
import type { ProfileData } from "../pages/ProfilePage";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** 个人中心, for signed-in visitors only (others sign in first: /auth?next=/profile). */
export default {
  id: "profile",
  page: () => import("../pages/ProfilePage").then((m) => m.ProfilePage),
  paths: ["profile"],
  loader:
    ({ sessionUser }) =>
    async (args: LoaderFunctionArgs): Promise<ProfileData> => {
      const user = await sessionUser(args);
      // The visitor rule below has sent anyone signed out to sign in.
      if (!user) throw new Error("profile: no signed-in visitor");
      return { user, now: Date.now() };
    },
  html: "private",
  visitor: "signed-in",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: [], redirects: ["/profile"] };
