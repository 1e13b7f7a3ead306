import type { RootData } from "../shared/root-data";
import type { AccountClient } from "./account-client";

/**
 * The browser's root loader runs only on revalidation (sign-in, sign-out,
 * another tab's change): configuration stays as hydrated, the visitor comes
 * from the account client, which already heard it from the worker.
 */
export function clientRootLoader(account: AccountClient, hydrated: RootData | undefined) {
  const config = hydrated?.config ?? { siteName: "影视站", origin: location.origin, businessContact: "", filingNumber: "", cultureLicence: "" };
  return (): RootData => ({ config, user: account.currentUser(), library: account.savedLibrary() });
}
