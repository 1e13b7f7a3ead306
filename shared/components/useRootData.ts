import { useRouteLoaderData } from "../router";
import { ROOT_ROUTE_ID, type RootData } from "../root-data";
import { defaultSiteConfig } from "../site-config";

/** Root data; falls back to defaults while the root route itself is in error. */
export function useRootData(): RootData {
  const data = useRouteLoaderData<RootData>(ROOT_ROUTE_ID);
  return data ?? { config: defaultSiteConfig(""), user: null, library: null };
}
