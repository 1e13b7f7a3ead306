/**
 * The pages of the site: every declaration listed in `shared/routes/pages.ts`, one line each
 * (docs/ARCHITECTURE.md, "How to add a page"). Their order does not matter: the router ranks
 * paths by how specific they are, the worker's exact match tries the catch-all last, and each
 * route's id is its declaration's (shared/routes/create-routes.tsx).
 */
import type { RouteDeclaration } from "./declare";
import * as pages from "./pages";

export const SITE_ROUTES: readonly RouteDeclaration[] = Object.values(pages);
