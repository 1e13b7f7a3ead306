import { StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Document } from "../shared/Document";
import "./globals";
import { createRoutes } from "../shared/routes";
import { clientRootLoader } from "./root-loader";
import { installCoverFallback } from "./cover-fallback";
import { LibraryProvider } from "./library-provider";
import "./styles.css";


installCoverFallback(document);

/** Marks <html data-hydrated="true"> once React has hydrated (tests and styles can wait for it). */
function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}

// The hydration data (window.__staticRouterHydrationData) is read by the router itself.
const router = createBrowserRouter(createRoutes(clientRootLoader));

hydrateRoot(
  document,
  <StrictMode>
    <Document assets={window.__ASSETS__}>
      <LibraryProvider>
        <RouterProvider router={router} />
      </LibraryProvider>
      <HydrationMarker />
    </Document>
  </StrictMode>,
);
