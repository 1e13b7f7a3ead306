import type { SiteConfig } from "./site-config";
import type { Library } from "./library";
import type { SessionUser } from "./session-user";

/** Data of the root route: configuration and the signed-in visitor, for every page. */
export interface RootData {
  config: SiteConfig;
  user: SessionUser | null;
  /** The signed-in visitor's saved library (favourites, history); null when signed out. */
  library: Library | null;
}

export const ROOT_ROUTE_ID = "root";
