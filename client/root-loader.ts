import type { RootData } from "../shared/root-data";
import { defaultSiteConfig } from "../shared/site-config";
import type { AccountClient } from "./account-client";

/**
 * The browser's root loader runs only on revalidation (sign-in, sign-out,
 * another tab's change): configuration stays as hydrated, the visitor comes
 * from the account client, which already heard it from the worker.
 */
export function clientRootLoader(account: AccountClient, hydrated: RootData | undefined) {
  const config = hydrated?.config ?? defaultSiteConfig(location.origin);
  return (): RootData => ({ config, user: account.currentUser(), library: account.savedLibrary() });
}
