/**
 * The pages of the site, one line each (docs/ARCHITECTURE.md, "How to add a page"). The order is
 * the route table's (React Router ranks paths by how specific they are; the order only names the
 * routes' ids in the hydration data).
 */
import type { RouteDeclaration } from "./declare";
import home from "./home.route";
import listing from "./listing.route";
import ranking from "./ranking.route";
import search from "./search.route";
import video from "./video.route";
import info from "./info.route";
import auth from "./auth.route";
import resetPassword from "./reset-password.route";
import confirmLink from "./confirm-link.route";
import profile from "./profile.route";
import notFound from "./not-found.route";

export const SITE_ROUTES: readonly RouteDeclaration[] = [home, listing, ranking, search, video, info, auth, resetPassword, confirmLink, profile, notFound];
