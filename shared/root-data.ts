import { useRouteLoaderData } from "react-router";
import { defaultSiteConfig, type SiteConfig } from "./site-config";
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

/** Root data; falls back to defaults while the root route itself is in error. */
export function useRootData(): RootData {
  const data = useRouteLoaderData<RootData>(ROOT_ROUTE_ID);
  return data ?? { config: defaultSiteConfig(""), user: null, library: null };
}
