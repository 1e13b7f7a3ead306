import { redirect, type LoaderFunctionArgs } from "react-router";
import type { ProfileData } from "../pages/ProfilePage";
import type { RouteDeclaration, RouteSamples } from "./declare";

/** 个人中心, for signed-in visitors only (others go to /auth, worker/pages.ts before any HTML). */
export default {
  id: "profile",
  page: () => import("../pages/ProfilePage").then((m) => m.ProfilePage),
  paths: ["profile"],
  loader:
    ({ sessionUser }) =>
    async (args: LoaderFunctionArgs): Promise<ProfileData> => {
      const user = await sessionUser(args);
      if (!user) throw redirect("/auth?next=/profile");
      return { user, now: Date.now() };
    },
  html: "private",
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: [], redirects: ["/profile"] };
