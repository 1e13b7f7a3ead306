import type { HydrationState } from "react-router";
import type { DocumentAssets } from "../shared/Document";

declare global {
  interface Window {
    /** Written by the worker's bootstrap script: the hashed client files. */
    __ASSETS__: DocumentAssets;
    /** Written by the worker's bootstrap script, read by createBrowserRouter. */
    __staticRouterHydrationData?: HydrationState;
  }
}

export {};
