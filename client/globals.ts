import type { HydrationData } from "../shared/router/browser";
import type { DocumentAssets } from "../shared/Document";

declare global {
  interface Window {
    /** Written by the worker's bootstrap script: the hashed client files. */
    __ASSETS__: DocumentAssets;
    /** Written by the worker's bootstrap script (each route's data and errors), read by the router (shared/router/browser.ts). */
    __routerHydrationData?: HydrationData;
  }
}

export {};
