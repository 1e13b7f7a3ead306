import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Document, type DocumentAssets } from "../shared/Document";
import { createRoutes } from "../shared/routes";
import { clientRootLoader } from "./root-loader";
import { installCoverFallback } from "./cover-fallback";
import "./styles.css";

declare global {
  interface Window {
    __ASSETS__: DocumentAssets;
  }
}

installCoverFallback(document);

// The hydration data (window.__staticRouterHydrationData) is read by the router itself.
const router = createBrowserRouter(createRoutes(clientRootLoader));

hydrateRoot(
  document,
  <StrictMode>
    <Document assets={window.__ASSETS__}>
      <RouterProvider router={router} />
    </Document>
  </StrictMode>,
);
