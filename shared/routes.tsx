import { redirect, type LoaderFunction, type LoaderFunctionArgs, type RouteObject } from "react-router";
import { Layout } from "./components/Layout";
import { infoLoader, notFoundLoader, type CatalogueLoaders } from "./loaders";
import { authPageData, confirmPageData, resetPageData, type AuthPageData } from "./auth-page-data";
import { PageError } from "./pages/NotFoundPages";
import type { ProfileData } from "./pages/ProfilePage";
import type { SessionUser } from "./session-user";
import { ROOT_ROUTE_ID } from "./root-data";
import { rankingLoader, type RankingRunner } from "./ranking";

/**
 * Every page component is its own chunk, so a route loads only its page (the
 * player only on /video, the auth form only on /auth, …). `handle.module`
 * names the source file so that the worker can preload the chunk.
 */
export interface LazyHandle {
  module: string;
}

const lazyPage = (module: string, load: () => Promise<{ Component: () => React.JSX.Element | null }>) => ({
  lazy: load,
  handle: { module } satisfies LazyHandle,
});

const videoPage = lazyPage("shared/pages/VideoPage.tsx", () => import("./pages/VideoPage").then((m) => ({ Component: m.VideoPage })));
const listingPage = lazyPage("shared/pages/ListingPage.tsx", () => import("./pages/ListingPage").then((m) => ({ Component: m.ListingPage })));

/** What differs between the worker and the browser. */
export interface RoutePlatform {
  /** Root data: the worker reads the request, the browser asks the worker. */
  rootLoader: LoaderFunction;
  /** The signed-in visitor, for the /auth and /profile guards. */
  sessionUser: (args: LoaderFunctionArgs) => SessionUser | null | Promise<SessionUser | null>;
  /** The catalogue pages' data: the worker queries D1, the browser asks the worker (GET /api/page/…). */
  catalogue: CatalogueLoaders;
  /** 排行榜: the worker reads the play counts in D1, the browser asks the worker. */
  ranking: RankingRunner;
}

/** Resolves the lazy routes among `matches` (before hydration, so the first render matches the HTML). */
export async function loadLazyMatches(matches: ReadonlyArray<{ route: RouteObject }> | null): Promise<void> {
  await Promise.all(
    (matches ?? [])
      .filter((m) => typeof m.route.lazy === "function")
      .map(async (m) => {
        const lazy = m.route.lazy as () => Promise<Partial<RouteObject>>;
        Object.assign(m.route, { ...(await lazy()), lazy: undefined });
      }),
  );
}

/**
 * The one route table of the site, used by the worker (static handler) and the
 * browser (data router).
 */
export function createRoutes({ rootLoader, sessionUser, catalogue, ranking }: RoutePlatform): RouteObject[] {
  /** A signed-in visitor opening /auth goes to /profile. */
  const authLoader = async (args: LoaderFunctionArgs): Promise<AuthPageData> => {
    if (await sessionUser(args)) throw redirect("/profile");
    return authPageData(new URL(args.request.url));
  };
  /** /profile is for signed-in visitors only. */
  const profileLoader = async (args: LoaderFunctionArgs): Promise<ProfileData> => {
    const user = await sessionUser(args);
    if (!user) throw redirect("/auth?next=/profile");
    return { user, now: Date.now() };
  };
  return [
    {
      // No custom shouldRevalidate: the browser's root loader only reads the account
      // client's memory, and the router's default rule also reloads it when a
      // sign-in/sign-out revalidation is interrupted by a navigation (sign in, then
      // go to /), which a stricter rule skipped, leaving a stale header.
      id: ROOT_ROUTE_ID,
      path: "/",
      loader: rootLoader,
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
            {
              index: true,
              loader: catalogue.home,
              ...lazyPage("shared/pages/HomePage.tsx", () => import("./pages/HomePage").then((m) => ({ Component: m.HomePage }))),
            },
            { path: "category/:name", loader: catalogue.category, ...listingPage },
            { path: "latest", loader: catalogue.latest, ...listingPage },
            { path: "top-rated", loader: catalogue.topRated, ...listingPage },
            {
              path: "ranking",
              loader: rankingLoader(ranking),
              ...lazyPage("shared/pages/RankingPage.tsx", () => import("./pages/RankingPage").then((m) => ({ Component: m.RankingPage }))),
            },
            {
              path: "search",
              loader: catalogue.search,
              ...lazyPage("shared/pages/SearchPage.tsx", () => import("./pages/SearchPage").then((m) => ({ Component: m.SearchPage }))),
            },
            { path: "video/:id", loader: catalogue.video, ...videoPage },
            { path: "video/:id/:episode", loader: catalogue.video, ...videoPage },
            {
              path: "info/:page",
              loader: infoLoader,
              ...lazyPage("shared/pages/InfoPage.tsx", () => import("./pages/InfoPage").then((m) => ({ Component: m.InfoPage }))),
            },
            {
              path: "auth",
              loader: authLoader,
              ...lazyPage("shared/pages/AuthPage.tsx", () => import("./pages/AuthPage").then((m) => ({ Component: m.AuthPage }))),
            },
            {
              path: "auth/reset",
              loader: ({ request }: LoaderFunctionArgs) => resetPageData(new URL(request.url)),
              ...lazyPage("shared/pages/ResetPasswordPage.tsx", () => import("./pages/ResetPasswordPage").then((m) => ({ Component: m.ResetPasswordPage }))),
            },
            {
              path: "auth/confirm",
              loader: ({ request }: LoaderFunctionArgs) => confirmPageData(new URL(request.url)),
              ...lazyPage("shared/pages/ConfirmLinkPage.tsx", () => import("./pages/ConfirmLinkPage").then((m) => ({ Component: m.ConfirmLinkPage }))),
            },
            {
              path: "profile",
              loader: profileLoader,
              ...lazyPage("shared/pages/ProfilePage.tsx", () => import("./pages/ProfilePage").then((m) => ({ Component: m.ProfilePage }))),
            },
            { path: "*", loader: notFoundLoader, element: null },
          ],
        },
      ],
    },
  ];
}
