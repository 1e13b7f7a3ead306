import { startTransition, StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { matchRoutes, RouterProvider } from "../shared/router";
import { createBrowserRouter } from "../shared/router/browser";
import { AccountContext } from "../shared/components/account-context";
import { Document } from "../shared/Document";
import type { RootData } from "../shared/root-data";
import { createRoutes, isDataPageIn, loadLazyMatches } from "../shared/routes/create-routes";
import { AccountClient } from "./account-client";
import { installCardMenu } from "./card-menu-opener";
import { installCoverFallback } from "./cover-fallback";
import "./globals";
import { LibraryProvider } from "./library-provider";
import { startLibrarySync } from "./library-sync";
import { startListsSync } from "./lists-sync";
import { clientRootLoader } from "./root-loader";
import { browserPageData } from "./page-data";
import { installLinkNavigation } from "./link-navigation";
import { installPrefetch } from "./prefetch";
import { fetchRanking } from "./ranking-client";
import "./styles.css";
import { yieldToMain } from "./yield-to-main";

installCoverFallback(document);
installCardMenu(document);

/** Marks <html data-hydrated="true"> once React has hydrated (tests and styles can wait for it). */
function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}

const hydratedRoot = window.__routerHydrationData?.loaderData?.root as RootData | undefined;
const account = new AccountClient(hydratedRoot?.user ?? null, hydratedRoot?.library ?? null);

const routes = createRoutes({
  rootLoader: clientRootLoader(account, hydratedRoot),
  sessionUser: () => account.currentUser(),
  pageData: browserPageData,
  ranking: fetchRanking,
});
installPrefetch(document, (pathname) => isDataPageIn(routes, pathname));
// The page's own lazy chunk (preloaded by the worker) must be there before hydrating.
await loadLazyMatches(matchRoutes(routes, window.location));
// The start after it comes in three tasks, not one (the router; the syncs; hydration): a tap that
// arrives meanwhile waits for one of them only (INP, docs/decisions/0017-early-input.md).
await yieldToMain();
const router = createBrowserRouter(routes, window.__routerHydrationData);
installLinkNavigation(document, (to, { replace }) => void router.navigate(to, { replace }));

// Sign-in, sign-out (here or in another tab) and account updates refresh the root data (header).
account.onAuthStateChange((event) => {
  if (event === "SIGNED_IN" || event === "SIGNED_OUT" || event === "USER_UPDATED") {
    void router.revalidate();
    if (event === "SIGNED_OUT" && location.pathname === "/profile") void router.navigate("/", { replace: true });
  }
});
await yieldToMain();
startLibrarySync(account);
startListsSync(account);
await yieldToMain();

// Hydrating in a transition lets React yield to the browser every few milliseconds instead of
// blocking the main thread for the whole page (input stays responsive; Lighthouse's TBT drops).
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <Document assets={window.__ASSETS__}>
        <AccountContext.Provider value={account}>
          <LibraryProvider>
            <RouterProvider router={router} />
          </LibraryProvider>
        </AccountContext.Provider>
        <HydrationMarker />
      </Document>
    </StrictMode>,
  );
});
