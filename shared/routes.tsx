import type { LoaderFunction, RouteObject, ShouldRevalidateFunction } from "react-router";
import { Layout } from "./components/Layout";
import { homeLoader, infoLoader, listingLoader, notFoundLoader, searchLoader, videoLoader } from "./loaders";
import { HomePage } from "./pages/HomePage";
import { InfoPage } from "./pages/InfoPage";
import { ListingPage } from "./pages/ListingPage";
import { PageError } from "./pages/NotFoundPages";
import { SearchPage } from "./pages/SearchPage";
import { VideoPage } from "./pages/VideoPage";
import { ROOT_ROUTE_ID } from "./root-data";

/**
 * The root data (configuration, signed-in visitor) changes only on sign-in,
 * sign-out or an explicit revalidation, never on a plain navigation.
 */
const rootShouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined || currentUrl.href === nextUrl.href ? defaultShouldRevalidate : false;

/**
 * The one route table of the site, used by the worker (static handler) and the
 * browser (data router). Only the root loader differs: the worker reads the
 * request, the browser asks the worker.
 */
export function createRoutes(rootLoader: LoaderFunction): RouteObject[] {
  return [
    {
      id: ROOT_ROUTE_ID,
      path: "/",
      loader: rootLoader,
      shouldRevalidate: rootShouldRevalidate,
      element: <Layout />,
      errorElement: (
        <Layout>
          <PageError />
        </Layout>
      ),
      children: [
        {
          id: "pages",
          errorElement: <PageError />,
          children: [
            { index: true, loader: homeLoader, element: <HomePage /> },
            { path: "category/:name", loader: listingLoader("category"), element: <ListingPage /> },
            { path: "latest", loader: listingLoader("latest"), element: <ListingPage /> },
            { path: "top-rated", loader: listingLoader("top-rated"), element: <ListingPage /> },
            { path: "search", loader: searchLoader, element: <SearchPage /> },
            { path: "video/:id", loader: videoLoader, element: <VideoPage /> },
            { path: "info/:page", loader: infoLoader, element: <InfoPage /> },
            { path: "*", loader: notFoundLoader, element: null },
          ],
        },
      ],
    },
  ];
}
