import { redirect, type LoaderFunction, type LoaderFunctionArgs, type RouteObject, type ShouldRevalidateFunction } from "react-router";
import { Layout } from "./components/Layout";
import { homeLoader, infoLoader, listingLoader, notFoundLoader, searchLoader, videoLoader } from "./loaders";
import { HomePage } from "./pages/HomePage";
import { AuthPage, authPageData, type AuthPageData } from "./pages/AuthPage";
import { InfoPage } from "./pages/InfoPage";
import { ListingPage } from "./pages/ListingPage";
import { PageError } from "./pages/NotFoundPages";
import { SearchPage } from "./pages/SearchPage";
import { ProfilePage, type ProfileData } from "./pages/ProfilePage";
import { VideoPage } from "./pages/VideoPage";
import type { SessionUser } from "./session-user";
import { ROOT_ROUTE_ID } from "./root-data";

/**
 * The root data (configuration, signed-in visitor) changes only on sign-in,
 * sign-out or an explicit revalidation, never on a plain navigation.
 */
const rootShouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined || currentUrl.href === nextUrl.href ? defaultShouldRevalidate : false;

/** What differs between the worker and the browser. */
export interface RoutePlatform {
  /** Root data: the worker reads the request, the browser asks the worker. */
  rootLoader: LoaderFunction;
  /** The signed-in visitor, for the /auth and /profile guards. */
  sessionUser(args: LoaderFunctionArgs): SessionUser | null | Promise<SessionUser | null>;
}

/**
 * The one route table of the site, used by the worker (static handler) and the
 * browser (data router).
 */
export function createRoutes({ rootLoader, sessionUser }: RoutePlatform): RouteObject[] {
  /** A signed-in visitor opening /auth goes to /profile. */
  const authLoader = async (args: LoaderFunctionArgs): Promise<AuthPageData> => {
    if (await sessionUser(args)) throw redirect("/profile");
    return authPageData(new URL(args.request.url));
  };
  /** /profile is for signed-in visitors only. */
  const profileLoader = async (args: LoaderFunctionArgs): Promise<ProfileData> => {
    const user = await sessionUser(args);
    if (!user) throw redirect("/auth");
    return { user, now: Date.now() };
  };
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
            { path: "auth", loader: authLoader, element: <AuthPage /> },
            { path: "profile", loader: profileLoader, element: <ProfilePage /> },
            { path: "*", loader: notFoundLoader, element: null },
          ],
        },
      ],
    },
  ];
}
